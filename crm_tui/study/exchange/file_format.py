"""The file one annotator's offline work travels in: its format, reading and writing.

One JSON document with a versioned header (`kind`, `format`), the identity of the study
it belongs to (name, org fingerprint, task-set hash) and the annotator's own records:
profile, queue, attempts with their events and times, ratings, flags and text drafts.
It holds the annotator's answers only, never a gold answer or a score (the study that
merges it scores the answers against its own gold). Records point at queries by their
task index (`item_idx`), which every copy of a study shares, never by a row id.

Reading checks everything before anything is used: a bad file is refused with one line
naming the file and the field (`records.events.3.kind`) or the JSON line.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from crm_tui.atomic import replace_file
from crm_tui.errors import CrmTuiError
from crm_tui.study.store.models import AttemptStatus, EventKind, Mode
from crm_tui.study.work.bounds import MAX_TEXT_CHARS
from crm_tui.tasks.input_files import loads, read_input

KIND = "crm-tui-study-work"
FORMAT = 1


# What one person's work can hold: names and keys of a line, answers and notes of pages.
Name = Annotated[str, Field(min_length=1, max_length=200)]
LongText = Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
MAX_RECORDS = 100_000  # of each kind in one file


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StudyIdentity(_Record):
    name: Name
    org_fingerprint: str = Field(min_length=1)
    task_set_hash: str = Field(min_length=1)


class ProfileRecord(_Record):
    name: Name
    role: Name
    crm_years: float = Field(ge=0, le=80)
    mode: Mode
    created_at: AwareDatetime


class AssignmentRecord(_Record):
    item_idx: int = Field(ge=0)
    position: int = Field(ge=0)


class AttemptRecord(_Record):
    item_idx: int = Field(ge=0)
    status: AttemptStatus
    started_at: AwareDatetime
    submitted_at: AwareDatetime | None
    wall_ms: int | None = Field(ge=0)
    active_ms: int | None = Field(ge=0)
    answer_raw: LongText | None
    confidence: int | None = Field(ge=1, le=5)
    note: LongText | None
    app_version: Name | None
    draft_answer: LongText | None


class EventRecord(_Record):
    item_idx: int | None = Field(ge=0)  # the query of the attempt it belongs to, if any
    kind: EventKind
    wall: AwareDatetime
    monotonic_ms: int
    payload: dict[str, Any] | None
    app_session: Name | None


class RatingRecord(_Record):
    target: Name
    level: int = Field(ge=0, le=5)
    rationale: LongText | None
    record_ids: list[str]
    rated_at: AwareDatetime


class FlagRecordData(_Record):
    item_idx: int = Field(ge=0)
    category: Name
    comment: LongText | None
    suggested_answer: LongText | None
    flagged_at: AwareDatetime


class DraftRecord(_Record):
    key: Name
    text: LongText
    updated_at: AwareDatetime


class TurnRecord(_Record):
    """One turn of a multi-turn attempt, by the attempt's query."""

    item_idx: int = Field(ge=0)
    position: int = Field(ge=0, le=MAX_RECORDS)
    role: Name
    text: LongText
    source: Name
    at: AwareDatetime


class QualityRecordData(_Record):
    """A quality-control record the person made themselves (consent, guidelines seen,
    post-study answers, completion code); those a coordinator made never travel."""

    kind: Name
    item_idx: int | None = Field(default=None, ge=0)  # the attempt's query, if about one
    key: Name | None = None
    value: LongText | None = None
    made_at: AwareDatetime


class WorkRecords(_Record):
    assignments: Annotated[list[AssignmentRecord], Field(max_length=MAX_RECORDS)]
    attempts: Annotated[list[AttemptRecord], Field(max_length=MAX_RECORDS)]
    events: Annotated[list[EventRecord], Field(max_length=MAX_RECORDS)]
    ratings: Annotated[list[RatingRecord], Field(max_length=MAX_RECORDS)]
    flags: Annotated[list[FlagRecordData], Field(max_length=MAX_RECORDS)]
    drafts: Annotated[list[DraftRecord], Field(max_length=MAX_RECORDS)]
    # Files written before multi-turn solving and quality control hold neither.
    conversation_turns: Annotated[list[TurnRecord], Field(max_length=MAX_RECORDS)] = []
    quality: Annotated[list[QualityRecordData], Field(max_length=MAX_RECORDS)] = []


class WorkFile(_Record):
    """The whole file, header first."""

    kind: Literal["crm-tui-study-work"]
    format: Literal[1]
    exported_at: AwareDatetime
    study: StudyIdentity
    profile: ProfileRecord
    records: WorkRecords


def _location(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def _check_references(path: Path, work: WorkFile) -> None:
    """What the schema cannot say: each query once in the queue and once among the
    attempts, and every attempt and attempt event on a query of the queue."""
    records = work.records
    queue: set[int] = set()
    for n, assignment in enumerate(records.assignments):
        if assignment.item_idx in queue:
            raise CrmTuiError(
                f"{path}: records.assignments.{n}.item_idx: query {assignment.item_idx} "
                "is in the queue twice"
            )
        queue.add(assignment.item_idx)
    attempted: set[int] = set()
    for n, attempt in enumerate(records.attempts):
        where = f"{path}: records.attempts.{n}.item_idx"
        if attempt.item_idx not in queue:
            raise CrmTuiError(f"{where}: query {attempt.item_idx} is not in the queue")
        if attempt.item_idx in attempted:
            raise CrmTuiError(f"{where}: query {attempt.item_idx} has two attempts")
        if attempt.status == AttemptStatus.SUBMITTED and attempt.answer_raw is None:
            raise CrmTuiError(
                f"{path}: records.attempts.{n}.answer_raw: a submitted attempt has an answer"
            )
        attempted.add(attempt.item_idx)
    for n, event in enumerate(records.events):
        if event.item_idx is not None and event.item_idx not in attempted:
            raise CrmTuiError(
                f"{path}: records.events.{n}.item_idx: query {event.item_idx} has no attempt"
            )
    seen: set[str] = set()
    for n, event in enumerate(records.events):
        key = event.model_dump_json()
        if key in seen:
            raise CrmTuiError(f"{path}: records.events.{n}: the same event appears twice")
        seen.add(key)
    targets = [rating.target for rating in records.ratings]
    keys = [draft.key for draft in records.drafts]
    for field, values in (("ratings", targets), ("drafts", keys)):
        twice = next((v for n, v in enumerate(values) if v in values[:n]), None)
        if twice is not None:
            raise CrmTuiError(f"{path}: records.{field}: {twice!r} appears twice")


def read_work_file(path: Path) -> WorkFile:
    """The file at `path`, checked whole, or a CrmTuiError naming it and what is wrong."""
    raw = read_input(path, "a study work file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CrmTuiError(f"{path}: not UTF-8 text") from None
    try:
        data = loads(text, str(path))
    except json.JSONDecodeError as exc:
        raise CrmTuiError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("kind") != KIND:
        raise CrmTuiError(f"{path}: not a crm-tui study work file (expected kind {KIND!r})")
    if data.get("format") != FORMAT:
        raise CrmTuiError(
            f"{path}: work file format {data.get('format')!r}; this crm-tui reads format "
            f"{FORMAT} (export it again with the same version)"
        )
    try:
        work = WorkFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise CrmTuiError(f"{path}: {_location(first['loc'])}: {first['msg']}") from None
    _check_references(path, work)
    return work


def write_work_file(path: Path, work: WorkFile) -> None:
    """Write the file whole or not at all, readable by its owner only (0600): it holds a
    person's answers and notes."""
    text = work.model_dump_json(indent=1) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o600)  # mkstemp's mode already; said here because it matters
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        replace_file(tmp, path, "the work file")
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
