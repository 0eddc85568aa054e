"""Small read-only helpers the study screens need beside the main services."""

from __future__ import annotations

from sqlmodel import select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, RealismRating


def unfinished_attempt(store: StudyStore, study_id: int, annotator_id: int) -> int | None:
    """The id of the annotator's attempt still in progress (one at most), or None."""
    with store.transaction() as session:
        return session.exec(
            select(Attempt.id).where(
                Attempt.study_id == study_id,
                Attempt.annotator_id == annotator_id,
                Attempt.status == AttemptStatus.IN_PROGRESS,
            )
        ).first()


def my_ratings(store: StudyStore, study_id: int, annotator_id: int) -> dict[str, int]:
    """The annotator's own realism ratings so far: target -> level."""
    with store.transaction() as session:
        return dict(
            session.exec(
                select(RealismRating.target, RealismRating.level).where(
                    RealismRating.study_id == study_id, RealismRating.annotator_id == annotator_id
                )
            ).all()
        )
