"""Auditor and coordinator views: gold answers beside every person's answers and flags.
Each call checks the caller's role first; annotators get a CrmTuiError. Only coordinators
see the items a study never measures (the qualification's practice items, the hidden
check items), each marked as such; an auditor's list leaves them out."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import col, select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import (
    Annotator,
    Attempt,
    AttemptStatus,
    AuditFlag,
    Mode,
    StudyItem,
    row_id,
)
from crm_tui.study.work import quality
from crm_tui.study.work.profiles import require_mode
from crm_tui.study.work.studies import get_study


@dataclass(frozen=True)
class AnswerRecord:
    annotator: str
    status: str
    answer_raw: str | None
    answer_normalised: str | None
    score: float | None
    active_ms: int | None
    confidence: int | None
    typed: str | None = None  # expired: what was typed by then (kept, never scored)

    @property
    def is_answer(self) -> bool:
        """Submitted: a skip, an expiry or an open query is no answer."""
        return self.status == AttemptStatus.SUBMITTED


@dataclass(frozen=True)
class FlagRecord:
    annotator: str
    category: str
    comment: str | None
    suggested_answer: str | None


@dataclass(frozen=True)
class AuditItem:
    item_id: int
    idx: int
    task: str
    query: str
    gold: str | list[str | None] | None  # a list: CRMArena-Pro's form
    answers: list[AnswerRecord]
    flags: list[FlagRecord]
    quality_role: str | None = None  # "practice" or "check" (coordinators only)


def audit_items(store: StudyStore, study_id: int, actor_id: int) -> list[AuditItem]:
    """Every item of the study with its gold, the human answers and the flags; to an
    auditor, the measured items only."""
    with store.transaction() as session:
        actor = require_mode(session, actor_id, Mode.AUDITOR, Mode.COORDINATOR)
        study = get_study(session, study_id)
        unmeasured = quality.unmeasured_item_ids(session, study)
        plan = quality.plan_of(study)
        coordinator = actor.mode == Mode.COORDINATOR
        names = dict(session.exec(select(Annotator.id, Annotator.name)).all())
        answers: dict[int, list[AnswerRecord]] = {}
        for a in session.exec(
            select(Attempt).where(Attempt.study_id == study_id).order_by(col(Attempt.id))
        ):
            answers.setdefault(a.item_id, []).append(
                AnswerRecord(
                    names[a.annotator_id],
                    a.status,
                    a.answer_raw,
                    a.answer_normalised,
                    a.score,
                    a.active_ms,
                    a.confidence,
                    a.draft_answer if a.status == AttemptStatus.EXPIRED else None,
                )
            )
        flags: dict[int, list[FlagRecord]] = {}
        for f in session.exec(
            select(AuditFlag).where(AuditFlag.study_id == study_id).order_by(col(AuditFlag.id))
        ):
            flags.setdefault(f.item_id, []).append(
                FlagRecord(names[f.annotator_id], f.category, f.comment, f.suggested_answer)
            )
        items: list[AuditItem] = []
        for item in session.exec(
            select(StudyItem).where(StudyItem.study_id == study_id).order_by(col(StudyItem.idx))
        ):
            item_id = row_id(item)
            if item_id in unmeasured and not coordinator:
                continue
            role = None
            if coordinator and plan is not None:
                if item.idx in plan.check_idx:
                    role = "check"
                elif plan.qualification is not None and item.idx in plan.practice_idx:
                    role = "practice"
            items.append(
                AuditItem(
                    item_id,
                    item.idx,
                    item.task,
                    item.query,
                    json.loads(item.gold_json),
                    answers.get(item_id, []),
                    flags.get(item_id, []),
                    role,
                )
            )
        return items
