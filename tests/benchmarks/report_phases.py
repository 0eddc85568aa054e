"""Where the Age report's time goes through the Salesforce backend, as `org serve` serves it.

    python -m tests.benchmarks.report_phases [--org PATH] [--scale 100] [--repeat 15]

Runs `bench_reports.REPORT` (closed cases of 2023 by owner, average Age) through the
Salesforce backend against a loopback server in a process of its own with its query
workers, and prints the median (and max) milliseconds from the start of a run to the end
of each phase: the rows fetched (their query and pages, the names' going out alongside),
aggregated, labelled and sorted, and the run's end (what is freed on return included).
The phases are read by wrapping the functions by name, so the script also times an older
checkout (`PYTHONPATH=<its folder>`), which is how a change is compared with the code
before it: alternate the two, a few times.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import crm_tui.org.backends.salesforce as salesforce
import crm_tui.org.reports.fetch as fetch
from tests.benchmarks import smoke
from tests.benchmarks.bench_reports import REPORT, server_process

PHASES = {"rows fetched": "rows<", "aggregated": "aggregate_records<", "labelled": "finish<"}


def _marking(marks: dict[str, float], name: str, work: Callable[..., Any]) -> Callable[..., Any]:
    def marked(*args: Any, **kwargs: Any) -> Any:
        result = work(*args, **kwargs)
        marks.setdefault(name + "<", time.perf_counter())  # the first call of a run counts
        return result

    return marked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--org", type=Path, help="an org file (default: the bench org)")
    parser.add_argument("--scale", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=15)
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, repeat=2)
    with smoke.bench_folder(args.smoke) as folder:
        org = args.org or smoke.task_org(folder, args.scale, args.seed)
        marks: dict[str, float] = {}
        for name in ("aggregate_records", "finish"):
            setattr(fetch, name, _marking(marks, name, getattr(fetch, name)))
        backend_class = salesforce.SalesforceBackend
        rows_marked = _marking(marks, "rows", backend_class._bounded_rows)
        backend_class._bounded_rows = rows_marked  # type: ignore[method-assign]
        runs: list[dict[str, float]] = []
        with server_process(org, folder) as (backend, _):
            backend.run_report(REPORT)  # warm: describes cached, the org's pages read
            for _ in range(args.repeat):
                marks.clear()
                start = time.perf_counter()
                backend.run_report(REPORT)
                end = time.perf_counter()
                runs.append(
                    {k: (v - start) * 1000 for k, v in marks.items()}
                    | {"end": (end - start) * 1000}
                )
    print(f"{org.name}: the Age report through `org serve`, {args.repeat} runs\n")
    print("| phase ended | median ms from the start | max ms |")
    print("|---|---:|---:|")
    for label, key in [*PHASES.items(), ("run", "end")]:
        values = [run[key] for run in runs]
        print(f"| {label} | {statistics.median(values):.0f} | {max(values):.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
