"""Who gets which items, in which order.

When an annotator first asks for work in a study, their queue is drawn once and stored:
items already given to `annotators_per_item` people are out; the rest go least-annotated
first, ties broken by a shuffle seeded with the study seed and the annotator's name (so
each person has their own order, reproducible); with `distinct_families` no two items
share a task family. The draw holds the study's draw lock (`lock(session, "draw", id)`;
on SQLite the immediate transaction), so two processes enrolling at once see each
other's assignments and a capped item is never given once too often.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, insert
from sqlmodel import Session, col, select

from crm_tui.study.store.db import lock
from crm_tui.study.store.models import Annotator, Assignment, Study, StudyItem, row_id
from crm_tui.study.work import quality


@dataclass(frozen=True)
class Candidate:
    item_id: int
    family: str
    times_assigned: int


def choose_items(
    candidates: Sequence[Candidate], count: int, seed_key: str, distinct_families: bool
) -> list[int]:
    """Item ids for one annotator's queue, in the order they will be served."""
    shuffled = sorted(candidates, key=lambda c: c.item_id)
    random.Random(seed_key).shuffle(shuffled)
    chosen: list[int] = []
    families: set[str] = set()
    for candidate in sorted(shuffled, key=lambda c: c.times_assigned):  # stable: keeps shuffle
        if len(chosen) == count:
            break
        if distinct_families and candidate.family in families:
            continue
        chosen.append(candidate.item_id)
        families.add(candidate.family)
    return chosen


def ensure_queue(session: Session, study: Study, annotator: Annotator) -> list[Assignment]:
    """The annotator's assignments in this study, drawn now if they have none yet. The
    caller holds the person's queue lock (`lock(session, "queue", study, person)`)."""
    mine = _queue(session, study, annotator)
    if mine:
        return mine
    lock(session, "draw", row_id(study))  # counts below must include every earlier draw
    counts = dict(
        session.exec(
            select(Assignment.item_id, func.count())
            .where(Assignment.study_id == study.id)
            .group_by(col(Assignment.item_id))
        ).all()
    )
    unmeasured = quality.unmeasured_item_ids(session, study)
    candidates = [
        Candidate(item_id, family, counts.get(item_id, 0))
        for item_id, family in session.exec(
            select(StudyItem.id, StudyItem.task).where(StudyItem.study_id == study.id)
        )
        if item_id is not None  # a primary key read back: never NULL
        and counts.get(item_id, 0) < study.annotators_per_item
        and item_id not in unmeasured  # practice and check items: `quality.py`
    ]
    chosen = choose_items(
        candidates,
        quality.measured_count(study),
        f"{study.seed}/{annotator.name}",
        study.distinct_families,
    )
    placed = quality.place_queue(session, study, annotator, chosen)
    # One executemany, not a flush of many objects: the draw lock is held meanwhile.
    if placed:
        session.connection().execute(
            insert(Assignment),
            [
                {
                    "study_id": row_id(study),
                    "annotator_id": row_id(annotator),
                    "item_id": item_id,
                    "position": position,
                }
                for item_id, position in placed
            ],
        )
    return _queue(session, study, annotator)


def _queue(session: Session, study: Study, annotator: Annotator) -> list[Assignment]:
    return list(
        session.exec(
            select(Assignment)
            .where(Assignment.study_id == study.id, Assignment.annotator_id == annotator.id)
            .order_by(col(Assignment.position))
        )
    )
