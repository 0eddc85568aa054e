"""Studies done offline: export one annotator's work from a copy of a study, and merge
such files into the coordinator's study.

Merging checks every file first (format, fields, and that it belongs to this study:
same name, org and task set, every query in it), then writes all of them in one
transaction, so a refused merge changes nothing. Records are matched on natural keys
that every copy of a study shares, so merging a file twice adds nothing:

- the profile by name (same role and mode, or the merge is refused);
- a queue entry and an attempt by (annotator, query index); an attempt found on both
  sides must have the same start, and the more finished side wins;
- an event by (annotator, query, kind, wall and monotonic stamps, process, payload),
  counted: a file adds only the copies the study does not hold yet;
- a rating by (annotator, target) and a draft by (annotator, key): the newer one wins;
- a flag by (annotator, query, category, time, comment, suggested answer).

Answers are scored against the merging study's own gold (the file carries none).
Only the ORM is used, so any engine the study store runs on will do.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from crm_tui.atomic import check_output_path
from crm_tui.errors import CrmTuiError
from crm_tui.study.exchange import said
from crm_tui.study.exchange.file_format import (
    AssignmentRecord,
    AttemptRecord,
    DraftRecord,
    EventRecord,
    FlagRecordData,
    ProfileRecord,
    RatingRecord,
    StudyIdentity,
    WorkFile,
    WorkRecords,
    read_work_file,
    write_work_file,
)
from crm_tui.study.store.db import StudyStore, lock_store
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    AttemptStatus,
    AuditFlag,
    Event,
    EventKind,
    Mode,
    RealismRating,
    Study,
    StudyItem,
    TextDraft,
    row_id,
)
from crm_tui.study.work.attempts import normalise_answer, score_answer
from crm_tui.study.work.clock import as_utc
from crm_tui.study.work.ratings import rating_targets
from crm_tui.study.work.studies import list_studies, pick_study, study_protocol


@dataclass(frozen=True)
class ExportSummary:
    path: Path
    study: str
    profile: str
    attempts: int
    events: int
    ratings: int
    flags: int


@dataclass
class MergeCounts:
    """What a merge added (and changed: attempts finished offline, newer ratings)."""

    profiles: int = 0
    assignments: int = 0
    attempts: int = 0
    attempts_updated: int = 0
    events: int = 0
    ratings: int = 0
    ratings_updated: int = 0
    flags: int = 0
    drafts: int = 0
    turns: int = 0  # of multi-turn conversations
    quality: int = 0  # the person's own quality-control records

    @property
    def nothing_new(self) -> bool:
        return not any(vars(self).values())

    def describe(self) -> str:
        if self.nothing_new:
            return "nothing new"
        parts = [
            f"{self.profiles} profile(s)",
            f"{self.attempts} attempt(s)",
            f"{self.events} event(s)",
            f"{self.ratings} rating(s)",
            f"{self.flags} flag(s)",
        ]
        changed = [
            f"{n} {what}"
            for n, what in (
                (self.attempts_updated, "attempt(s) updated"),
                (self.ratings_updated, "rating(s) replaced by newer ones"),
                (self.drafts, "draft(s)"),
                (self.turns, "conversation turn(s)"),
                (self.quality, "consent and quality record(s)"),
            )
            if n
        ]
        return "added " + ", ".join(parts) + ("; " + ", ".join(changed) if changed else "")


def _utc_or_none(stamp: datetime | None) -> datetime | None:
    return None if stamp is None else as_utc(stamp)


def _payload(payload_json: str | None) -> dict[str, Any] | None:
    return None if payload_json is None else json.loads(payload_json)


def _payload_json(payload: dict[str, Any] | None) -> str | None:
    # As events.append_event writes it, so a payload compares equal after a round trip.
    return json.dumps(payload, sort_keys=True) if payload else None


def _portable(
    kind: str, payload: dict[str, Any] | None, idx_of: dict[int, int]
) -> dict[str, Any] | None:
    """A flag's event names its query by row id, which differs between copies of a study;
    the file names it by task index instead."""
    if kind != EventKind.FLAGGED or not payload or payload.get("item_id") not in idx_of:
        return payload
    portable = {k: v for k, v in payload.items() if k != "item_id"}
    return {**portable, "item_idx": idx_of[payload["item_id"]]}


def _local(
    kind: str, payload: dict[str, Any] | None, items: dict[int, StudyItem]
) -> dict[str, Any] | None:
    """The payload as this study writes it (`_portable` undone)."""
    if kind != EventKind.FLAGGED or not payload or payload.get("item_idx") not in items:
        return payload
    local = {k: v for k, v in payload.items() if k != "item_idx"}
    return {**local, "item_id": row_id(items[payload["item_idx"]])}


# ----------------------------------------------------------------- export
def _item_indexes(session: Session, study_id: int) -> dict[int, int]:
    """Item row id -> task index, for the study."""
    rows = session.exec(
        select(StudyItem.id, StudyItem.idx).where(StudyItem.study_id == study_id)
    ).all()
    return {item_id: idx for item_id, idx in rows if item_id is not None}


def _profile_named(session: Session, name: str) -> Annotator:
    profile = session.exec(select(Annotator).where(Annotator.name == name)).first()
    if profile is None:
        known = ", ".join(repr(n) for n in session.exec(select(Annotator.name))) or "none"
        raise CrmTuiError(f"no profile named {name!r} (profiles: {known})")
    return profile


def collect_work(session: Session, study: Study, profile: Annotator, now: datetime) -> WorkFile:
    """One profile's work in `study`, as the file holds it."""
    study_id, person = row_id(study), row_id(profile)
    idx_of = _item_indexes(session, study_id)
    mine = (Assignment.study_id == study_id, Assignment.annotator_id == person)
    assignments = session.exec(select(Assignment).where(*mine).order_by(col(Assignment.position)))
    attempts = list(
        session.exec(
            select(Attempt)
            .where(Attempt.study_id == study_id, Attempt.annotator_id == person)
            .order_by(col(Attempt.id))
        )
    )
    attempt_idx = {row_id(a): idx_of[a.item_id] for a in attempts}
    events = session.exec(
        select(Event)
        .where(Event.study_id == study_id, Event.annotator_id == person)
        .order_by(col(Event.id))
    )
    ratings = session.exec(
        select(RealismRating)
        .where(RealismRating.study_id == study_id, RealismRating.annotator_id == person)
        .order_by(col(RealismRating.id))
    )
    flags = session.exec(
        select(AuditFlag)
        .where(AuditFlag.study_id == study_id, AuditFlag.annotator_id == person)
        .order_by(col(AuditFlag.id))
    )
    drafts = session.exec(
        select(TextDraft)
        .where(TextDraft.study_id == study_id, TextDraft.annotator_id == person)
        .order_by(col(TextDraft.id))
    )
    return WorkFile(
        kind="crm-tui-study-work",
        format=1,
        exported_at=now,
        study=StudyIdentity(
            name=study.name,
            org_fingerprint=study.org_fingerprint,
            task_set_hash=study.task_set_hash,
        ),
        profile=ProfileRecord(
            name=profile.name,
            role=profile.role,
            crm_years=profile.crm_years,
            mode=profile.mode,
            created_at=as_utc(profile.created_at),
        ),
        records=WorkRecords(
            assignments=[
                AssignmentRecord(item_idx=idx_of[a.item_id], position=a.position)
                for a in assignments
            ],
            attempts=[
                AttemptRecord(
                    item_idx=idx_of[a.item_id],
                    status=a.status,
                    started_at=as_utc(a.started_at),
                    submitted_at=_utc_or_none(a.submitted_at),
                    wall_ms=a.wall_ms,
                    active_ms=a.active_ms,
                    answer_raw=a.answer_raw,
                    confidence=a.confidence,
                    note=a.note,
                    app_version=a.app_version,
                    draft_answer=a.draft_answer,
                )
                for a in attempts
            ],
            events=[
                EventRecord(
                    item_idx=None if e.attempt_id is None else attempt_idx[e.attempt_id],
                    kind=e.kind,
                    wall=as_utc(e.wall),
                    monotonic_ms=e.monotonic_ms,
                    payload=_portable(e.kind, _payload(e.payload_json), idx_of),
                    app_session=e.app_session,
                )
                for e in events
            ],
            ratings=[
                RatingRecord(
                    target=r.target,
                    level=r.level,
                    rationale=r.rationale,
                    record_ids=json.loads(r.record_ids_json),
                    rated_at=as_utc(r.rated_at),
                )
                for r in ratings
            ],
            flags=[
                FlagRecordData(
                    item_idx=idx_of[f.item_id],
                    category=f.category,
                    comment=f.comment,
                    suggested_answer=f.suggested_answer,
                    flagged_at=as_utc(f.flagged_at),
                )
                for f in flags
            ],
            drafts=[
                DraftRecord(key=d.key, text=d.text, updated_at=as_utc(d.updated_at)) for d in drafts
            ],
            conversation_turns=said.collect_turns(session, attempt_idx),
            quality=said.collect_quality(session, study_id, person, attempt_idx),
        ),
    )


def export_work(
    store: StudyStore,
    profile_name: str,
    out: Path,
    *,
    study_name: str | None = None,
    force: bool = False,
) -> ExportSummary:
    """Write `profile_name`'s work in the study (`pick_study`'s choice) to `out`."""
    check_output_path(out, force=force, what="the work file")
    study = pick_study(store, study_name)
    with store.transaction(snapshot=True) as session:
        work = collect_work(
            session, study, _profile_named(session, profile_name.strip()), store.now()[0]
        )
    write_work_file(out, work)
    records = work.records
    return ExportSummary(
        out,
        study.name,
        work.profile.name,
        len(records.attempts),
        len(records.events),
        len(records.ratings),
        len(records.flags),
    )


# ----------------------------------------------------------------- merge: checks first
def _target_study(
    store: StudyStore, works: Sequence[tuple[Path, WorkFile]], name: str | None
) -> Study:
    """The study to merge into: `name`, else the one the files name (all the same)."""
    if name is None:
        first_path, first = works[0]
        for path, work in works[1:]:
            if work.study.name != first.study.name:
                raise CrmTuiError(
                    f"{path}: of study {work.study.name!r}, but {first_path} is of study "
                    f"{first.study.name!r}; merge them separately (--study)"
                )
        known = [s.name for s in list_studies(store)]
        if first.study.name not in known:
            raise CrmTuiError(
                f"{first_path}: is of study {first.study.name!r}, which {store.path} does not "
                f"hold (studies: {', '.join(repr(n) for n in known) or 'none'}); nothing was merged"
            )
        name = first.study.name
    return pick_study(store, name)


def _check_identity(path: Path, work: WorkFile, study: Study) -> None:
    theirs = work.study
    for what, mine, other in (
        ("study", study.name, theirs.name),
        ("org", study.org_fingerprint, theirs.org_fingerprint),
        ("task set", study.task_set_hash, theirs.task_set_hash),
    ):
        if mine != other:
            raise CrmTuiError(
                f"{path}: is of {what} {other!r}, not {mine!r} (study {study.name!r}); "
                "nothing was merged"
            )


def _check_against_study(path: Path, work: WorkFile, study: Study, known: set[int]) -> None:
    """Every query the file names is in the study; every rating target is asked about."""
    records = work.records
    for field, indexes in (
        ("assignments", [a.item_idx for a in records.assignments]),
        ("attempts", [a.item_idx for a in records.attempts]),
        ("flags", [f.item_idx for f in records.flags]),
    ):
        for n, idx in enumerate(indexes):
            if idx not in known:
                raise CrmTuiError(
                    f"{path}: records.{field}.{n}.item_idx: query {idx} is not "
                    f"in study {study.name!r}"
                )
    targets = rating_targets(study)
    for n, rating in enumerate(records.ratings):
        if rating.target not in targets:
            raise CrmTuiError(
                f"{path}: records.ratings.{n}.target: {rating.target!r} is not rated in "
                f"study {study.name!r}"
            )
    categories = {c.key for c in study_protocol(study).taxonomy.categories}
    for n, flag in enumerate(records.flags):
        if flag.category not in categories:
            raise CrmTuiError(
                f"{path}: records.flags.{n}.category: {flag.category!r} is not a category "
                f"of study {study.name!r}"
            )


# ----------------------------------------------------------------- merge: writing
class _Merger:
    """Writes one checked file into the session, counting what it adds."""

    def __init__(self, session: Session, study: Study, counts: MergeCounts) -> None:
        self.session = session
        self.study = study
        self.study_id = row_id(study)
        self.counts = counts
        self.items = {
            item.idx: item
            for item in session.exec(select(StudyItem).where(StudyItem.study_id == self.study_id))
        }

    def merge(self, path: Path, work: WorkFile) -> None:
        person = self._profile(path, work.profile)
        attempt_ids = self._queue_and_attempts(path, work.records, person)
        self._events(work.records.events, person, attempt_ids)
        self._ratings(work.records.ratings, person)
        self._flags(work.records.flags, person)
        self._drafts(work.records.drafts, person)
        self.counts.turns += said.merge_turns(
            self.session, work.records.conversation_turns, attempt_ids
        )
        self.counts.quality += said.merge_quality(
            self.session, self.study_id, row_id(person), work.records.quality, attempt_ids
        )
        self.session.flush()

    def _profile(self, path: Path, record: ProfileRecord) -> Annotator:
        session = self.session
        profile = session.exec(select(Annotator).where(Annotator.name == record.name)).first()
        if profile is None:
            if record.mode != Mode.ANNOTATOR:
                # Roles that see gold answers are given by whoever runs the study, never
                # by a file someone sends in.
                raise CrmTuiError(
                    f"{path}: profile.mode: {record.name!r} is a {record.mode} in the file and "
                    "not in this study; add that profile with `crm-tui study profile` first"
                )
            profile = Annotator(
                name=record.name,
                role=record.role,
                crm_years=record.crm_years,
                mode=record.mode,
                created_at=record.created_at,
            )
            session.add(profile)
            session.flush()
            self.counts.profiles += 1
            return profile
        for what, mine, theirs in (
            ("role", profile.role, record.role),
            ("mode", profile.mode, record.mode),
        ):
            if mine != theirs:
                raise CrmTuiError(
                    f"{path}: profile.{what}: {record.name!r} is {str(theirs)!r} in the file "
                    f"but {str(mine)!r} here; nothing was merged"
                )
        return profile

    def _queue_and_attempts(
        self, path: Path, records: WorkRecords, person: Annotator
    ) -> dict[int, int]:
        """Queue entries and attempts; returns task index -> attempt id in the study."""
        session, study_id, person_id = self.session, self.study_id, row_id(person)
        queue = {
            a.item_id: a
            for a in session.exec(
                select(Assignment).where(
                    Assignment.study_id == study_id, Assignment.annotator_id == person_id
                )
            )
        }
        # A queue drawn here already stays as it is: only the queries worked on offline
        # join it. A person the study has no queue for brings their whole queue.
        worked = {a.item_idx for a in records.attempts}
        wanted = [a for a in records.assignments if not queue or a.item_idx in worked]
        taken = {a.position for a in queue.values()}
        for entry in wanted:
            item_id = row_id(self.items[entry.item_idx])
            if item_id in queue:
                continue
            position = entry.position
            if position in taken:
                position = max(taken) + 1
            taken.add(position)
            queue[item_id] = Assignment(
                study_id=study_id, annotator_id=person_id, item_id=item_id, position=position
            )
            session.add(queue[item_id])
            self.counts.assignments += 1
        session.flush()
        attempts = {
            a.item_id: a
            for a in session.exec(
                select(Attempt).where(
                    Attempt.study_id == study_id, Attempt.annotator_id == person_id
                )
            )
        }
        ids: dict[int, int] = {}
        for record in records.attempts:
            item = self.items[record.item_idx]
            attempt = attempts.get(row_id(item))
            if attempt is None:
                attempt = Attempt(
                    assignment_id=row_id(queue[row_id(item)]),
                    study_id=study_id,
                    annotator_id=person_id,
                    item_id=row_id(item),
                    started_at=record.started_at,
                )
                self._take_outcome(attempt, record, item)
                session.add(attempt)
                session.flush()
                self.counts.attempts += 1
            else:
                self._reconcile(path, person, attempt, record, item)
            ids[record.item_idx] = row_id(attempt)
        return ids

    def _reconcile(
        self,
        path: Path,
        person: Annotator,
        attempt: Attempt,
        record: AttemptRecord,
        item: StudyItem,
    ) -> None:
        """The same attempt on both sides: the more finished one wins."""
        if as_utc(attempt.started_at) != record.started_at:
            raise CrmTuiError(
                f"{path}: {person.name}'s attempt at query {item.idx} started at "
                f"{record.started_at:%Y-%m-%d %H:%M:%S} in the file but at "
                f"{as_utc(attempt.started_at):%Y-%m-%d %H:%M:%S} here (two different "
                "attempts); nothing was merged"
            )
        mine_open = attempt.status == AttemptStatus.IN_PROGRESS
        theirs_open = record.status == AttemptStatus.IN_PROGRESS
        if mine_open and not theirs_open:
            self._take_outcome(attempt, record, item)
            self.session.add(attempt)
            self.counts.attempts_updated += 1
        elif (
            not mine_open
            and not theirs_open
            and (attempt.status != record.status or attempt.answer_raw != record.answer_raw)
        ):
            raise CrmTuiError(
                f"{path}: {person.name}'s attempt at query {item.idx} is {record.status} "
                f"in the file but already {attempt.status} here with another answer; "
                "nothing was merged"
            )

    @staticmethod
    def _take_outcome(attempt: Attempt, record: AttemptRecord, item: StudyItem) -> None:
        attempt.status = record.status
        attempt.submitted_at = record.submitted_at
        attempt.wall_ms, attempt.active_ms = record.wall_ms, record.active_ms
        attempt.answer_raw = record.answer_raw
        answered = record.answer_raw is not None
        attempt.answer_normalised = normalise_answer(record.answer_raw) if answered else None
        attempt.score = score_answer(item, record.answer_raw) if record.answer_raw else None
        attempt.confidence, attempt.note = record.confidence, record.note
        attempt.app_version, attempt.draft_answer = record.app_version, record.draft_answer

    def _events(
        self, records: Sequence[EventRecord], person: Annotator, attempt_ids: dict[int, int]
    ) -> None:
        session, person_id = self.session, row_id(person)
        idx_of_attempt = {attempt_id: idx for idx, attempt_id in attempt_ids.items()}
        idx_of_item = {row_id(item): idx for idx, item in self.items.items()}
        held: Counter[tuple[Any, ...]] = Counter()
        for event in session.exec(
            select(Event).where(Event.study_id == self.study_id, Event.annotator_id == person_id)
        ):
            idx = None if event.attempt_id is None else idx_of_attempt.get(event.attempt_id, -1)
            held[
                (
                    idx,
                    event.kind,
                    as_utc(event.wall),
                    event.monotonic_ms,
                    event.app_session,
                    _payload_json(_portable(event.kind, _payload(event.payload_json), idx_of_item)),
                )
            ] += 1
        seen: Counter[tuple[Any, ...]] = Counter()
        for record in records:
            payload = _payload_json(record.payload)
            key = (
                record.item_idx,
                record.kind.value,
                record.wall,
                record.monotonic_ms,
                record.app_session,
                payload,
            )
            seen[key] += 1
            if seen[key] <= held[key]:
                continue  # this copy is in the study already
            session.add(
                Event(
                    study_id=self.study_id,
                    annotator_id=person_id,
                    attempt_id=None if record.item_idx is None else attempt_ids[record.item_idx],
                    kind=record.kind,
                    wall=record.wall,
                    monotonic_ms=record.monotonic_ms,
                    payload_json=_payload_json(_local(record.kind, record.payload, self.items)),
                    app_session=record.app_session,
                )
            )
            self.counts.events += 1

    def _ratings(self, records: Sequence[RatingRecord], person: Annotator) -> None:
        session, person_id = self.session, row_id(person)
        held = {
            r.target: r
            for r in session.exec(
                select(RealismRating).where(
                    RealismRating.study_id == self.study_id,
                    RealismRating.annotator_id == person_id,
                )
            )
        }
        for record in records:
            rating = held.get(record.target)
            if rating is not None and as_utc(rating.rated_at) >= record.rated_at:
                continue  # the study's rating is this one, or newer
            if rating is None:
                rating = RealismRating(
                    study_id=self.study_id,
                    annotator_id=person_id,
                    target=record.target,
                    level=record.level,
                    record_ids_json="[]",
                    rated_at=record.rated_at,
                )
                self.counts.ratings += 1
            else:
                self.counts.ratings_updated += 1
            rating.level, rating.rationale = record.level, record.rationale
            rating.record_ids_json = json.dumps(record.record_ids)
            rating.rated_at = record.rated_at
            session.add(rating)

    def _flags(self, records: Sequence[FlagRecordData], person: Annotator) -> None:
        session, person_id = self.session, row_id(person)
        idx_of = {row_id(item): idx for idx, item in self.items.items()}
        held = Counter(
            (idx_of[f.item_id], f.category, as_utc(f.flagged_at), f.comment, f.suggested_answer)
            for f in session.exec(
                select(AuditFlag).where(
                    AuditFlag.study_id == self.study_id, AuditFlag.annotator_id == person_id
                )
            )
        )
        seen: Counter[tuple[Any, ...]] = Counter()
        for record in records:
            key = (
                record.item_idx,
                record.category,
                record.flagged_at,
                record.comment,
                record.suggested_answer,
            )
            seen[key] += 1
            if seen[key] <= held[key]:
                continue
            session.add(
                AuditFlag(
                    study_id=self.study_id,
                    annotator_id=person_id,
                    item_id=row_id(self.items[record.item_idx]),
                    category=record.category,
                    comment=record.comment,
                    suggested_answer=record.suggested_answer,
                    flagged_at=record.flagged_at,
                )
            )
            self.counts.flags += 1

    def _drafts(self, records: Sequence[DraftRecord], person: Annotator) -> None:
        session, person_id = self.session, row_id(person)
        held = {
            d.key: d
            for d in session.exec(
                select(TextDraft).where(
                    TextDraft.study_id == self.study_id, TextDraft.annotator_id == person_id
                )
            )
        }
        for record in records:
            draft = held.get(record.key)
            if draft is not None and as_utc(draft.updated_at) >= record.updated_at:
                continue
            if draft is None:
                draft = TextDraft(
                    study_id=self.study_id,
                    annotator_id=person_id,
                    key=record.key,
                    text=record.text,
                    updated_at=record.updated_at,
                )
            draft.text, draft.updated_at = record.text, record.updated_at
            session.add(draft)
            self.counts.drafts += 1


def merge_work(
    store: StudyStore, paths: Sequence[Path], *, study_name: str | None = None
) -> tuple[str, MergeCounts]:
    """Merge the work files at `paths` into the study: all of them, or (on any problem,
    named in one line) none. Returns the study's name and what was added."""
    if not paths:
        raise CrmTuiError("merge: name at least one work file")
    works = [(Path(path), read_work_file(Path(path))) for path in paths]
    study = _target_study(store, works, study_name)
    with store.transaction() as session:
        known = set(
            session.exec(select(StudyItem.idx).where(StudyItem.study_id == row_id(study))).all()
        )
    for path, work in works:
        _check_identity(path, work, study)
        _check_against_study(path, work, study, known)
    counts = MergeCounts()
    with store.transaction() as session:
        lock_store(session)  # it writes queues, attempts and ratings of many people
        merger = _Merger(session, study, counts)
        for path, work in works:
            merger.merge(path, work)
    return study.name, counts


def work_counts(store: StudyStore, study_id: int) -> dict[str, int]:
    """Rows of each kind in the study (what a merge's tests and summary compare)."""
    with store.transaction() as session:
        return {
            name: session.exec(select(func.count()).where(model.study_id == study_id)).one()
            for name, model in (
                ("assignments", Assignment),
                ("attempts", Attempt),
                ("events", Event),
                ("ratings", RealismRating),
                ("flags", AuditFlag),
                ("drafts", TextDraft),
            )
        }
