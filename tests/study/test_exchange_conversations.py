"""Offline work carries what was said: a multi-turn conversation and the person's own
quality-control records (consent, guidelines seen) travel in the work file and merge back
once; records a coordinator made (exclusions, retries) stay with the coordinator."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlmodel import col, select

from crm_tui.study.exchange.offline import export_work, merge_work
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Annotator, ConversationTurn, QualityRecord
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.conversations import open_conversation, reply
from tests.tui.study.test_multi_turn import make_study


def own_record(annotator_id, kind, key, clock, made_by=None) -> QualityRecord:
    return QualityRecord(
        study_id=1,
        annotator_id=annotator_id,
        kind=kind,
        key=key,
        made_by=made_by,
        made_at=datetime(2025, 1, 6, 9, 0, tzinfo=UTC),
    )


def said(path, clock) -> list[tuple]:
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        turns = session.exec(select(ConversationTurn).order_by(col(ConversationTurn.position)))
        return [(t.position, t.role, t.text, t.source) for t in turns]


def own_records(path, clock) -> list[tuple]:
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        rows = session.exec(select(QualityRecord).order_by(col(QualityRecord.id)))
        return [(r.kind, r.key, r.value) for r in rows if r.made_by is None]


def test_a_conversation_and_guidelines_seen_offline_merge_back_once(tmp_path, small_org_path):
    clock = FakeClock()
    copy, coordinator = tmp_path / "copy.sqlite", tmp_path / "coordinator.sqlite"
    make_study(copy, small_org_path, clock)
    make_study(coordinator, small_org_path, clock)
    with StudyStore.open(copy, clock) as store:
        with store.transaction() as session:
            dana = session.exec(select(Annotator).where(Annotator.name == "Dana")).one().id
        view = attempts.open_next(store, 1, dana)
        assert view is not None
        open_conversation(store, view.attempt_id)
        clock.advance(20)
        reply(store, view.attempt_id, "For which time period?")
        with store.transaction() as session:  # one of Dana's own, one a coordinator made
            session.add(own_record(dana, "guidelines_seen", "handle_time", clock))
            session.add(own_record(dana, "excluded", None, clock, made_by=dana))
        work = tmp_path / "dana.json"
        export_work(store, "Dana", work)
    assert len(json.loads(work.read_text())["records"]["conversation_turns"]) == 3
    with StudyStore.open(coordinator, clock) as store:
        merge_work(store, [work])
        _, again = merge_work(store, [work])
    assert again.nothing_new
    assert said(coordinator, clock) == said(copy, clock) and len(said(copy, clock)) == 3
    assert own_records(coordinator, clock) == own_records(copy, clock) != []
    with StudyStore.open(coordinator, clock) as store, store.transaction() as session:
        assert (
            session.exec(select(QualityRecord).where(QualityRecord.kind == "excluded")).all() == []
        )
