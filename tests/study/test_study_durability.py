"""Several processes on one study store (SQLite and PostgreSQL), and a process killed
with SIGKILL mid-attempt."""

from __future__ import annotations

import json
import multiprocessing
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import func, select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, Event, row_id
from crm_tui.study.work.attempts import open_next, record_event, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.paths import CRMARENA_TASKS

SPAWN = multiprocessing.get_context("spawn")  # a fresh interpreter, like a second app
CRASH_START = datetime(2025, 3, 3, 14, 0, tzinfo=UTC)


def make_study(path: Path | str, people: int) -> tuple[int, list[int]]:
    with StudyStore.open(path, FakeClock()) as store:
        instances = json.loads(CRMARENA_TASKS.read_text())[::65]
        study = create_study(
            store,
            "s",
            solve_only_preset(2),
            instances=instances,
            task_set_hash="h",
            org_fingerprint="local-0",
        )
        ids = [row_id(create_profile(store, f"p{n}", "Agent", 1)) for n in range(people)]
    return row_id(study), ids


def write_events(path: Path | str, study_id: int, annotator_id: int, count: int) -> None:
    with StudyStore.open(path) as store:
        view = open_next(store, study_id, annotator_id)
        assert view is not None
        attempt = view.attempt_id
        for n in range(count):
            record_event(store, attempt, "record_viewed", {"n": n})


def heartbeat_forever(path: Path | str, study_id: int, annotator_id: int) -> None:
    clock = FakeClock(CRASH_START, monotonic_ms=50_000_000)
    with StudyStore.open(path, clock) as store:
        view = open_next(store, study_id, annotator_id)
        assert view is not None
        attempt = view.attempt_id
        while True:
            clock.advance(10)
            record_event(store, attempt, "heartbeat")


def test_two_processes_write_200_events_each(study_store_url):
    path = study_store_url  # a SQLite file, or a PostgreSQL database
    study_id, people = make_study(path, 2)
    procs = [SPAWN.Process(target=write_events, args=(path, study_id, who, 200)) for who in people]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    with StudyStore.open(path) as store, store.transaction() as s:
        rows = s.exec(
            select(Event.annotator_id, Event.payload_json).where(Event.kind == "record_viewed")
        ).all()
    for who in people:
        assert sorted(json.loads(p)["n"] for a, p in rows if a == who) == list(range(200))


def test_sigkill_mid_attempt_resumes_with_events_and_active_time(study_store_url):
    path = study_store_url
    study_id, (who,) = make_study(path, 1)
    proc = SPAWN.Process(target=heartbeat_forever, args=(path, study_id, who))
    proc.start()
    with StudyStore.open(path) as watcher:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with watcher.transaction() as s:
                if s.exec(select(func.count()).select_from(Event)).one() >= 30:
                    break
            time.sleep(0.02)
    proc.kill()  # SIGKILL, wherever the child happens to be
    proc.join(10)
    assert proc.exitcode == -9

    clock = FakeClock(datetime(2025, 3, 3, 16, 0, tzinfo=UTC), monotonic_ms=7)  # new boot
    with StudyStore.open(path, clock) as store:
        with store.transaction() as s:
            (before,) = s.exec(select(Attempt)).all()
            heartbeats = s.exec(select(func.count()).where(Event.kind == "heartbeat")).one()
        assert heartbeats >= 29
        view = open_next(store, study_id, who)
        assert (view.attempt_id, view.resumed) == (before.id, True)
        assert view.active_ms == heartbeats * 10_000  # up to the last heartbeat, no dead span
        clock.advance(5)
        result = submit(store, view.attempt_id, "None")
        with store.transaction() as s:
            kinds = [e.kind for e in s.exec(select(Event).order_by(Event.id))]
    assert kinds == ["opened"] + ["heartbeat"] * heartbeats + ["opened", "answer_submitted"]
    assert result.active_ms == heartbeats * 10_000 + 5_000
    assert result.wall_ms == 2 * 3600_000 + 5_000  # wall time includes the dead span
