"""Solving: open the next item (or resume), record what happens, submit or skip.

These calls face the annotator: what they return holds the query and context only,
never the gold answer or anyone else's answer. In training mode `submit` says whether
the answer was right. Each call is one short transaction, committed before it returns.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from sqlmodel import Session, col, select

from crm_tui import __version__
from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.events import append_event, attempt_stamps, event_kind
from crm_tui.study.store.models import (
    Attempt,
    AttemptStatus,
    EventKind,
    Mode,
    Study,
    StudyItem,
    row_id,
)
from crm_tui.study.work import quality
from crm_tui.study.work.assignment import ensure_queue
from crm_tui.study.work.bounds import check_text
from crm_tui.study.work.profiles import get_profile
from crm_tui.study.work.studies import get_study
from crm_tui.study.work.timing import Timing, derive
from crm_tui.tasks.pro_families import PRIVACY_REJECTION
from crm_tui.tasks.pro_scoring import refused, score_list
from crm_tui.tasks.scoring import is_right, normalize_exact, score

# Written only through the calls below, which also change the attempt's status.
_RESERVED = {
    EventKind.OPENED,
    EventKind.ANSWER_SUBMITTED,
    EventKind.SKIPPED,
    EventKind.EXPIRED,
    EventKind.ANSWER_EDITED,  # with the draft it settled on (save_draft)
}


TODAYS_DATE = re.compile(r"Today's date:\W*(\d{4}-\d{2}-\d{2})", re.IGNORECASE)


@dataclass(frozen=True)
class ItemView:
    """A study item as an annotator may see it."""

    item_id: int
    idx: int
    task: str
    query: str
    required_context: str
    optional_context: str
    reward_metric: str
    persona: str | None
    answer_type: str | None

    @classmethod
    def of(cls, item: StudyItem) -> ItemView:
        metadata = json.loads(item.metadata_json)
        extra = json.loads(item.extra_json) if item.extra_json else {}
        return cls(
            item_id=row_id(item),
            idx=item.idx,
            task=item.task,
            query=item.query,
            required_context=metadata["required"],
            optional_context=metadata.get("optional", ""),
            reward_metric=item.reward_metric,
            persona=extra.get("persona"),
            answer_type=extra.get("answer_type"),
        )

    @property
    def today(self) -> date | None:
        """The day the query is set on ("Today's date: 2022-08-23" in its query or
        context), which relative ranges such as LAST_N_WEEKS:4 count from; None if it
        names none."""
        for text in (self.query, self.required_context):
            found = TODAYS_DATE.search(text)
            if found:
                try:
                    return date.fromisoformat(found.group(1))
                except ValueError:
                    return None
        return None


@dataclass(frozen=True)
class AttemptView:
    attempt_id: int
    item: ItemView
    position: int  # 1-based place in the annotator's queue
    queue_length: int
    resumed: bool
    active_ms: int
    wall_ms: int
    time_limit_ms: int | None
    draft_answer: str | None = None  # what was typed or taken before the app stopped
    # A practice query of the qualification: `position` and `queue_length` count the
    # practice queries in the queue; otherwise they count the rest (check items among them).
    practice: bool = False


@dataclass(frozen=True)
class Elapsed:
    active_ms: int
    wall_ms: int
    running: bool
    remaining_ms: int | None  # None without a time limit


@dataclass(frozen=True)
class SubmitResult:
    attempt_id: int
    status: AttemptStatus
    wall_ms: int
    active_ms: int
    correct: bool | None  # only in training mode
    score: float | None  # only in training mode


def normalise_answer(raw: str | None) -> str:
    """The stored comparable form: the scorer's exact-match normalisation, "None" for
    no answer (blank, none, null)."""
    normal = normalize_exact(raw)
    return "None" if normal is None else normal


def score_answer(item: StudyItem, answer: str) -> float:
    """The task layer's scorer, the one agents are scored with: CRMArena-Pro's rules for a
    confidentiality item (a refusal is right) and a list gold, else CRMArena's."""
    gold = json.loads(item.gold_json)
    if item.reward_metric == PRIVACY_REJECTION:
        return float(refused(answer))
    if isinstance(gold, list):
        return score_list(item.task, answer, gold)
    return score(item.task, answer, gold)


# ----------------------------------------------------------------- helpers
_RowLock = Literal["update", "share"] | None


def _attempt(session: Session, attempt_id: int, row_lock: _RowLock = None) -> Attempt:
    """The attempt; with `row_lock` its row is locked until commit on PostgreSQL ("update":
    its status or draft changes here, so a second submit waits and then sees it closed;
    "share": an event is added, which must not slip in after the closing event, while
    other events of the attempt go on beside it). SQLite ignores it (one writer)."""
    if row_lock is None:
        attempt = session.get(Attempt, attempt_id)
    else:
        attempt = session.get(Attempt, attempt_id, with_for_update={"read": row_lock == "share"})
    if attempt is None:
        raise CrmTuiError(f"no attempt with id {attempt_id}")
    return attempt


def _item(session: Session, item_id: int) -> StudyItem:
    item = session.get(StudyItem, item_id)
    if item is None:
        raise CrmTuiError(f"no study item with id {item_id}")
    return item


def _in_progress(session: Session, attempt_id: int, row_lock: _RowLock = "update") -> Attempt:
    attempt = _attempt(session, attempt_id, row_lock)
    if attempt.status != AttemptStatus.IN_PROGRESS:
        raise CrmTuiError(f"attempt {attempt_id} is already {attempt.status}")
    return attempt


def _limit_ms(study: Study) -> int | None:
    return study.time_limit_s * 1000 if study.time_limit_s else None


def _append(
    session: Session,
    store: StudyStore,
    attempt: Attempt,
    kind: str,
    payload: dict[str, Any] | None = None,
) -> None:
    append_event(
        session,
        store,
        study_id=attempt.study_id,
        annotator_id=attempt.annotator_id,
        attempt_id=attempt.id,
        kind=kind,
        payload=payload,
    )


def _finish(
    session: Session,
    store: StudyStore,
    attempt: Attempt,
    kind: EventKind,
    status: AttemptStatus,
    payload: dict[str, Any] | None = None,
) -> Timing:
    """Write the closing event and the times it implies onto the attempt."""
    _append(session, store, attempt, kind, payload)
    timing = derive(attempt_stamps(session, row_id(attempt)))
    attempt.status = status
    attempt.submitted_at = store.now()[0]
    attempt.wall_ms, attempt.active_ms = timing.wall_ms, timing.active_ms
    session.add(attempt)
    return timing


def _expire_if_over(session: Session, store: StudyStore, study: Study, attempt: Attempt) -> bool:
    limit = _limit_ms(study)
    if limit is None:
        return False
    timing = derive(attempt_stamps(session, row_id(attempt)))
    if timing.live_active_ms(store.clock.monotonic_ms(), store.app_session) < limit:
        return False
    # What was typed stays with the attempt (its draft, and in the log), for coordinators
    # to see; it is never scored: only submit() gives an attempt an answer.
    payload: dict[str, Any] = {"time_limit_ms": limit}
    if attempt.draft_answer:
        payload["typed"] = attempt.draft_answer
    _finish(session, store, attempt, EventKind.EXPIRED, AttemptStatus.EXPIRED, payload)
    return True


# ----------------------------------------------------------------- the calls
def open_next(store: StudyStore, study_id: int, annotator_id: int) -> AttemptView | None:
    """Resume the annotator's unfinished attempt, or start their next item; None when
    their queue is done. Records `opened` either way."""
    with store.transaction() as session:
        # One person's queue at a time (their attempts are made here); a first draw
        # also locks the study's draw, in ensure_queue: person first, then study.
        lock(session, "queue", study_id, annotator_id)
        study = get_study(session, study_id)
        profile = get_profile(session, annotator_id)
        if profile.mode != Mode.ANNOTATOR:
            # They can see gold answers: their answers would not be a human baseline.
            raise CrmTuiError(
                f"{profile.name} is a {profile.mode} profile, which sees gold "
                "answers; queries are solved by annotator profiles only"
            )
        queue = ensure_queue(session, study, profile)
        attempts = {
            a.assignment_id: a
            for a in session.exec(
                select(Attempt)
                .where(Attempt.study_id == study_id, Attempt.annotator_id == annotator_id)
                .with_for_update()  # one may expire here while a submit of it runs
            )
        }
        practice_ids = quality.practice_item_ids(session, study)
        practice_queue = [a for a in queue if a.item_id in practice_ids]
        for position, assignment in enumerate(queue, start=1):
            attempt = attempts.get(row_id(assignment))
            resumed = attempt is not None
            if attempt is None:
                attempt = Attempt(
                    assignment_id=row_id(assignment),
                    study_id=study_id,
                    annotator_id=annotator_id,
                    item_id=assignment.item_id,
                    started_at=store.now()[0],
                    app_version=__version__,
                )
                session.add(attempt)
                session.flush()
            elif attempt.status != AttemptStatus.IN_PROGRESS or _expire_if_over(
                session, store, study, attempt
            ):
                continue
            _append(session, store, attempt, EventKind.OPENED, {"resumed": resumed})
            timing = derive(attempt_stamps(session, row_id(attempt)))
            practice = assignment.item_id in practice_ids
            if practice:
                position = practice_queue.index(assignment) + 1
                length = len(practice_queue)
            else:
                position -= sum(1 for a in queue[:position] if a.item_id in practice_ids)
                length = len(queue) - len(practice_queue)
            return AttemptView(
                attempt_id=row_id(attempt),
                item=ItemView.of(_item(session, attempt.item_id)),
                position=position,
                queue_length=length,
                resumed=resumed,
                active_ms=timing.active_ms,
                wall_ms=timing.wall_ms,
                time_limit_ms=_limit_ms(study),
                draft_answer=attempt.draft_answer,
                practice=practice,
            )
    return None


def record_event(
    store: StudyStore, attempt_id: int, kind: str, payload: dict[str, Any] | None = None
) -> None:
    """Pause, resume, focus lost/regained, heartbeat, record viewed, search run, ..."""
    if event_kind(kind) in _RESERVED:
        raise CrmTuiError(f"event {kind!r} is written by its own call, not record_event")
    with store.transaction() as session:
        _append(session, store, _in_progress(session, attempt_id, "share"), kind, payload)


# An edit's text in the log is cut here: the log keeps how the answer went, not essays.
MAX_EDIT_CHARS = 2_000


def save_draft(store: StudyStore, attempt_id: int, answer: str, edited: str | None = None) -> None:
    """Keep the answer as typed so far (committed now), so a crash or a restart brings it
    back. It stays a draft: only submit() gives the attempt an answer. `edited`: a text
    the answer settled on (the caller decides when typing paused), logged in the same
    transaction as `answer_edited` for the replay; not every keystroke's."""
    check_text("draft", answer)
    with store.transaction() as session:
        attempt = _in_progress(session, attempt_id)
        attempt.draft_answer = answer
        if edited is not None:
            _append(
                session, store, attempt, EventKind.ANSWER_EDITED, {"text": edited[:MAX_EDIT_CHARS]}
            )


def elapsed(store: StudyStore, attempt_id: int) -> Elapsed:
    """Times so far, counting up to now if this process is running the attempt."""
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        limit = _limit_ms(get_study(session, attempt.study_id))
        timing = derive(attempt_stamps(session, attempt_id))
    if attempt.status != AttemptStatus.IN_PROGRESS:
        active, wall, running = attempt.active_ms or 0, attempt.wall_ms or 0, False
    else:
        active = timing.live_active_ms(store.clock.monotonic_ms(), store.app_session)
        opened = timing.opened_at
        wall = 0 if opened is None else round((store.now()[0] - opened).total_seconds() * 1000)
        running = timing.running and timing.last_app_session == store.app_session
    return Elapsed(
        active_ms=active,
        wall_ms=wall,
        running=running,
        remaining_ms=None if limit is None else max(0, limit - active),
    )


def expire_if_over_limit(store: StudyStore, attempt_id: int) -> bool:
    """Close the attempt as expired once its active time reaches the study's limit."""
    with store.transaction() as session:
        attempt = _in_progress(session, attempt_id)
        return _expire_if_over(session, store, get_study(session, attempt.study_id), attempt)


def submit(
    store: StudyStore,
    attempt_id: int,
    answer: str | None,
    *,
    confidence: int | None = None,
    note: str | None = None,
) -> SubmitResult:
    """Store the answer (None = the explicit "None" answer), its normal form and score.
    Past the time limit the answer is kept but the attempt counts as expired."""
    if confidence is not None and not 1 <= confidence <= 5:
        raise CrmTuiError(f"confidence: {confidence} is not between 1 and 5")
    check_text("answer", answer)
    check_text("note", note)
    raw = "None" if answer is None else answer
    with store.transaction() as session:
        attempt = _in_progress(session, attempt_id)
        study = get_study(session, attempt.study_id)
        item = _item(session, attempt.item_id)
        timing = _finish(
            session,
            store,
            attempt,
            EventKind.ANSWER_SUBMITTED,
            AttemptStatus.SUBMITTED,
            {"answer": raw, "confidence": confidence},
        )
        limit = _limit_ms(study)
        if limit is not None and timing.active_ms > limit:
            attempt.status = AttemptStatus.EXPIRED
        attempt.answer_raw, attempt.answer_normalised = raw, normalise_answer(raw)
        # An annotator's login reads no gold (but a practice item's): the coordinator's
        # side scores the answer later (`score_pending`).
        attempt.score = points = None if item.gold_json is None else score_answer(item, raw)
        attempt.confidence, attempt.note = confidence, note
        session.add(attempt)
    show = study.training_feedback or quality.is_practice(study, item)  # the gate's feedback
    return SubmitResult(
        attempt_id=attempt_id,
        status=AttemptStatus(attempt.status),
        wall_ms=timing.wall_ms,
        active_ms=timing.active_ms,
        correct=is_right(points) if show and points is not None else None,
        score=points if show else None,
    )


def score_pending(store: StudyStore) -> int:
    """Score the answers submitted through annotators' logins, which cannot read gold
    (`store/db_logins.py`); how many. Run where gold can be read: before a report, the
    live view or an export. Nothing to do on a file: its answers are scored at submit."""
    if not store.on_server or store.blinded:
        return 0
    with store.transaction() as session:
        pending = session.exec(
            select(Attempt, StudyItem)
            .join(StudyItem, col(StudyItem.id) == col(Attempt.item_id))
            .where(
                col(Attempt.score).is_(None),
                col(Attempt.answer_raw).is_not(None),
                Attempt.status != AttemptStatus.IN_PROGRESS,
            )
            .with_for_update(of=Attempt)  # scored once, whoever else scores meanwhile
        ).all()
        for attempt, item in pending:
            attempt.score = score_answer(item, attempt.answer_raw or "None")
            session.add(attempt)
        return len(pending)


def skip(store: StudyStore, attempt_id: int, note: str | None = None) -> None:
    with store.transaction() as session:
        attempt = _in_progress(session, attempt_id)
        _finish(session, store, attempt, EventKind.SKIPPED, AttemptStatus.SKIPPED)
        attempt.note = note
        session.add(attempt)
