"""The REST server's bounds under load, measured for the README's Reliability section.

    python -m tests.benchmarks.server_reliability [--scale 1] [--queries 1000] [--smoke]

Serves a generated org with `crm-tui org serve` in its own process (so its memory is its
own) over plain http on 127.0.0.1 and measures: the worst queries' times against the
time budget, a COUNT() from another client while they run, 20 clients opening a
connection per request, and the server's resident memory (VmRSS, peak VmHWM) after
`--queries` `SELECT <all fields> FROM PricebookEntry` that each leave a query locator.
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


def serve(org: Path, home: Path) -> tuple[subprocess.Popen[str], Client]:
    process = subprocess.Popen(
        [sys.executable, "-c", "from crm_tui.cli import main; main()", "org", "serve"]
        + ["--org", str(org), "--port", "0", "--password", PASSWORD],
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


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--queries", type=int, default=1000)
    # runs of each worst query, COUNT() requests, clients and requests per client
    parser.set_defaults(runs=3, counts=100, clients=20, per_client=50)
    args = smoke.parse(
        parser, argv, scale=smoke.SMOKE_SCALE, queries=10, runs=1, counts=5, clients=2, per_client=5
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        org = folder / "org.sqlite"
        from crm_tui.org.generate.build_file import generate

        generate(org, seed=1, scale=args.scale)
        process, client = serve(org, folder)
        try:
            run(process, client, args)
        finally:
            process.terminate()
            process.wait(timeout=30)


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

    stop = threading.Event()

    def hammer(resource: str, text: str) -> None:
        while not stop.is_set():
            client.get(resource, text)

    threads = [threading.Thread(target=hammer, args=w) for w in WORST.values()]
    for t in threads:
        t.start()
    time.sleep(0.5)
    counts = []
    for _ in range(args.counts):
        start = time.perf_counter()
        client.get("query", "SELECT COUNT() FROM Case WHERE Status = 'Closed'")
        counts.append(time.perf_counter() - start)
    stop.set()
    for t in threads:
        t.join()
    print(
        f"\nCOUNT() while the three worst queries run in a loop: p50 {pct(counts, 0.5):.1f} ms, "
        f"p99 {pct(counts, 0.99):.1f} ms ({len(counts)} requests)"
    )

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
    after = memory_kb(process.pid)
    print(
        f"server memory: {before['VmRSS'] // 1024} MB before; after {args.queries:,} "
        f"locator-keeping queries ({time.perf_counter() - start:.0f} s): "
        f"{after['VmRSS'] // 1024} MB resident, peak {after['VmHWM'] // 1024} MB"
    )


if __name__ == "__main__":
    main()
