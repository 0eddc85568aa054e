"""Realism ratings (org and objects, on the questionnaire's scale) and audit flags."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.events import append_event
from crm_tui.study.store.models import (
    Assignment,
    AuditFlag,
    EventKind,
    Mode,
    RealismRating,
    Study,
    StudyItem,
)
from crm_tui.study.work.profiles import get_profile
from crm_tui.study.work.studies import get_study, study_protocol

ORG_TARGET = "org"


def rating_targets(study: Study) -> list[str]:
    """What the study's rate part asks about, in order: "org" first, then objects."""
    rate = study_protocol(study).rate
    if rate is None:
        return []
    return ([ORG_TARGET] if rate.org else []) + list(rate.objects)


def rate_realism(
    store: StudyStore,
    study_id: int,
    annotator_id: int,
    target: str,
    level: int,
    rationale: str | None = None,
    record_ids: Sequence[str] = (),
) -> RealismRating:
    """Rate the org or an object: 1-5 on the scale, 0 = "I don't know this object"
    (objects only). Rating a target again replaces the earlier rating."""
    rationale = (rationale or "").strip() or None
    with store.transaction() as session:
        lock(session, "queue", study_id, annotator_id)  # an upsert: two would both insert
        study = get_study(session, study_id)
        get_profile(session, annotator_id)
        targets = rating_targets(study)
        if target not in targets:
            raise CrmTuiError(
                f"realism target {target!r} is not rated in study "
                f"{study.name!r} (targets: {', '.join(targets) or 'none'})"
            )
        allowed = range(1, 6) if target == ORG_TARGET else range(0, 6)
        if level not in allowed:
            raise CrmTuiError(
                f"realism level {level} for {target}: use {allowed.start}-{allowed.stop - 1}"
            )
        questionnaire = study_protocol(study).questionnaire
        if questionnaire.rationale.required and rationale is None:
            raise CrmTuiError(f"realism rationale for {target}: required by this study")
        record_ids_json = json.dumps(list(record_ids))
        rated_at = store.now()[0]
        rating = session.exec(
            select(RealismRating).where(
                RealismRating.study_id == study_id,
                RealismRating.annotator_id == annotator_id,
                RealismRating.target == target,
            )
        ).first()
        if rating is None:
            rating = RealismRating(
                study_id=study_id,
                annotator_id=annotator_id,
                target=target,
                level=level,
                rationale=rationale,
                record_ids_json=record_ids_json,
                rated_at=rated_at,
            )
        else:
            rating.level, rating.rationale = level, rationale
            rating.record_ids_json = record_ids_json
            rating.rated_at = rated_at
        session.add(rating)
        append_event(
            session,
            store,
            study_id=study_id,
            annotator_id=annotator_id,
            kind=EventKind.REALISM_RATED,
            payload={"target": target, "level": level},
        )
    return rating


def flag_item(
    store: StudyStore,
    study_id: int,
    annotator_id: int,
    item_id: int,
    category: str,
    comment: str | None = None,
    suggested_answer: str | None = None,
) -> AuditFlag:
    """Flag a query. Annotators may flag only items in their own queue."""
    with store.transaction() as session:
        study = get_study(session, study_id)
        flagger = get_profile(session, annotator_id)
        study_protocol(study).category(category)
        item = session.get(StudyItem, item_id)
        if item is None or item.study_id != study_id:
            raise CrmTuiError(f"no item {item_id} in study {study.name!r}")
        if (
            flagger.mode == Mode.ANNOTATOR
            and not session.exec(
                select(Assignment).where(
                    Assignment.study_id == study_id,
                    Assignment.annotator_id == annotator_id,
                    Assignment.item_id == item_id,
                )
            ).first()
        ):
            raise CrmTuiError(f"item {item_id} is not in {flagger.name}'s queue")
        flag = AuditFlag(
            study_id=study_id,
            annotator_id=annotator_id,
            item_id=item_id,
            category=category,
            comment=(comment or "").strip() or None,
            suggested_answer=suggested_answer,
            flagged_at=store.now()[0],
        )
        session.add(flag)
        append_event(
            session,
            store,
            study_id=study_id,
            annotator_id=annotator_id,
            kind=EventKind.FLAGGED,
            payload={"item_id": item_id, "category": category},
        )
    return flag
