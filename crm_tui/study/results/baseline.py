"""The human baseline: which of a study's items and answers its figures count.

Measured items only: never the qualification's practice items, the hidden check items, or
the instances a preset's `measured_items` leaves out. Their submitted and expired attempts
(an expired one scores 0), without the people and attempts a coordinator excluded unless
the figures are asked to keep them. The report, the original-versus-corrected table, the
quality overview and the adjudication queue's evidence all count these, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from crm_tui.study.results.report_rows import AttemptRow, answered_attempts
from crm_tui.study.store.models import AttemptStatus, Study, StudyItem, row_id
from crm_tui.study.work.quality import Excluded, excluded, unmeasured_item_ids
from crm_tui.tasks.scoring import NO_SUBMISSION, is_submission


@dataclass(frozen=True)
class Baseline:
    items: list[StudyItem]  # the measured items, in the store's order
    attempts: list[AttemptRow]  # their answered attempts that count
    excluded: Excluded  # the exclusions in force
    with_excluded: bool  # whether they were kept in

    def counts_person(self, annotator_id: int) -> bool:
        """Whether a person's other answers (ratings) count."""
        return self.with_excluded or annotator_id not in self.excluded.people


def baseline(session: Session, study: Study, *, with_excluded: bool = False) -> Baseline:
    """The study's baseline (`with_excluded`: keep the people and attempts excluded)."""
    unmeasured = unmeasured_item_ids(session, study)
    rules = excluded(session, row_id(study))
    dropped = Excluded() if with_excluded else rules
    items = [
        item
        for item in session.exec(select(StudyItem).where(StudyItem.study_id == study.id))
        if row_id(item) not in unmeasured
    ]
    attempts = [
        a
        for a in answered_attempts(session, row_id(study))  # plain rows: ORM objects cost
        if a.item_id not in unmeasured and not dropped.drops(a)
    ]
    return Baseline(items, attempts, rules, with_excluded)


def submission(attempt: AttemptRow) -> str | None:
    """The submitted answer; NO_SUBMISSION for an expired (or skipped) attempt."""
    return attempt.answer_raw if attempt.status == AttemptStatus.SUBMITTED else NO_SUBMISSION


def attempt_score(attempt: AttemptRow) -> float:
    """What an answer counts for: its score when submitted, 0 when it expired (a late
    answer is kept, never scored)."""
    return (attempt.score or 0.0) if is_submission(submission(attempt)) else 0.0
