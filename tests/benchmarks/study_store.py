"""Study store timings: one committed event, open_next + submit, and two writers at once.

Run: python -m tests.benchmarks.study_store  (prints a Markdown table for the documentation;
`--smoke`: 20 events, 10 instances of each family).
"""

from __future__ import annotations

import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work.attempts import open_next, record_event, submit
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.benchmarks.smoke import crmarena_taskset, smoke_only

EVENTS = 500
CYCLES = 40


def _percentiles(samples_ms: list[float]) -> str:
    cuts = statistics.quantiles(samples_ms, n=100)
    return f"{statistics.median(samples_ms):.2f} ms | {cuts[94]:.2f} ms"


def _writer(path: Path, study_id: int, annotator_id: int, events: int) -> None:
    with StudyStore.open(path) as store:
        view = open_next(store, study_id, annotator_id)
        assert view is not None
        attempt = view.attempt_id
        for n in range(events):
            record_event(store, attempt, "record_viewed", {"n": n})


def main(argv: list[str] | None = None) -> None:
    smoke = smoke_only(__doc__, argv)
    events, cycles = (20, 5) if smoke else (EVENTS, CYCLES)
    taskset = crmarena_taskset(smoke, per_task=10)
    with tempfile.TemporaryDirectory() as folder:
        measure(Path(folder) / "study.sqlite", taskset.instances, events, cycles)


def measure(path: Path, instances, events: int, cycles: int) -> None:
    with StudyStore.open(path) as store:
        study = create_study(
            store,
            "bench",
            solve_only_preset(cycles + 10),
            instances=[inst.to_row() for inst in instances],
            task_set_hash="h",
            org_fingerprint="local-0",
        )
        people = [row_id(create_profile(store, f"p{n}", "Agent", 1)) for n in range(4)]
        first = open_next(store, row_id(study), people[0])
        assert first is not None
        attempt = first.attempt_id
        event_ms = []
        for n in range(events):
            t0 = time.perf_counter()
            record_event(store, attempt, "record_viewed", {"n": n})
            event_ms.append((time.perf_counter() - t0) * 1000)
        cycle_ms = []
        for _ in range(cycles):
            t0 = time.perf_counter()
            view = open_next(store, row_id(study), people[1])
            assert view is not None
            submit(store, view.attempt_id, "None", confidence=3)
            cycle_ms.append((time.perf_counter() - t0) * 1000)
    procs = [
        multiprocessing.get_context("spawn").Process(
            target=_writer, args=(path, study.id, who, events)
        )
        for who in people[2:]
    ]
    t0 = time.perf_counter()
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    both_s = time.perf_counter() - t0
    print(
        f"| measure ({len(instances):,} items in the study, synchronous=FULL, WAL) | median | p95 |"
    )
    print("|---|---|---|")
    print(f"| record one event (own transaction, committed) | {_percentiles(event_ms)} |")
    print(f"| open next item + submit (scored) | {_percentiles(cycle_ms)} |")
    print(f"| two processes x {events} events, wall incl. start-up | {both_s:.1f} s | |")


if __name__ == "__main__":
    main()
