"""The coordinator's live view of a study, and handing a stalled query to someone else.

Per annotator: queries done of those assigned, whether they are at work now (an event in
the last few minutes), their median active time per finished query, when they were last
seen, and their stale queries: started, still open, and nothing written for a while.
Read fresh on every call, so profiles and work written by other processes show up.

Reassigning closes the stale attempt as skipped (its events and times stay, with a note
saying to whom it went) and puts the query at the end of the other annotator's queue.
Both are for coordinators only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

from sqlalchemy import func
from sqlmodel import col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.events import append_event, attempt_events
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    AttemptStatus,
    Event,
    EventKind,
    Mode,
    StudyItem,
    row_id,
)
from crm_tui.study.work.assignment import ensure_queue
from crm_tui.study.work.clock import as_utc
from crm_tui.study.work.profiles import get_profile, require_mode
from crm_tui.study.work.studies import get_study
from crm_tui.study.work.timing import derive

ACTIVE_WINDOW_S = 2 * 60  # an event this recent: at work now (heartbeats come every 10 s)
STALE_AFTER_S = 15 * 60  # an open query with nothing written for this long: stale


@dataclass(frozen=True)
class StaleQuery:
    attempt_id: int
    item_idx: int
    task: str
    annotator: str
    started_at: datetime
    last_activity: datetime
    idle_s: int


@dataclass(frozen=True)
class AnnotatorLive:
    profile_id: int
    name: str
    role: str
    done: int
    assigned: int
    active_now: bool
    median_active_ms: int | None  # over answered queries; None before the first
    last_seen: datetime | None
    stale: int


@dataclass(frozen=True)
class LiveProgress:
    study: str
    as_of: datetime
    active_window_s: int
    stale_after_s: int
    annotators: tuple[AnnotatorLive, ...]
    stale: tuple[StaleQuery, ...]


@dataclass(frozen=True)
class Reassigned:
    item_idx: int
    from_name: str
    to_name: str


def live_progress(
    store: StudyStore,
    study_id: int,
    coordinator_id: int,
    *,
    active_window_s: int = ACTIVE_WINDOW_S,
    stale_after_s: int = STALE_AFTER_S,
) -> LiveProgress:
    """The study as it stands now (coordinators only)."""
    now = store.now()[0]
    with store.transaction(snapshot=True) as session:
        require_mode(session, coordinator_id, Mode.COORDINATOR)
        study = get_study(session, study_id)
        assigned = dict(
            session.exec(
                select(Assignment.annotator_id, func.count())
                .where(Assignment.study_id == study_id)
                .group_by(col(Assignment.annotator_id))
            ).all()
        )
        last_seen = {
            person: as_utc(stamp)
            for person, stamp in session.exec(
                select(Event.annotator_id, func.max(Event.wall))
                .where(Event.study_id == study_id)
                .group_by(col(Event.annotator_id))
            ).all()
            if stamp is not None
        }
        people = session.exec(
            select(Annotator)
            .where(
                (col(Annotator.mode) == Mode.ANNOTATOR)
                | col(Annotator.id).in_(list(assigned) or [-1])
            )
            .order_by(col(Annotator.name))
        ).all()
        attempts = session.exec(select(Attempt).where(Attempt.study_id == study_id)).all()
        open_ids = [row_id(a) for a in attempts if a.status == AttemptStatus.IN_PROGRESS]
        last_event = dict(
            session.exec(
                select(Event.attempt_id, func.max(Event.wall))
                .where(col(Event.attempt_id).in_(open_ids or [-1]))
                .group_by(col(Event.attempt_id))
            ).all()
        )
        items = {
            row_id(item): item
            for item in session.exec(select(StudyItem).where(StudyItem.study_id == study_id))
        }
        name_of = {row_id(p): p.name for p in people}
        done: dict[int, int] = defaultdict(int)
        times: dict[int, list[int]] = defaultdict(list)
        stale: list[StaleQuery] = []
        for attempt in attempts:
            if attempt.status != AttemptStatus.IN_PROGRESS:
                done[attempt.annotator_id] += 1
                answered = attempt.status in (AttemptStatus.SUBMITTED, AttemptStatus.EXPIRED)
                if answered and attempt.active_ms is not None:
                    times[attempt.annotator_id].append(attempt.active_ms)
                continue
            stamp = last_event.get(row_id(attempt))
            last = as_utc(stamp) if stamp is not None else as_utc(attempt.started_at)
            idle_s = int((now - last).total_seconds())
            if idle_s >= stale_after_s:
                item = items[attempt.item_id]
                stale.append(
                    StaleQuery(
                        attempt_id=row_id(attempt),
                        item_idx=item.idx,
                        task=item.task,
                        annotator=name_of.get(attempt.annotator_id, "?"),
                        started_at=as_utc(attempt.started_at),
                        last_activity=last,
                        idle_s=idle_s,
                    )
                )
        since = now - timedelta(seconds=active_window_s)
        return LiveProgress(
            study=study.name,
            as_of=now,
            active_window_s=active_window_s,
            stale_after_s=stale_after_s,
            annotators=tuple(
                AnnotatorLive(
                    profile_id=row_id(p),
                    name=p.name,
                    role=p.role,
                    done=done[row_id(p)],
                    assigned=assigned.get(row_id(p), 0),
                    active_now=last_seen.get(row_id(p), since) > since,
                    median_active_ms=(
                        round(median(times[row_id(p)])) if times[row_id(p)] else None
                    ),
                    last_seen=last_seen.get(row_id(p)),
                    stale=sum(1 for s in stale if s.annotator == p.name),
                )
                for p in people
            ),
            stale=tuple(sorted(stale, key=lambda s: -s.idle_s)),
        )


def reassign(
    store: StudyStore, study_id: int, coordinator_id: int, attempt_id: int, to_profile_id: int
) -> Reassigned:
    """Give the query of an open attempt to another annotator (coordinators only)."""
    with store.transaction() as session:
        # The new holder's queue changes (person lock, then the study's draw if it is
        # drawn now, as in open_next); the attempt closes (its row, locked last).
        lock(session, "queue", study_id, to_profile_id)
        coordinator = require_mode(session, coordinator_id, Mode.COORDINATOR)
        study = get_study(session, study_id)
        attempt = session.get(Attempt, attempt_id, with_for_update=True)
        if attempt is None or attempt.study_id != study_id:
            raise CrmTuiError(f"no attempt {attempt_id} in study {study.name!r}")
        item = session.get(StudyItem, attempt.item_id)
        assert item is not None, "an attempt's item is in the file (foreign key)"
        holder = get_profile(session, attempt.annotator_id)
        if attempt.status != AttemptStatus.IN_PROGRESS:
            raise CrmTuiError(
                f"{holder.name}'s query {item.idx} is {attempt.status} already: "
                "only an open query can be reassigned"
            )
        target = get_profile(session, to_profile_id)
        if target.mode != Mode.ANNOTATOR or row_id(target) == attempt.annotator_id:
            raise CrmTuiError(
                f"query {item.idx} can go to another annotator only, not {target.name}"
            )
        had_queue = session.exec(
            select(Assignment.id).where(
                Assignment.study_id == study_id, Assignment.annotator_id == row_id(target)
            )
        ).first()
        queue = ensure_queue(session, study, target)  # drawn now if they never started
        if any(a.item_id == attempt.item_id for a in queue):
            if had_queue is not None:
                raise CrmTuiError(f"{target.name} already has query {item.idx} in their queue")
        else:
            session.add(
                Assignment(
                    study_id=study_id,
                    annotator_id=row_id(target),
                    item_id=attempt.item_id,
                    position=max((a.position for a in queue), default=-1) + 1,
                )
            )
        append_event(
            session,
            store,
            study_id=study_id,
            annotator_id=attempt.annotator_id,
            attempt_id=attempt_id,
            kind=EventKind.SKIPPED,
            payload={"reassigned_to": target.name, "by": coordinator.name},
        )
        timing = derive(attempt_events(session, attempt_id))
        attempt.status = AttemptStatus.SKIPPED
        attempt.submitted_at = store.now()[0]
        attempt.wall_ms, attempt.active_ms = timing.wall_ms, timing.active_ms
        attempt.note = f"reassigned to {target.name} by {coordinator.name}"
        session.add(attempt)
        return Reassigned(item.idx, holder.name, target.name)
