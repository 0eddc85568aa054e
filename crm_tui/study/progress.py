"""How far an annotator, and a whole study, have got (counts only: no answers)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, col, select

from crm_tui.study.db import StudyStore
from crm_tui.study.models import (
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
from crm_tui.study.ratings import rating_targets
from crm_tui.study.studies import get_study, study_protocol
from crm_tui.study.views import StudyInfo


@dataclass(frozen=True)
class PartProgress:
    kind: str  # explore, solve or rate
    title: str
    done: int
    total: int
    minutes: float | None

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
    explored = session.exec(
        select(func.count()).where(
            Event.study_id == study.id,
            Event.annotator_id == annotator_id,
            Event.kind == EventKind.EXPLORE_FINISHED,
        )
    ).one()
    targets = rating_targets(study)
    rated = session.exec(
        select(func.count()).where(
            RealismRating.study_id == study.id,
            RealismRating.annotator_id == annotator_id,
            col(RealismRating.target).in_(targets),
        )
    ).one()
    done_total = {
        "explore": (min(explored, 1), 1),
        "solve": (finished, queue or study.items_per_annotator),
        "rate": (rated, len(targets)),
    }
    return [
        PartProgress(p.kind, p.title, *done_total[p.kind], p.minutes)
        for p in study_protocol(study).parts
    ]


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
