"""Quality control at scale: 40 people, 1,170 items, 10% check items. Each person agrees
to the consent text, passes the qualification (five practice items), solves a queue of 30
items (three of them check items) with a few events each, and rates the org; then the
coordinator's live view, the quality overview and the report are timed, and the study's
writer thread's busy seconds over one minute of the live view (a refresh every 5 s), with
the overview read at every refresh and as the live view reads it (every 30 s).

Run: python -m tests.benchmarks.quality_control [--people 40] [--items 1170] [--queue 30]
(prints a Markdown table; the report should stay under 5 s).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.study.work.studies import create_study
from crm_tui.tui.study.live_progress import QUALITY_REFRESH_S, REFRESH_S, quality_due
from tests.benchmarks import smoke

ORG = "local-0000"
FAMILIES = ["case_routing", "handle_time", "transfer_count", "named_entity_disambiguation"]


def gold(idx: int) -> str:
    return f"005Wt0000{idx:06}AAA"


def instances(count: int) -> list[dict[str, Any]]:
    return [
        {
            "idx": idx,
            "task": FAMILIES[idx % len(FAMILIES)],
            "query": f"Who should take case {idx}?",
            "answer": gold(idx),
            "metadata": {"required": "- Today's date: 2023-01-15"},
            "reward_metric": "exact_match",
            "crm_tui": {"org": ORG},
        }
        for idx in range(count)
    ]


def make(path: Path, people: int, items: int, queue: int, clock: FakeClock) -> None:
    consent = path.parent / "consent.md"
    consent.write_text("# Consent\n\nYou agree to take part.\n")
    preset = validated(
        Preset,
        {
            "kind": "study-preset",
            "name": "bench",
            "consent": {"file": str(consent)},
            "qualification": {"items": 5, "pass_correct": 4, "tries": 2},
            "checks": {"share": 0.1, "min_answered": 2},
            "completion_code": {"prefix": "CRM"},
            "parts": [{"kind": "solve", "title": "Solve", "items": queue}],
        },
        "benchmark preset",
    )
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "bench",
            preset,
            instances=instances(items),
            task_set_hash="sha256:bench",
            org_fingerprint=ORG,
        )
        for n in range(people):
            create_profile(store, f"Person {n:02}", "Customer Service Agent", 3)
        create_profile(store, "Coordinator", "Study lead", 10, mode="coordinator")


def work(path: Path, clock: FakeClock) -> float:
    start = time.perf_counter()
    with StudyService.open(path, clock=clock) as service:
        for n, profile in enumerate(p for p in service.profiles() if p.mode == "annotator"):
            service.give_consent(profile.id, True)
            while (view := service.open_next(profile.id)) is not None:
                for seq in range(3):
                    clock.advance(seconds=5 + (n % 7))
                    service.record_event(view.attempt_id, "record_viewed", {"seq": seq})
                right = (view.item.idx + n) % 5 != 0
                service.submit_answer(view.attempt_id, gold(view.item.idx) if right else "x")
    return time.perf_counter() - start


def watching(service: StudyService, coordinator: int, every: float) -> float:
    """Seconds the service spends on one minute of the live view's refreshes, reading the
    quality overview when it is due every `every` seconds (the screen's own rule)."""
    busy, last = 0.0, None
    for tick in range(round(60 / REFRESH_S)):
        now = tick * REFRESH_S
        start = time.perf_counter()
        if quality_due(last, now, every):
            service.quality_overview(coordinator)
            last = now
        service.live_progress(coordinator)
        busy += time.perf_counter() - start
    return busy


def timed(call: Any, *args: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call(*args)
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--items", type=int, default=1170)
    parser.add_argument("--queue", type=int, default=30)
    args = smoke.parse(parser, argv, people=3, items=60, queue=10)
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "study.sqlite"
        make(path, args.people, args.items, args.queue, clock)
        solving = work(path, clock)
        with StudyService.open(path, clock=clock) as service:
            coordinator = next(p.id for p in service.profiles() if p.name == "Coordinator")
            live_s, _ = timed(service.live_progress, coordinator)
            overview_s, overview = timed(service.quality_overview, coordinator)
            report_s, report = timed(service.report)
            every_refresh_s = watching(service, coordinator, REFRESH_S)
            paced_s = watching(service, coordinator, QUALITY_REFRESH_S)
    assert report.quality is not None and len(overview.people) == args.people
    checks = sum(p.check_answers for p in overview.people)
    print(
        f"{args.people} people, {args.items} items, {args.queue} per queue "
        f"({overview.checks_per_person} check items each; {checks} check answers; "
        f"{overview.answers_with_excluded} measured answers; solving took {solving:.1f} s)\n"
    )
    print("| Call | Seconds |\n|---|---:|")
    print(f"| live progress | {live_s:.2f} |")
    print(f"| quality overview (flags, check accuracy) | {overview_s:.2f} |")
    print(f"| report (with the quality section) | {report_s:.2f} |")
    print(f"| one minute of live view, overview at every refresh | {every_refresh_s:.2f} |")
    print(
        f"| one minute of live view, overview every {QUALITY_REFRESH_S:g} s "
        f"(as the screen reads it) | {paced_s:.2f} |"
    )


if __name__ == "__main__":
    main()
