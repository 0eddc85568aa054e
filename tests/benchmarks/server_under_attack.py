"""20 clients' COUNT() while the server is attacked, for the documentation's Reliability page.

    python -m tests.benchmarks.server_under_attack [--scale 1] [--seconds 20] [--smoke]

Serves a generated org with `crm-tui org serve` (its default query workers) over plain
http on 127.0.0.1, and measures the time of a `COUNT()` from each of 20 clients, one
request after another, first alone and then under each attack in turn:

- the worst SOAP login body: 1 MB of opening tags (`<username>` repeated), sent again as
  soon as it is answered, with no credentials;
- slow headers: 100 connections (every slot the server has) that send a header line every
  second and never end their headers, reconnecting when the server ends them;
- the big child sub-query: `SELECT ..., (SELECT ... FROM Cases) FROM Account LIMIT 200`
  from 4 clients in a loop, each answer read slowly.

Prints a table of the COUNT()s' median, 99th percentile and worst time, and how many of
them were not answered 200.
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from tests.benchmarks import smoke
from tests.benchmarks.server_reliability import serve

COUNT = "SELECT COUNT() FROM Case"
BIG_CHILDREN = (
    "SELECT Id, Name, (SELECT Id, Subject, Description, Status, Priority FROM Cases) "
    "FROM Account LIMIT 200"
)
WORST_LOGIN = b"<username>" * ((1 << 20) // len(b"<username>"))


def request(port: int, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(method, path, body=body, headers=headers)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    except OSError:
        return 0
    finally:
        conn.close()


def query_path(text: str) -> str:
    return f"/services/data/v59.0/query/?q={urllib.parse.quote(text)}"


def counts(port: int, session: str, clients: int, seconds: float) -> tuple[list[float], int]:
    """COUNT() times of `clients` clients for `seconds`, and how many were not a 200."""
    auth = {"Authorization": f"Bearer {session}"}
    times: list[float] = []
    failures = 0
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def client() -> None:
        nonlocal failures
        while time.monotonic() < end:
            start = time.perf_counter()
            status = request(port, "GET", query_path(COUNT), auth)
            took = time.perf_counter() - start
            with lock:
                times.append(took)
                failures += status != 200
            time.sleep(0.02)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times, failures


def worst_login(port: int, session: str, stop: threading.Event) -> None:
    while not stop.is_set():
        request(port, "POST", "/services/Soap/u/59.0", {"SOAPAction": "login"}, WORST_LOGIN)


def slow_headers(port: int, session: str, stop: threading.Event, connections: int = 100) -> None:
    def one() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                    sock.sendall(b"GET /services/data HTTP/1.1\r\nHost: x\r\n")
                    n = 0
                    while not stop.wait(1.0):
                        sock.sendall(f"X-{n}: y\r\n".encode())
                        n += 1
            except OSError:  # ended by the server: come back
                stop.wait(0.1)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(connections)]
    for t in threads:
        t.start()
    stop.wait()


def big_children(port: int, session: str, stop: threading.Event, clients: int = 4) -> None:
    def one() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
                    sock.sendall(
                        f"GET {query_path(BIG_CHILDREN)} HTTP/1.1\r\nHost: x\r\n"
                        f"Authorization: Bearer {session}\r\nConnection: close\r\n\r\n".encode()
                    )
                    while not stop.is_set() and sock.recv(16384):  # a slow reader
                        time.sleep(0.001)
            except OSError:
                stop.wait(0.1)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    stop.wait()


ATTACKS: dict[str, Callable[[int, str, threading.Event], None] | None] = {
    "no attack": None,
    "worst SOAP login body (1 MB, no credentials), in a loop": worst_login,
    "slow headers on 100 connections": slow_headers,
    "child sub-query (200 Accounts with their Cases), 4 slow readers": big_children,
}


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=20.0, help="COUNT()s per attack")
    parser.add_argument("--clients", type=int, default=20)
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, seconds=2.0, clients=4)
    with smoke.bench_folder(args.smoke) as folder:
        org = smoke.task_org(folder, args.scale)
        home = folder / "attack-home"
        home.mkdir(exist_ok=True)
        run(org, home, args)


def run(org: Path, home: Path, args: argparse.Namespace) -> None:
    process, client = serve(org, home)
    rows = []
    try:
        # Each attack's query must be answered, or its row measures an error's path.
        auth = {"Authorization": f"Bearer {client.session}"}
        status = request(client.port, "GET", query_path(BIG_CHILDREN), auth)
        if status != 200:
            raise SystemExit(f"the child sub-query is answered {status}, not 200: fix it")
        for name, attack in ATTACKS.items():
            stop = threading.Event()
            attacker = None
            if attack is not None:
                attacker = threading.Thread(
                    target=attack, args=(client.port, client.session, stop), daemon=True
                )
                attacker.start()
                time.sleep(min(2.0, args.seconds / 4))  # the attack under way first
            times, failures = counts(client.port, client.session, args.clients, args.seconds)
            stop.set()
            if attacker is not None:
                attacker.join(30)
            rows.append(
                f"| {name} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
                f"{ms(times, 0.99):.1f} | {max(times) * 1000:.1f} | {failures} |"
            )
            time.sleep(1.0)  # the attack's connections end
    finally:
        process.terminate()
        process.wait(timeout=60)
    print(
        f"{args.clients} clients' COUNT() for {args.seconds:g} s each, org at scale {args.scale:g}\n"
    )
    print("| while | COUNT()s | median ms | p99 ms | worst ms | not 200 |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
