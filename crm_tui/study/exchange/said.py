"""What a person said and agreed to, in offline work: the turns of multi-turn attempts and
the quality-control records they made themselves, collected for a work file and merged
back once (a record already in the study is not added again)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, select

from crm_tui.study.exchange.file_format import QualityRecordData, TurnRecord
from crm_tui.study.store.models import ConversationTurn, QualityRecord
from crm_tui.study.work.clock import as_utc


def collect_turns(session: Session, attempt_idx: dict[int, int]) -> list[TurnRecord]:
    """The turns of the attempts in `attempt_idx` (attempt id -> query index)."""
    if not attempt_idx:
        return []
    turns = session.exec(
        select(ConversationTurn)
        .where(col(ConversationTurn.attempt_id).in_(list(attempt_idx)))
        .order_by(col(ConversationTurn.attempt_id), col(ConversationTurn.position))
    )
    return [
        TurnRecord(
            item_idx=attempt_idx[t.attempt_id],
            position=t.position,
            role=t.role,
            text=t.text,
            source=t.source,
            at=as_utc(t.at),
        )
        for t in turns
    ]


def collect_quality(
    session: Session, study_id: int, person: int, attempt_idx: dict[int, int]
) -> list[QualityRecordData]:
    """The person's own quality-control records in the study (never a coordinator's)."""
    rows = session.exec(
        select(QualityRecord)
        .where(
            QualityRecord.study_id == study_id,
            QualityRecord.annotator_id == person,
            col(QualityRecord.made_by).is_(None),
        )
        .order_by(col(QualityRecord.id))
    )
    return [
        QualityRecordData(
            kind=r.kind,
            item_idx=None if r.attempt_id is None else attempt_idx.get(r.attempt_id),
            key=r.key,
            value=r.value,
            made_at=as_utc(r.made_at),
        )
        for r in rows
    ]


def merge_turns(
    session: Session, records: Sequence[TurnRecord], attempt_ids: dict[int, int]
) -> int:
    """Add the turns the study does not hold yet (by attempt and position); how many."""
    ids = sorted({attempt_ids[r.item_idx] for r in records if r.item_idx in attempt_ids})
    held = {
        (t.attempt_id, t.position)
        for t in session.exec(
            select(ConversationTurn).where(col(ConversationTurn.attempt_id).in_(ids))
        )
    }
    added = 0
    for record in records:
        attempt_id = attempt_ids.get(record.item_idx)
        if attempt_id is None or (attempt_id, record.position) in held:
            continue
        session.add(
            ConversationTurn(
                attempt_id=attempt_id,
                position=record.position,
                role=record.role,
                text=record.text,
                source=record.source,
                at=record.at,
            )
        )
        held.add((attempt_id, record.position))
        added += 1
    return added


Marker = tuple[str, int | None, str | None, str | None, datetime]


def merge_quality(
    session: Session,
    study_id: int,
    person: int,
    records: Sequence[QualityRecordData],
    attempt_ids: dict[int, int],
) -> int:
    """Add the person's records the study does not hold yet; how many."""

    def key(kind: str, item: int | None, k: str | None, v: str | None, at: datetime) -> Marker:
        return (kind, item, k, v, as_utc(at))

    held = {
        key(r.kind, r.attempt_id, r.key, r.value, r.made_at)
        for r in session.exec(
            select(QualityRecord).where(
                QualityRecord.study_id == study_id, QualityRecord.annotator_id == person
            )
        )
    }
    added = 0
    for record in records:
        attempt_id = None if record.item_idx is None else attempt_ids.get(record.item_idx)
        marker = key(record.kind, attempt_id, record.key, record.value, record.made_at)
        if marker in held:
            continue
        session.add(
            QualityRecord(
                study_id=study_id,
                annotator_id=person,
                kind=record.kind,
                attempt_id=attempt_id,
                key=record.key,
                value=record.value,
                made_at=record.made_at,
            )
        )
        held.add(marker)
        added += 1
    return added
