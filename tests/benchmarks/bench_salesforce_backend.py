"""Time the browser's calls on the Salesforce backend against the loopback server.

    python -m tests.benchmarks.bench_salesforce_backend [--scale 1] [--repeat 20] [--smoke]

Generates an org (or reuses it), serves it over TLS on 127.0.0.1, logs in with a username,
password and token through the unmodified simple-salesforce, and times each browser
interaction next to the local backend on the same file, with the API calls each costs.
Loopback figures measure crm-tui + simple-salesforce + the SOQL engine; a real org adds
its network round trips (one per call) on top. Prints a Markdown table for the documentation.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from crm_tui.org.backends.interface import Backend, Filter, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials, TimeoutSession
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer
from tests.benchmarks import smoke
from tests.helpers.sf_client import login_session


def interactions(backend: Backend, rng: random.Random, repeat: int):
    """(name, call) pairs, the way the screens make them."""
    cases = backend.page("Case", sort=Sort("Id"), limit=500).records
    for _ in range(repeat):
        cursor = backend.page("Case", limit=100).next_cursor
        case = rng.choice(cases)
        yield "open Case list view (first page)", lambda: backend.page("Case", limit=100)
        yield "next page", lambda c=cursor: backend.page("Case", after=c, limit=100)
        yield (
            "sort by an indexed field",
            lambda: backend.page(
                "Case", sort=Sort(rng.choice(["CaseNumber", "Status", "ClosedDate"]), True)
            ),
        )
        yield (
            "filter (first page)",
            lambda: backend.page(
                "Case", [Filter("Status", "=", rng.choice(["New", "Closed", "Working"]))]
            ),
        )
        yield (
            "search (50 hits)",
            lambda: backend.search(rng.choice(["shipping", "refund", "jacket", "late"]), limit=50),
        )
        yield (
            "open a record with its related lists",
            lambda c=case: (backend.get_record(c["Id"]), backend.related(c["Id"])),
        )


def run(backend: Backend, repeat: int, seed: int) -> dict[str, tuple[list[float], float]]:
    samples: dict[str, list[float]] = {}
    calls: dict[str, list[int]] = {}
    usage = getattr(backend, "usage", None)
    for name, call in interactions(backend, random.Random(seed), repeat):
        before = usage.calls if usage else 0
        start = time.perf_counter()
        call()
        samples.setdefault(name, []).append((time.perf_counter() - start) * 1000)
        calls.setdefault(name, []).append((usage.calls if usage else 0) - before)
    return {name: (values, float(np.mean(calls[name]))) for name, values in samples.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
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
        start = time.perf_counter()
        remote = SalesforceBackend(
            SalesforceCredentials(server.username, server.password, ""), session=session
        )
        connect_ms = (time.perf_counter() - start) * 1000
        local = LocalBackend(path)
        results = {
            "local": run(local, args.repeat, args.seed),
            "salesforce": run(remote, args.repeat, args.seed),
        }
        print(f"{args.scale:g}x org; Salesforce login + org Id: {connect_ms:.0f} ms\n")
        print("| interaction | local p50/p95 ms | salesforce p50/p95 ms | API calls |")
        print("|---|---:|---:|---:|")
        for name, (values, calls) in results["salesforce"].items():
            lp50, lp95 = np.percentile(results["local"][name][0], [50, 95])
            p50, p95 = np.percentile(values, [50, 95])
            print(f"| {name} | {lp50:.1f} / {lp95:.1f} | {p50:.1f} / {p95:.1f} | {calls:g} |")
        print(f"\n{remote.usage}")
        remote.close()
        local.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
