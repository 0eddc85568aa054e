"""Many annotators, one store: concurrent annotator sessions against one PostgreSQL store
and one SQLite store, then a check that nothing was lost or duplicated and every timing
is intact.

Each session is its own process (spawned, like a second app) with its own StudyStore. For
`--seconds` it solves: open the next query, five `record_viewed` events, two draft saves,
submit; after every second query it types a rationale (a text draft) and rates one
realism target. A call the store refuses (busy past its 10 s timeout) is told to the
session as one line and written nothing; the session tries again, as a person would, and
counts it. Each process counts what it wrote and times every call. Afterwards the
store must hold exactly that: per annotator, the same events by kind (the `record_viewed`
sequence numbers 0..n-1, each once), the submitted attempts with the times the submit
call returned, and times that the event log derives again; one rating and one draft per
rated target. A failed check exits non-zero.

`--mix people` paces each session as a person at work instead: a heartbeat every second
while solving (as the TUI writes), a `record_viewed` every third second, a draft save
after 4 s and before submitting, 6-15 s per query, and a few seconds' thought before a
rating: about one small write per second per annotator.

Run: python -m tests.benchmarks.study_load [--processes 20] [--seconds 30] [--mix people]
(prints Markdown tables for the documentation; `--smoke`: 3 processes for 2 seconds). Without
PostgreSQL's binaries only the SQLite store runs, and the script says so.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlmodel import col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, Event, RealismRating, TextDraft
from crm_tui.study.work.attempts import open_next, record_event, save_draft, submit
from crm_tui.study.work.drafts import realism_key, save_text_draft
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.ratings import rate_realism, rating_targets
from crm_tui.study.work.studies import create_study, get_study, with_overrides
from crm_tui.study.work.timing import derive
from tests.benchmarks.smoke import parse
from tests.helpers.pg_server import PostgresServer, find_binaries, started_server

EVENTS_PER_ATTEMPT = 5
ITEMS = 400  # more than anyone solves in the run: the queue never runs dry
CALLS = (
    "draw_queue",  # a session's first open_next: it draws the person's queue
    "open_next",
    "heartbeat",
    "record_event",
    "save_draft",
    "submit",
    "save_text_draft",
    "rate_realism",
)
MIXES = ("burst", "people")
SPAWN = multiprocessing.get_context("spawn")
RETRIES = 10
T = TypeVar("T")


def instances() -> list[dict[str, Any]]:
    return [
        {
            "idx": idx,
            "task": "case_routing",
            "query": f"Which agent should take case {idx}?",
            "answer": f"005Wt0000{idx:06d}AAA",
            "metadata": {"required": "- Today's date: 2023-01-15"},
            "reward_metric": "exact_match",
        }
        for idx in range(ITEMS)
    ]


def make_study(location: Path | str, processes: int) -> tuple[int, list[int]]:
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(
        preset, items=ITEMS, distinct_families=False, annotators_per_item=processes
    )
    with StudyStore.open(location) as store:
        study = create_study(
            store,
            "load",
            preset,
            instances=instances(),
            task_set_hash="sha256:load",
            org_fingerprint="local-load",
            preset_path=preset_path,
        )
        people = [create_profile(store, f"annotator {n}", "Agent", 2).id for n in range(processes)]
    assert study.id is not None and all(p is not None for p in people)
    return study.id, [p for p in people if p is not None]


@dataclass
class Report:
    """What one session wrote, as its own calls saw it."""

    annotator_id: int
    kinds: Counter[str] = field(default_factory=Counter)
    viewed: int = 0  # record_viewed sequence numbers 0..viewed-1
    submitted: dict[int, tuple[int, int, str]] = field(default_factory=dict)  # times, answer
    rated: set[str] = field(default_factory=set)
    refused: int = 0  # calls the store refused (busy) and the session made again
    call_ms: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def session(
    location: Path | str,
    study_id: int,
    annotator_id: int,
    seconds: float,
    mix: str,
    ready: Any,
    reports: Any,
) -> None:
    """One annotator's app: solve and rate for `seconds`, then report."""
    report = Report(annotator_id)
    paced = mix == "people"
    pace = random.Random(annotator_id)  # each person their own, reproducible rhythm

    def think(lo: float, hi: float) -> None:
        if paced:
            time.sleep(pace.uniform(lo, hi))

    def timed(name: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        for _ in range(RETRIES):
            start = time.perf_counter()
            try:
                result = call(*args, **kwargs)
            except CrmTuiError as refused:
                if "stayed busy" not in str(refused):
                    raise
                report.refused += 1
                continue
            report.call_ms[name].append((time.perf_counter() - start) * 1000)
            return result
        raise RuntimeError(f"{name}: refused {RETRIES} times running")

    def view_record(attempt_id: int) -> None:
        payload = {"seq": report.viewed}
        timed("record_event", record_event, store, attempt_id, "record_viewed", payload)
        report.viewed += 1
        report.kinds["record_viewed"] += 1

    def solve_as_a_person(attempt_id: int, answer: str) -> None:
        """A heartbeat a second for 6-15 s, looking at records, typing the answer."""
        ticks = round(pace.uniform(6, 15))
        next_tick = time.monotonic()
        for tick in range(1, ticks + 1):
            next_tick += 1
            time.sleep(max(0.0, next_tick - time.monotonic()))
            timed("heartbeat", record_event, store, attempt_id, "heartbeat")
            report.kinds["heartbeat"] += 1
            if tick % 3 == 0:
                view_record(attempt_id)
            if tick == 4:
                timed("save_draft", save_draft, store, attempt_id, answer[:8])
        timed("save_draft", save_draft, store, attempt_id, answer)

    with StudyStore.open(location) as store:
        with store.transaction() as db:
            targets = rating_targets(get_study(db, study_id))
        ready.wait()  # every session starts at once
        deadline = time.monotonic() + seconds
        solved = 0
        while time.monotonic() < deadline:
            call = "open_next" if report.kinds["opened"] else "draw_queue"
            view = timed(call, open_next, store, study_id, annotator_id)
            if view is None:
                break
            report.kinds["opened"] += 1
            answer = f"005Wt0000{view.item.idx:06d}AAA"
            if paced:
                solve_as_a_person(view.attempt_id, answer)
            else:
                for _ in range(EVENTS_PER_ATTEMPT):
                    view_record(view.attempt_id)
                timed("save_draft", save_draft, store, view.attempt_id, answer[:8])
                timed("save_draft", save_draft, store, view.attempt_id, answer)
            result = timed("submit", submit, store, view.attempt_id, answer, confidence=4)
            report.kinds["answer_submitted"] += 1
            report.submitted[view.attempt_id] = (result.wall_ms, result.active_ms, answer)
            solved += 1
            if solved % 2 == 0:
                target = targets[(solved // 2 - 1) % len(targets)]
                rationale = f"{target} looks like ours ({solved})"
                think(2, 5)
                timed(
                    "save_text_draft",
                    save_text_draft,
                    store,
                    study_id,
                    annotator_id,
                    realism_key(target),
                    rationale,
                )
                timed(
                    "rate_realism",
                    rate_realism,
                    store,
                    study_id,
                    annotator_id,
                    target,
                    4,
                    rationale,
                )
                report.kinds["realism_rated"] += 1
                report.rated.add(target)
    report.call_ms = dict(report.call_ms)  # picklable
    reports.put(report)


def check(
    location: Path | str, study_id: int, reports: list[Report]
) -> tuple[list[str], list[str]]:
    """What the store holds against what the sessions wrote: (rows lost or duplicated,
    timings not intact)."""
    problems: list[str] = []  # rows lost, duplicated or changed
    timings: list[str] = []
    with StudyStore.open(location) as store, store.transaction() as db:
        events = db.exec(
            select(Event).where(Event.study_id == study_id).order_by(col(Event.id))
        ).all()
        attempts = db.exec(select(Attempt).where(Attempt.study_id == study_id)).all()
        ratings = db.exec(select(RealismRating).where(RealismRating.study_id == study_id)).all()
        drafts = db.exec(select(TextDraft).where(TextDraft.study_id == study_id)).all()
    by_attempt: dict[int, list[Event]] = defaultdict(list)
    for event in events:
        if event.attempt_id is not None:
            by_attempt[event.attempt_id].append(event)
    for report in reports:
        who = report.annotator_id
        mine = [e for e in events if e.annotator_id == who]
        kinds = Counter(e.kind for e in mine)
        if kinds != report.kinds:
            problems.append(
                f"annotator {who}: events {dict(kinds)} != written {dict(report.kinds)}"
            )
        seqs = sorted(
            json.loads(e.payload_json or "{}")["seq"] for e in mine if e.kind == "record_viewed"
        )
        if seqs != list(range(report.viewed)):
            problems.append(f"annotator {who}: record_viewed sequence lost or duplicated")
        done = {
            a.id: a
            for a in attempts
            if a.annotator_id == who and a.status == AttemptStatus.SUBMITTED
        }
        if set(done) != set(report.submitted):
            problems.append(
                f"annotator {who}: {len(done)} submitted, {len(report.submitted)} written"
            )
        for attempt_id, (wall_ms, active_ms, answer) in report.submitted.items():
            attempt = done.get(attempt_id)
            if attempt is None:
                continue
            timing = derive(by_attempt[attempt_id])
            if (attempt.wall_ms, attempt.active_ms) != (wall_ms, active_ms):
                timings.append(f"attempt {attempt_id}: stored times differ from submit's")
            if (timing.wall_ms, timing.active_ms) != (wall_ms, active_ms):
                timings.append(f"attempt {attempt_id}: the event log derives other times")
            # Never paused, so active is wall time, give or take the moment between the
            # two clock reads of each event (a busy machine may pause a process there).
            if not 0 <= active_ms <= wall_ms + 50:
                timings.append(f"attempt {attempt_id}: wall {wall_ms} ms, active {active_ms} ms")
            if (attempt.answer_raw, attempt.draft_answer) != (answer, answer):
                problems.append(f"attempt {attempt_id}: answer or draft not as written")
            stamps = [e.monotonic_ms for e in by_attempt[attempt_id]]
            if stamps != sorted(stamps):
                timings.append(f"attempt {attempt_id}: events out of order")
        rated = sorted(r.target for r in ratings if r.annotator_id == who)
        drafted = sorted(d.key for d in drafts if d.annotator_id == who)
        if rated != sorted(report.rated) or drafted != sorted(map(realism_key, report.rated)):
            problems.append(f"annotator {who}: ratings or rationale drafts differ")
    return problems, timings


@dataclass
class Run:
    store: str
    processes: int
    seconds: float
    attempts: int
    events: int
    refused: int
    problems: list[str]
    timings: list[str]
    call_ms: dict[str, list[float]]

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds


def load(
    store_name: str, location: Path | str, processes: int, seconds: float, mix: str = "burst"
) -> Run:
    study_id, people = make_study(location, processes)
    ready = SPAWN.Barrier(processes + 1)
    reports_queue = SPAWN.Queue()
    procs = [
        SPAWN.Process(
            target=session, args=(location, study_id, who, seconds, mix, ready, reports_queue)
        )
        for who in people
    ]
    for proc in procs:
        proc.start()
    ready.wait(timeout=300)
    started = time.perf_counter()
    reports: list[Report] = []
    while len(reports) < len(procs):
        try:
            reports.append(reports_queue.get(timeout=1))
        except queue.Empty:
            if any(proc.exitcode not in (None, 0) for proc in procs):
                for proc in procs:
                    proc.kill()
                raise SystemExit(f"a session on {store_name} failed: see its traceback") from None
    elapsed = time.perf_counter() - started
    for proc in procs:
        proc.join(60)
    calls: dict[str, list[float]] = defaultdict(list)
    for report in reports:
        for name, samples in report.call_ms.items():
            calls[name].extend(samples)
    problems, timings = check(location, study_id, reports)
    return Run(
        store=store_name,
        processes=processes,
        seconds=elapsed,
        attempts=sum(len(r.submitted) for r in reports),
        events=sum(sum(r.kinds.values()) for r in reports),
        refused=sum(r.refused for r in reports),
        problems=problems,
        timings=timings,
        call_ms=dict(calls),
    )


def p95(samples: list[float]) -> str:
    if len(samples) < 2:
        return f"{samples[0]:.1f} ms" if samples else "–"
    return f"{statistics.quantiles(samples, n=100)[94]:.1f} ms"


def print_tables(runs: list[Run]) -> None:
    print(
        "| store | sessions | seconds | attempts submitted | events | events/s "
        "| refused (busy), retried | lost or duplicated | timings intact |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for run in runs:
        lost = "none" if not run.problems else f"{len(run.problems)} PROBLEMS"
        intact = "all" if not run.timings else f"{len(run.timings)} NOT"
        print(
            f"| {run.store} | {run.processes} | {run.seconds:.1f} | {run.attempts:,} | "
            f"{run.events:,} | {run.events_per_s:,.0f} | {run.refused:,} | {lost} | {intact} |"
        )
    print()
    print("| call (p50 / p95) | " + " | ".join(run.store for run in runs) + " |")
    print("|---|" + "---:|" * len(runs))
    for name in CALLS:
        cells = [
            f"{statistics.median(run.call_ms[name]):.1f} / {p95(run.call_ms[name])}"
            if run.call_ms.get(name)
            else "–"
            for run in runs
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for run in runs:
        for problem in (run.problems + run.timings)[:20]:
            print(f"{run.store}: {problem}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").strip().split("\n")[0])
    parser.add_argument("--processes", type=int, default=20, help="annotator sessions")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long each works")
    parser.add_argument(
        "--mix", choices=MIXES, default="burst", help="burst: no pause; people: paced as at work"
    )
    args = parse(parser, argv, processes=3, seconds=2.0)
    runs: list[Run] = []
    bin_dir = find_binaries()
    if bin_dir is None:
        print("PostgreSQL is not installed: the SQLite store only", file=sys.stderr)
    else:
        server: PostgresServer = started_server(bin_dir)
        try:
            runs.append(
                load("PostgreSQL", server.new_database(), args.processes, args.seconds, args.mix)
            )
        finally:
            server.remove()
    with tempfile.TemporaryDirectory(prefix="crm-tui-load-") as folder:
        location = Path(folder) / "study.sqlite"
        runs.append(load("SQLite", location, args.processes, args.seconds, args.mix))
    print_tables(runs)
    if any(run.problems or run.timings for run in runs):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
