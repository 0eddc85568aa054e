"""The REST server's bounds under load, measured for the documentation's Reliability page.

    python -m tests.benchmarks.server_reliability [--scale 1] [--queries 1000] [--smoke]

Serves a generated org with `crm-tui org serve` in its own process (so its memory is its
own) over plain http on 127.0.0.1 and measures: the worst queries' times against the
time budget, a COUNT() from another client while they run (with the query workers
`org serve` starts by default, and, alternating with it as the floor, with every query
in the server's process: `--query-workers 0`), 20 clients opening a connection per
request, and the resident memory (VmRSS, peak VmHWM) of the server and of its query
workers after `--queries` `SELECT <all fields> FROM PricebookEntry` that each leave a
query locator.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from crm_tui.org.server.rest import LOCATOR_BYTES, QUERY_SECONDS
from crm_tui.org.soql.executor import MAX_QUERY_CHARS
from crm_tui.org.soql.parser import MAX_NESTING
from crm_tui.org.soql.sosl import MAX_SEARCH_TERMS
from tests.benchmarks import smoke

PASSWORD = "bench-password"
ALL_ENTRY_FIELDS = (
    "Id, Name, Pricebook2Id, Product2Id, UnitPrice, Product2.Name, Product2.Description, "
    "Product2.IsActive, Pricebook2.Name"
)
WORST = {
    f"SOSL: {MAX_SEARCH_TERMS} prefix terms OR-ed": (
        "search",
        "FIND {" + " OR ".join(["a*", "e*", "o*", "i*"] * (MAX_SEARCH_TERMS // 4)) + "}",
    ),
    "SOQL: 3 LIKE '%x%' over parent paths, sorted": (
        "query",
        "SELECT Id, Name FROM PricebookEntry WHERE Product2.Name LIKE '%a%' "
        "OR Product2.Description LIKE '%e%' OR Pricebook2.Name LIKE '%o%' ORDER BY Name",
    ),
    "SOQL: every PricebookEntry with parent fields": (
        "query",
        f"SELECT {ALL_ENTRY_FIELDS} FROM PricebookEntry",
    ),
}


class Client:
    def __init__(self, port: int, session: str):
        self.port, self.session = port, session

    def get(self, resource: str, text: str, batch: int | None = None) -> tuple[int, bytes]:
        path = f"/services/data/v59.0/{resource}/?q={urllib.parse.quote(text)}"
        headers = {"Authorization": f"Bearer {self.session}"}
        if batch:
            headers["Sforce-Query-Options"] = f"batchSize={batch}"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()


def serve(
    org: Path, home: Path, workers: int | None = None
) -> tuple[subprocess.Popen[str], Client]:
    """`crm-tui org serve` with its default query workers, or `workers` of them."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from crm_tui.cli import main; main()", "org", "serve"]
        + ["--org", str(org), "--port", "0", "--password", PASSWORD]
        + ([] if workers is None else ["--query-workers", str(workers)]),
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRM_TUI_HOME": str(home)},
    )
    assert process.stdout is not None
    url = process.stdout.readline().split(" at ")[1].split()[0]
    session = process.stdout.readline().split(": ")[1].strip()
    return process, Client(int(url.rsplit(":", 1)[1]), session)


def memory_kb(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def workers_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM summed over the server's query workers (its spawned children)."""
    total = {"VmRSS": 0, "VmHWM": 0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_text()
            if parent == pid and "spawn_main" in command:
                for key, value in memory_kb(int(stat.parent.name)).items():
                    total[key] += value
        except (OSError, ValueError):  # gone meanwhile
            continue
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--queries", type=int, default=1000)
    # runs of each worst query, COUNT() rounds (workers, then floor) and requests per
    # round, clients and requests per client
    parser.set_defaults(runs=3, rounds=3, counts=100, clients=20, per_client=50)
    args = smoke.parse(
        parser,
        argv,
        scale=smoke.SMOKE_SCALE,
        queries=10,
        runs=1,
        rounds=1,
        counts=5,
        clients=2,
        per_client=5,
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        org = folder / "org.sqlite"
        from crm_tui.org.generate.build_file import generate

        generate(org, seed=1, scale=args.scale)
        counts_while_busy(org, folder, args)
        process, client = serve(org, folder)
        try:
            run(process, client, args)
        finally:
            process.terminate()
            process.wait(timeout=30)


def count_times(client: Client, counts: int) -> list[float]:
    """Seconds of `counts` COUNT() requests while the worst queries run in a loop."""
    stop = threading.Event()

    def hammer(resource: str, text: str) -> None:
        while not stop.is_set():
            client.get(resource, text)

    threads = [threading.Thread(target=hammer, args=w) for w in WORST.values()]
    for t in threads:
        t.start()
    time.sleep(0.5)
    times = []
    for _ in range(counts):
        start = time.perf_counter()
        client.get("query", "SELECT COUNT() FROM Case WHERE Status = 'Closed'")
        times.append(time.perf_counter() - start)
    stop.set()
    for t in threads:
        t.join()
    return times


def counts_while_busy(org: Path, folder: Path, args: argparse.Namespace) -> None:
    """COUNT() behind the worst queries: `org serve` as it starts by default, alternating
    with every query in the server's process (the floor), on the same machine load."""
    times: dict[str, list[float]] = {"query workers (default)": [], "in-process (floor)": []}
    for _ in range(args.rounds):
        for label, workers in zip(times, (None, 0)):
            process, client = serve(org, folder, workers)
            try:
                times[label] += count_times(client, args.counts)
            finally:
                process.terminate()
                process.wait(timeout=30)
    print(
        "COUNT() while the three worst queries run in a loop (load "
        f"{os.getloadavg()[0]:.1f}, {os.cpu_count()} cores):"
    )
    for label, values in times.items():
        print(
            f"  {label}: p50 {pct(values, 0.5):.1f} ms, p99 {pct(values, 0.99):.1f} ms "
            f"({len(values)} requests in {args.rounds} rounds)"
        )
    print()


def run(process: subprocess.Popen[str], client: Client, args: argparse.Namespace) -> None:
    print(f"{args.scale:g}x org; bounds: query time budget {QUERY_SECONDS:g} s, ")
    print(f"  {MAX_QUERY_CHARS:,} characters, {MAX_SEARCH_TERMS} search terms, ")
    print(f"  nesting {MAX_NESTING}, kept locators {LOCATOR_BYTES >> 20} MB of JSON\n")
    print(f"| worst query | ms ({args.runs} runs, median) | answer |")
    print("|---|---:|---|")
    for name, (resource, text) in WORST.items():
        times, status = [], 0
        for _ in range(args.runs):
            start = time.perf_counter()
            status, body = client.get(resource, text)
            times.append(time.perf_counter() - start)
        print(f"| {name} | {statistics.median(times) * 1000:,.0f} | HTTP {status} |")
    print()

    timings: list[float] = []
    lock = threading.Lock()

    def connect_per_request() -> None:
        for _ in range(args.per_client):
            start = time.perf_counter()
            conn = http.client.HTTPConnection("127.0.0.1", client.port, timeout=30)
            conn.request("GET", "/services/data")
            conn.getresponse().read()
            conn.close()
            with lock:
                timings.append(time.perf_counter() - start)

    clients = [threading.Thread(target=connect_per_request) for _ in range(args.clients)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    print(
        f"{args.clients} clients, a new connection per request: p50 {pct(timings, 0.5):.1f} ms, "
        f"p99 {pct(timings, 0.99):.1f} ms ({len(timings)} requests)"
    )

    before = memory_kb(process.pid)
    text = f"SELECT {ALL_ENTRY_FIELDS} FROM PricebookEntry"
    start = time.perf_counter()
    for i in range(args.queries):
        status, body = client.get("query", text, batch=200)
        assert status == 200 and not json.loads(body)["done"], body[:200]
        if (i + 1) % 100 == 0:
            print(f"  {i + 1} queries: {memory_kb(process.pid)}", file=sys.stderr)
    after, workers = memory_kb(process.pid), workers_kb(process.pid)
    print(
        f"server memory: {before['VmRSS'] // 1024} MB before; after {args.queries:,} "
        f"locator-keeping queries ({time.perf_counter() - start:.0f} s): "
        f"{after['VmRSS'] // 1024} MB resident, peak {after['VmHWM'] // 1024} MB; "
        f"its query workers together {workers['VmRSS'] // 1024} MB resident, peak "
        f"{workers['VmHWM'] // 1024} MB"
    )


if __name__ == "__main__":
    main()
