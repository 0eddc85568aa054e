"""Time a typical report on both backends: closed cases of one year by owner, average Age.

    python -m tests.benchmarks.bench_reports [--scale 10] [--repeat 20]

Generates an org (or reuses the one the other benchmarks wrote), runs the report on the
local backend (one SQL statement) and on the Salesforce backend against the loopback
server (COUNT(), then the rows through simple-salesforce, aggregated in Python), and prints
p50/p95 and the rows each fetches, as a Markdown table for the README.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from crm_tui.org.backends.interface import Backend, Operator
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials, TimeoutSession
from crm_tui.org.reports import (
    DateRange,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
)
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer
from tests.benchmarks.bench_salesforce_backend import LoginRedirect

REPORT = ReportDefinition(
    "Case",
    name="Closed cases of 2023 by owner, average Age",
    filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
    date_ranges=(DateRange("ClosedDate", "2023"),),
    groupings=(Grouping("OwnerId"),),
    summaries=(Summary.parse("AVG(Age)"),),
    sort=SummarySort("AVG(Age)", descending=False),
)


def timed(backend: Backend, repeat: int) -> tuple[list[float], int, int]:
    samples = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = backend.run_report(REPORT)
        samples.append((time.perf_counter() - start) * 1000)
    assert result is not None
    return samples, result.record_count, result.group_count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--scale", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    folder = Path(tempfile.gettempdir())
    path = folder / f"crm-tui-bench-{args.scale:g}x.sqlite"
    if not path.exists():
        from crm_tui.org.generate.build_file import generate

        generate(path, seed=args.seed, scale=args.scale)
    certs = make_loopback_certificates(folder / "crm-tui-bench-certs")
    with OrgServer(path, tls=certs.server_context()) as server:
        session = TimeoutSession()
        session.verify, session.trust_env = str(certs.ca_pem), False
        session.mount("https://login.salesforce.com/", LoginRedirect(server.port))
        remote = SalesforceBackend(
            SalesforceCredentials(server.username, server.password, ""), session=session
        )
        local = LocalBackend(path)
        cases = local.count("Case")
        print(f"{args.scale:g}x org ({cases:,} cases): {REPORT.name}\n")
        print("| backend | p50 ms | p95 ms | cases in the report | groups |")
        print("|---|---:|---:|---:|---:|")
        for name, backend in (
            ("local (one SQL statement)", local),
            ("salesforce (loopback)", remote),
        ):
            samples, rows, groups = timed(backend, args.repeat)
            p50, p95 = np.percentile(samples, [50, 95])
            print(f"| {name} | {p50:.0f} | {p95:.0f} | {rows:,} | {groups} |")
        remote.close()
        local.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
