"""Text drafts: what a person is still writing, kept as they type, one per purpose.

A rationale typed on the realism screen survives moving to another target, a restart
and kill -9; coming back to a target shows the draft, or else the rationale already
submitted for it, so re-rating never starts from an empty box.
"""

from __future__ import annotations

from sqlmodel import select

from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import RealismRating, TextDraft


def realism_key(target: str) -> str:
    return f"realism:{target}"


def save_text_draft(
    store: StudyStore, study_id: int, annotator_id: int, key: str, text: str
) -> None:
    """Keep `text` as the draft for `key` (committed now)."""
    with store.transaction() as session:
        lock(session, "queue", study_id, annotator_id)  # an upsert: two would both insert
        draft = session.exec(
            select(TextDraft).where(
                TextDraft.study_id == study_id,
                TextDraft.annotator_id == annotator_id,
                TextDraft.key == key,
            )
        ).first()
        now = store.now()[0]
        if draft is None:
            draft = TextDraft(
                study_id=study_id, annotator_id=annotator_id, key=key, text=text, updated_at=now
            )
        draft.text, draft.updated_at = text, now
        session.add(draft)


def rationale_so_far(store: StudyStore, study_id: int, annotator_id: int, target: str) -> str:
    """The draft rationale for `target`, else the one submitted with its rating, else ""."""
    with store.transaction() as session:
        draft = session.exec(
            select(TextDraft.text).where(
                TextDraft.study_id == study_id,
                TextDraft.annotator_id == annotator_id,
                TextDraft.key == realism_key(target),
            )
        ).first()
        if draft is not None:
            return draft
        rated = session.exec(
            select(RealismRating.rationale).where(
                RealismRating.study_id == study_id,
                RealismRating.annotator_id == annotator_id,
                RealismRating.target == target,
            )
        ).first()
    return rated or ""
