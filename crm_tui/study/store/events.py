"""Appending to the event log (one row per call, committed by the caller's transaction)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event, EventKind
from crm_tui.study.work.profiles import get_profile
from crm_tui.study.work.studies import get_study


def event_kind(kind: str) -> EventKind:
    try:
        return EventKind(kind)
    except ValueError:
        known = ", ".join(k.value for k in EventKind)
        raise CrmTuiError(f"unknown event kind {kind!r} (one of: {known})") from None


def append_event(
    session: Session,
    store: StudyStore,
    *,
    study_id: int,
    annotator_id: int,
    kind: str,
    attempt_id: int | None = None,
    payload: dict[str, Any] | None = None,
) -> Event:
    wall, monotonic_ms = store.now()
    event = Event(
        study_id=study_id,
        annotator_id=annotator_id,
        attempt_id=attempt_id,
        kind=event_kind(kind),
        wall=wall,
        monotonic_ms=monotonic_ms,
        payload_json=json.dumps(payload, sort_keys=True) if payload else None,
        app_session=store.app_session,
    )
    session.add(event)
    session.flush()
    return event


def attempt_events(session: Session, attempt_id: int) -> list[Event]:
    return list(
        session.exec(select(Event).where(Event.attempt_id == attempt_id).order_by(col(Event.id)))
    )


@dataclass(frozen=True)
class Stamp:
    """An event as timing reads it: its kind and stamps."""

    kind: str
    wall: datetime
    monotonic_ms: int
    app_session: str | None


def attempt_stamps(session: Session, attempt_id: int) -> list[Stamp]:
    """The attempt's events for timing, without their payloads: read often (after every
    event) and long (a heartbeat a second), so a few columns, not whole rows."""
    rows = session.exec(
        select(Event.kind, Event.wall, Event.monotonic_ms, Event.app_session)
        .where(Event.attempt_id == attempt_id)
        .order_by(col(Event.id))
    )
    return [
        Stamp(kind, wall, monotonic_ms, app_session)
        for kind, wall, monotonic_ms, app_session in rows
    ]


_STUDY_LEVEL = {
    EventKind.EXPLORE_STARTED,
    EventKind.EXPLORE_FINISHED,
    EventKind.RECORD_VIEWED,
    EventKind.SEARCH_RUN,
    EventKind.ROWS_SHOWN,
    EventKind.FILTER_SET,
    EventKind.HEARTBEAT,
    EventKind.FOCUS_LOST,
    EventKind.FOCUS_REGAINED,
}


def record_study_event(
    store: StudyStore,
    study_id: int,
    annotator_id: int,
    kind: str,
    payload: dict[str, Any] | None = None,
) -> None:
    """An event outside any attempt: exploring the org, browsing while rating."""
    if event_kind(kind) not in _STUDY_LEVEL:
        raise CrmTuiError(f"event {kind!r} belongs to an attempt or has its own call")
    with store.transaction() as session:
        get_study(session, study_id), get_profile(session, annotator_id)
        append_event(
            session, store, study_id=study_id, annotator_id=annotator_id, kind=kind, payload=payload
        )
