"""Time typical reports on both backends, as a Markdown table for the documentation.

    python -m tests.benchmarks.bench_reports [--scale 10] [--repeat 20] [--smoke]

Generates an org (or reuses the one the other benchmarks wrote; the file is cached in the
temp folder as crm-tui-bench-<scale>x-seed<seed>-<generator hash>.sqlite) and runs two
reports on the local backend (one SQL statement) and on the Salesforce backend against the loopback server:

* closed cases of 2023 by owner, average Age: SOQL cannot average a duration, so the
  Salesforce backend fetches the rows through simple-salesforce (the first page's
  totalSize bounds the fetch: no COUNT() first) and aggregates them in Python (the
  fetch path);
* closed cases of 2023 by the account's state and the month closed, distinct owners:
  one SOQL aggregate query and one for the distinct grand total (the aggregate path).

Each report runs once untimed first (describes cached, the org file's pages read), then
`--repeat` times; prints wall p50/p95, CPU p50 (of this process: client and loopback
server together, which other jobs on a shared machine do not inflate), the path the
Salesforce backend took and the API calls of one run. The Salesforce backend runs twice:
with the loopback server in this process (its threads share the client's GIL), and with
the server in a process of its own with its query workers, as `crm-tui org serve` runs it
(there the CPU is the client's plus the server process's, each measured in its own
process, shown side by side; the query workers' CPU is not counted).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from crm_tui.org.backends.interface import Backend, Operator
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials, TimeoutSession
from crm_tui.org.reports import (
    DateGranularity,
    DateRange,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
)
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer, default_query_workers
from tests.benchmarks import smoke
from tests.helpers.sf_client import login_session

REPORT = ReportDefinition(
    "Case",
    name="Closed cases of 2023 by owner, average Age",
    filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
    date_ranges=(DateRange("ClosedDate", "2023"),),
    groupings=(Grouping("OwnerId"),),
    summaries=(Summary.parse("AVG(Age)"),),
    sort=SummarySort("AVG(Age)", descending=False),
)
AGGREGATE_REPORT = ReportDefinition(
    "Case",
    name="Closed cases of 2023 by state and month, distinct owners",
    filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
    date_ranges=(DateRange("ClosedDate", "2023"),),
    groupings=(Grouping("Account.ShippingState"), Grouping("ClosedDate", DateGranularity.MONTH)),
    summaries=(Summary.parse("COUNT_DISTINCT(OwnerId)"),),
)

WORKERS = default_query_workers()  # as `crm-tui org serve` starts its server


def timed(
    backend: Backend,
    report: ReportDefinition,
    repeat: int,
    server_cpu: Callable[[], float] | None = None,
) -> tuple[list[float], list[float], int, int, list[float]]:
    """Wall and CPU milliseconds per run (CPU: this process, so an in-process loopback
    server's threads too: what a shared machine's other jobs do not inflate), rows and
    groups, and the CPU milliseconds of a server in its own process (`server_cpu`)."""
    backend.run_report(report)  # warm: describes cached, the org's pages in the OS cache
    samples, cpu, served = [], [], []
    result = None
    for _ in range(repeat):
        server_start = server_cpu() if server_cpu else 0.0
        start, start_cpu = time.perf_counter(), time.process_time()
        result = backend.run_report(report)
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        served.append(((server_cpu() if server_cpu else 0.0) - server_start) * 1000)
    assert result is not None
    return samples, cpu, result.record_count, result.group_count, served


def _serve(org: str, cert_dir: str, link: Connection) -> None:
    """The loopback server in a process of its own: sends its port, login and CA, then
    its CPU seconds (all its threads) each time it is asked, until told to stop."""
    certs = make_loopback_certificates(Path(cert_dir))
    with OrgServer(org, tls=certs.server_context(), query_workers=WORKERS) as server:
        link.send((server.port, server.username, server.password, str(certs.ca_pem)))
        while link.recv() == "cpu":
            link.send(time.process_time())


@contextmanager
def server_process(
    path: Path, folder: Path
) -> Iterator[tuple[SalesforceBackend, Callable[[], float]]]:
    """The Salesforce backend on a loopback server in another process, and a function
    reading that process's CPU seconds."""
    context = multiprocessing.get_context("spawn")  # no copy of this process's threads
    ours, theirs = context.Pipe()
    certs = folder / "crm-tui-bench-certs-server-process"
    process = context.Process(target=_serve, args=(str(path), str(certs), theirs))
    process.start()
    try:
        port, username, password, ca_pem = ours.recv()
        where = SimpleNamespace(port=port)  # what login_session reads of a server
        session = login_session(where, Path(ca_pem), TimeoutSession())  # type: ignore[arg-type]
        backend = SalesforceBackend(SalesforceCredentials(username, password, ""), session=session)

        def server_cpu() -> float:
            ours.send("cpu")
            return float(ours.recv())

        yield backend, server_cpu
        backend.close()
    finally:
        ours.send("stop")
        process.join(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--scale", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, repeat=1)
    with smoke.bench_folder(args.smoke) as folder:
        return measure(folder, args)


def measure(folder: Path, args: argparse.Namespace) -> int:
    path = smoke.task_org(folder, args.scale, args.seed)
    certs = make_loopback_certificates(folder / "crm-tui-bench-certs")
    with OrgServer(path, tls=certs.server_context()) as server:
        session = login_session(server, certs.ca_pem, TimeoutSession())
        remote = SalesforceBackend(
            SalesforceCredentials(server.username, server.password, ""), session=session
        )
        local = LocalBackend(path)
        cases = local.count("Case")
        print(f"{args.scale:g}x org ({cases:,} cases), {args.repeat} runs each\n")
        print("| report | backend | p50 ms | p95 ms | CPU p50 ms | cases in the report | groups |")
        print("|---|---|---:|---:|---:|---:|---:|")
        with server_process(path, folder) as (apart, server_cpu):
            for report in (REPORT, AGGREGATE_REPORT):
                for backend in (local, remote, apart):
                    served = server_cpu if backend is apart else None
                    samples, cpu, rows, groups, spent = timed(backend, report, args.repeat, served)
                    p50, p95 = np.percentile(samples, [50, 95])
                    cpu50 = f"{np.percentile(cpu, 50):.0f}"
                    if backend is local:
                        name = "local (one SQL statement)"
                    else:
                        assert isinstance(backend, SalesforceBackend)
                        calls = backend.usage.calls
                        backend.run_report(report)
                        calls = backend.usage.calls - calls
                        where = (
                            "this process, no query workers (as the tests run it)"
                            if served is None
                            else f"its own process, {WORKERS} query workers (as `org serve`)"
                        )
                        name = (
                            f"Salesforce over loopback ({backend.last_report_path}, {calls} "
                            f"calls), server in {where}"
                        )
                    if served is not None:  # the client's CPU and the server's
                        client, server = np.percentile(cpu, 50), np.percentile(spent, 50)
                        cpu50 = f"{client + server:.0f} ({client:.0f} + {server:.0f})"
                    print(
                        f"| {report.name} | {name} | {p50:.0f} | {p95:.0f} | {cpu50} | "
                        f"{rows:,} | {groups:,} |"
                    )
        remote.close()
        local.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
