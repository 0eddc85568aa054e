"""How far an annotator, and a whole study, have got (counts only: no answers)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, col, select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    AttemptStatus,
    AuditFlag,
    Event,
    EventKind,
    RealismRating,
    Study,
    StudyItem,
    row_id,
)
from crm_tui.study.views import StudyInfo
from crm_tui.study.work.ratings import rating_targets
from crm_tui.study.work.studies import get_study, study_protocol


@dataclass(frozen=True)
class PartProgress:
    kind: str  # explore, solve or rate
    title: str
    done: int
    total: int
    minutes: float | None
    active_ms: int | None = None  # exploring: the time spent in it so far (None: not begun)

    @property
    def complete(self) -> bool:
        return self.done >= self.total


@dataclass(frozen=True)
class AnnotatorProgress:
    annotator: str
    parts: list[PartProgress]


@dataclass(frozen=True)
class StudySummary:
    study: StudyInfo
    items: int
    families: int
    attempts: dict[str, int]  # status -> count
    ratings: int
    flags: int
    annotators: list[AnnotatorProgress]


def _parts(session: Session, study: Study, annotator_id: int) -> list[PartProgress]:
    queue = session.exec(
        select(func.count()).where(
            Assignment.study_id == study.id, Assignment.annotator_id == annotator_id
        )
    ).one()
    finished = session.exec(
        select(func.count()).where(
            Attempt.study_id == study.id,
            Attempt.annotator_id == annotator_id,
            Attempt.status != AttemptStatus.IN_PROGRESS,
        )
    ).one()
    explored_ms, explored = _exploring(session, study, annotator_id)
    targets = rating_targets(study)
    rated = session.exec(
        select(func.count()).where(
            RealismRating.study_id == study.id,
            RealismRating.annotator_id == annotator_id,
            col(RealismRating.target).in_(targets),
        )
    ).one()
    done_total = {
        "explore": (int(explored), 1),
        "solve": (finished, queue or study.items_per_annotator),
        "rate": (rated, len(targets)),
    }
    return [
        PartProgress(
            p.kind,
            p.title,
            *done_total[p.kind],
            p.minutes,
            active_ms=explored_ms if p.kind == "explore" else None,
        )
        for p in study_protocol(study).parts
    ]


def _exploring(session: Session, study: Study, annotator_id: int) -> tuple[int | None, bool]:
    """Time spent exploring (each start to its finish, in one app session) and whether
    that part is done. Coming back from the browser is not done by itself: done is the
    preset's minutes of exploring (without minutes, any), or the person saying so."""
    rows = session.exec(
        select(Event)
        .where(
            Event.study_id == study.id,
            Event.annotator_id == annotator_id,
            col(Event.kind).in_([EventKind.EXPLORE_STARTED, EventKind.EXPLORE_FINISHED]),
        )
        .order_by(col(Event.id))
    ).all()
    spent, said_done, started = 0, False, None
    finished_any = False
    for event in rows:
        if event.kind == EventKind.EXPLORE_STARTED:
            started = event
            continue
        finished_any = True
        said_done = said_done or bool(json.loads(event.payload_json or "{}").get("done"))
        if started is not None and started.app_session == event.app_session:
            spent += max(0, event.monotonic_ms - started.monotonic_ms)
        started = None
    minutes = next((p.minutes for p in study_protocol(study).parts if p.kind == "explore"), None)
    enough = spent >= minutes * 60_000 if minutes else finished_any
    return (spent if rows else None), said_done or enough


def annotator_progress(store: StudyStore, study_id: int, annotator_id: int) -> list[PartProgress]:
    """Progress per protocol part, in the protocol's order."""
    with store.transaction() as session:
        return _parts(session, get_study(session, study_id), annotator_id)


def study_summary(store: StudyStore, study_id: int) -> StudySummary:
    with store.transaction() as session:
        study = get_study(session, study_id)
        families = session.exec(
            select(func.count(func.distinct(StudyItem.task))).where(StudyItem.study_id == study_id)
        ).one()
        items = session.exec(select(func.count()).where(StudyItem.study_id == study_id)).one()
        statuses = Counter(
            session.exec(select(Attempt.status).where(Attempt.study_id == study_id)).all()
        )
        ratings = session.exec(select(func.count()).where(RealismRating.study_id == study_id)).one()
        flags = session.exec(select(func.count()).where(AuditFlag.study_id == study_id)).one()
        enrolled = session.exec(
            select(Annotator)
            .where(
                col(Annotator.id).in_(
                    select(Assignment.annotator_id).where(Assignment.study_id == study_id)
                )
            )
            .order_by(col(Annotator.name))
        ).all()
        return StudySummary(
            study=StudyInfo.of(study),
            items=items,
            families=families,
            attempts={s.value: statuses.get(s.value, 0) for s in AttemptStatus},
            ratings=ratings,
            flags=flags,
            annotators=[
                AnnotatorProgress(a.name, _parts(session, study, row_id(a))) for a in enrolled
            ],
        )
