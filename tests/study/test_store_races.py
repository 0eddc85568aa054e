"""Read-modify-write races between processes, on both stores: two submits of one attempt
(exactly one wins, once in the log) and wrong invitation codes tried at once from one
source (the lock-out comes after exactly MAX_FAILURES). On PostgreSQL each rests on its
own lock (the attempt's row, the source's advisory lock), on SQLite on BEGIN IMMEDIATE.
And on PostgreSQL, where writers no longer wait for readers, a report's snapshot.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Annotator, Attempt, Event, EventKind, InvitationFailure
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.invitations import BAD_CODE, LOCKED_OUT, MAX_FAILURES, invite, redeem
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.pg_server import PostgresServer
from tests.helpers.routing_items import instances as routing_instances

SPAWN = multiprocessing.get_context("spawn")  # a second app: its own interpreter and store
ROUNDS = 4  # attempts raced for: one race could interleave by luck, four rarely do


def _submit_each(
    url: Path | str, attempt_ids: list[int], who: int, start: Any, results: Any
) -> None:
    """A second app: submit each attempt, at the same moment as the other app."""
    with StudyStore.open(url) as store:
        for attempt_id in attempt_ids:
            start.wait(60)
            try:
                submit(store, attempt_id, f"answer of {who}")
                results.put((attempt_id, who, "won"))
            except CrmTuiError as refused:
                results.put((attempt_id, who, str(refused)))


def _try_codes(url: Path | str, codes: list[str], start: Any, results: Any) -> None:
    with StudyStore.open(url) as store:
        start.wait(60)
        for code in codes:
            try:
                redeem(store, code, "10.0.0.7")
                results.put("opened")
            except CrmTuiError as refused:
                results.put(str(refused))


def _run(target: Any, args_of_each: list[tuple[Any, ...]], expected: int) -> list[Any]:
    start, results = SPAWN.Barrier(len(args_of_each)), SPAWN.Queue()
    processes = [
        SPAWN.Process(target=target, args=(*args, start, results)) for args in args_of_each
    ]
    for process in processes:
        process.start()
    got = [results.get(timeout=120) for _ in range(expected)]
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    return got


def test_two_apps_submitting_one_attempt_at_once_one_wins(study_store_url):
    with StudyStore.open(study_store_url) as store:
        study = create_study(
            store,
            "race",
            solve_only_preset(1),
            instances=routing_instances(org=None, count=ROUNDS),
            task_set_hash="sha256:test",
            org_fingerprint="local-0000",
        )
        assert study.id is not None
        attempt_ids = []
        for n in range(ROUNDS):
            person = create_profile(store, f"p{n}", "Agent", 1)
            assert person.id is not None
            view = open_next(store, study.id, person.id)
            assert view is not None
            attempt_ids.append(view.attempt_id)
    outcomes = _run(
        _submit_each, [(study_store_url, attempt_ids, 1), (study_store_url, attempt_ids, 2)], 8
    )
    for attempt_id in attempt_ids:
        said = sorted(outcome for aid, _, outcome in outcomes if aid == attempt_id)
        assert said == [f"attempt {attempt_id} is already submitted", "won"], said
    with StudyStore.open(study_store_url) as store, store.transaction() as session:
        submitted = Counter(
            session.exec(select(Event.attempt_id).where(Event.kind == EventKind.ANSWER_SUBMITTED))
        )
        answers = {a.id: a.answer_raw for a in session.exec(select(Attempt))}
    assert submitted == {attempt_id: 1 for attempt_id in attempt_ids}
    winners = {aid: f"answer of {who}" for aid, who, outcome in outcomes if outcome == "won"}
    assert answers == winners  # the stored answer is the one whose submit said so


def test_wrong_codes_at_once_lock_out_after_exactly_max_failures(study_store_url):
    with StudyStore.open(study_store_url) as store:
        issued = invite(store, "Ana", "annotator")
    wrong = "2222-2222-2222-2222"
    tries_each, apps = 3, 4  # 12 wrong codes, all at once, from one source
    said = _run(_try_codes, [(study_store_url, [wrong] * tries_each)] * apps, apps * tries_each)
    assert Counter(said) == {BAD_CODE: MAX_FAILURES, LOCKED_OUT: apps * tries_each - MAX_FAILURES}
    with StudyStore.open(study_store_url) as store:
        with pytest.raises(CrmTuiError, match="Too many wrong codes"):
            redeem(store, issued.code, "10.0.0.7")  # even the right code, from there
        assert redeem(store, issued.code, "10.0.0.8").name == "Ana"  # elsewhere: fine
        with store.transaction() as session:
            reasons = Counter(session.exec(select(InvitationFailure.reason)))
    assert reasons == {"wrong": MAX_FAILURES, "locked": apps * tries_each - MAX_FAILURES + 1}


def test_a_snapshot_reads_one_moment_while_others_write(postgres_server: PostgresServer):
    url = postgres_server.migrated_database()
    with StudyStore.open(url) as reader, StudyStore.open(url) as writer:
        create_profile(writer, "Ana", "Agent", 1)
        for snapshot, seen_after in ((True, ["Ana"]), (False, ["Ana", "Ben"])):
            with reader.transaction(snapshot=snapshot) as session:
                assert session.exec(select(Annotator.name)).all() == ["Ana"]
                create_profile(writer, "Ben", "Agent", 1)  # committed meanwhile
                assert sorted(session.exec(select(Annotator.name)).all()) == seen_after
            with writer.transaction() as session:
                session.delete(session.exec(select(Annotator).where(Annotator.name == "Ben")).one())
