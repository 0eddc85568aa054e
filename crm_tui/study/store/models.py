"""The study file's tables (SQLModel). Migrations in `migrations.py` create them; the
models here must match the latest migration (a test compares the two).

Datetimes are timezone-aware UTC (SQLModel stores them as UTC text); JSON columns hold text.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Protocol

from sqlalchemy import BigInteger, Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from crm_tui.study.work.modes import Mode as Mode  # defined apart: the app reads it before SQLModel


class _Row(Protocol):
    @property
    def id(self) -> int | None: ...


def row_id(row: _Row) -> int:
    """The id of a row that is in the file (read from it, or added and flushed).

    The models declare `id: int | None` because a row has no id before its INSERT; a row
    read back always has one, and this says so to the type checker.
    """
    if row.id is None:
        raise RuntimeError(f"{type(row).__name__} has no id yet: it was never flushed")
    return row.id


class AttemptStatus(StrEnum):
    IN_PROGRESS = "in_progress"
    SUBMITTED = "submitted"
    SKIPPED = "skipped"
    EXPIRED = "expired"


class EventKind(StrEnum):
    OPENED = "opened"  # the attempt is on screen (first time or resumed after a restart)
    CLOSED = "closed"  # left the attempt without finishing it
    HEARTBEAT = "heartbeat"  # still here: bounds the time lost if the process dies
    FOCUS_LOST = "focus_lost"
    FOCUS_REGAINED = "focus_regained"
    PAUSED = "paused"
    RESUMED = "resumed"
    RECORD_VIEWED = "record_viewed"
    SEARCH_RUN = "search_run"
    ROWS_SHOWN = "rows_shown"  # a list page or search results on screen: their record Ids
    FILTER_SET = "filter_set"
    SOQL_RUN = "soql_run"  # a query typed in the SOQL console
    REPORT_RUN = "report_run"  # a report run in the browser (definition, rows, time)
    ANSWER_USED = "answer_used"  # "use this record as my answer"
    ANSWER_EDITED = "answer_edited"  # the answer as it stood after a burst of typing
    ANSWER_SUBMITTED = "answer_submitted"
    SKIPPED = "skipped"
    EXPIRED = "expired"
    EXPLORE_STARTED = "explore_started"
    EXPLORE_FINISHED = "explore_finished"
    REALISM_RATED = "realism_rated"
    FLAGGED = "flagged"


class SchemaVersion(SQLModel, table=True):
    __tablename__ = "schema_version"
    version: int = Field(primary_key=True)
    applied_at: datetime


class Annotator(SQLModel, table=True):
    __tablename__ = "annotator"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    role: str  # job title, e.g. "Customer Service Associate"
    crm_years: float
    mode: str = Mode.ANNOTATOR
    created_at: datetime


class Study(SQLModel, table=True):
    __tablename__ = "study"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    preset: str | None = None
    org_fingerprint: str
    task_set_hash: str
    # Parts, realism scale and audit taxonomy, copied in so later file edits change nothing.
    protocol_json: str = Field(sa_column=Column(Text, nullable=False))
    items_per_annotator: int
    annotators_per_item: int
    distinct_families: bool = False
    seed: int
    time_limit_s: int | None = None
    training_feedback: bool = False
    created_at: datetime


class StudyItem(SQLModel, table=True):
    """A task instance copied into the study. `gold_json` never leaves annotator calls."""

    __tablename__ = "study_item"
    __table_args__ = (UniqueConstraint("study_id", "idx"),)
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id", index=True)
    idx: int
    task: str
    query: str = Field(sa_column=Column(Text, nullable=False))
    metadata_json: str = Field(sa_column=Column(Text, nullable=False))
    reward_metric: str
    gold_json: str = Field(sa_column=Column(Text, nullable=False))
    extra_json: str | None = Field(default=None, sa_column=Column(Text))  # the `crm_tui` dict


class Assignment(SQLModel, table=True):
    __tablename__ = "assignment"
    __table_args__ = (
        UniqueConstraint("study_id", "annotator_id", "position"),
        UniqueConstraint("study_id", "annotator_id", "item_id"),
    )
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    annotator_id: int = Field(foreign_key="annotator.id")
    item_id: int = Field(foreign_key="study_item.id", index=True)
    position: int


class Attempt(SQLModel, table=True):
    __tablename__ = "attempt"
    id: int | None = Field(default=None, primary_key=True)
    assignment_id: int = Field(foreign_key="assignment.id", unique=True)
    study_id: int = Field(foreign_key="study.id", index=True)
    annotator_id: int = Field(foreign_key="annotator.id")
    item_id: int = Field(foreign_key="study_item.id")
    status: str = AttemptStatus.IN_PROGRESS
    started_at: datetime
    submitted_at: datetime | None = None
    # Milliseconds in 64 bits (schema version 11): 2**31 ms is under 25 days.
    wall_ms: int | None = Field(default=None, sa_column=Column(BigInteger))
    active_ms: int | None = Field(default=None, sa_column=Column(BigInteger))
    answer_raw: str | None = None
    answer_normalised: str | None = None
    score: float | None = None
    confidence: int | None = None
    note: str | None = None
    app_version: str | None = None  # added in schema version 2
    draft_answer: str | None = None  # schema version 4: the answer typed so far, unsubmitted


class Event(SQLModel, table=True):
    """Append-only (triggers refuse UPDATE and DELETE)."""

    __tablename__ = "event"
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    annotator_id: int = Field(foreign_key="annotator.id")
    attempt_id: int | None = Field(default=None, foreign_key="attempt.id", index=True)
    kind: str
    wall: datetime
    monotonic_ms: int = Field(sa_column=Column(BigInteger, nullable=False))  # since boot
    payload_json: str | None = Field(default=None, sa_column=Column(Text))
    app_session: str | None = None  # added in schema version 2: which process wrote it


class RealismRating(SQLModel, table=True):
    """One rating per annotator and target; rating again replaces it."""

    __tablename__ = "realism_rating"
    __table_args__ = (UniqueConstraint("study_id", "annotator_id", "target"),)
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    annotator_id: int = Field(foreign_key="annotator.id")
    target: str  # "org" or an object's API name
    level: int  # 1..5 on the scale, 0 = "I don't know this object"
    rationale: str | None = Field(default=None, sa_column=Column(Text))
    record_ids_json: str = Field(sa_column=Column(Text, nullable=False))
    rated_at: datetime


class AuditFlag(SQLModel, table=True):
    __tablename__ = "audit_flag"
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    annotator_id: int = Field(foreign_key="annotator.id")
    item_id: int = Field(foreign_key="study_item.id", index=True)
    category: str
    comment: str | None = Field(default=None, sa_column=Column(Text))
    suggested_answer: str | None = None
    flagged_at: datetime


class TextDraft(SQLModel, table=True):
    """Text a person is still writing (a rationale, say), saved as they type so that a
    crash, a restart or moving to another target never loses it."""

    __tablename__ = "text_draft"
    __table_args__ = (UniqueConstraint("study_id", "annotator_id", "key"),)
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    annotator_id: int = Field(foreign_key="annotator.id")
    key: str  # what the text is for, e.g. "realism:Case"
    text: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime


class Invitation(SQLModel, table=True):
    """An invitation code for one profile (`invitations.py`). The code itself is never
    stored: its first group (`selector`) finds the row, the rest is checked against
    `verifier_hash` (scrypt with `salt`)."""

    __tablename__ = "invitation"
    id: int | None = Field(default=None, primary_key=True)
    annotator_id: int = Field(foreign_key="annotator.id", index=True)
    study_id: int | None = Field(default=None, foreign_key="study.id")  # --study, if given
    selector: str = Field(unique=True)
    salt: str  # hex
    verifier_hash: str  # hex
    created_at: datetime
    expires_at: datetime  # the code must be first used by then
    used_at: datetime | None = None  # first use: from then on it reopens this profile
    revoked_at: datetime | None = None


class InvitationFailure(SQLModel, table=True):
    """A code that reached no profile: counted per source for the lock-out. A row with
    reason "opened" marks a right code after wrong ones: the count starts again there."""

    __tablename__ = "invitation_failure"
    id: int | None = Field(default=None, primary_key=True)
    source: str = Field(index=True)  # who tried: a terminal, a browser session
    annotator_id: int | None = Field(default=None, foreign_key="annotator.id")  # if known
    reason: str  # wrong, expired, revoked, locked, opened (for the coordinator, never shown)
    failed_at: datetime


class ConversationTurn(SQLModel, table=True):
    """One turn of a multi-turn attempt: the simulated customer's or the person's reply
    (schema version 8). The attempt's answer is the person's last reply."""

    __tablename__ = "conversation_turn"
    __table_args__ = (UniqueConstraint("attempt_id", "position"),)
    id: int | None = Field(default=None, primary_key=True)
    attempt_id: int = Field(foreign_key="attempt.id", index=True)
    position: int  # 0-based, in the order said
    role: str  # "customer" or "agent" (the person playing the agent)
    text: str = Field(sa_column=Column(Text, nullable=False))
    source: str  # who wrote it: "scripted", "llm" or "person"
    at: datetime


class Adjudication(SQLModel, table=True):
    """A decision on a query's gold (`adjudication.py`): keep, correct (a new gold) or drop.
    Append-only (triggers refuse UPDATE and DELETE): deciding again adds a row, and each
    person's latest row counts."""

    __tablename__ = "adjudication"
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    item_id: int = Field(foreign_key="study_item.id", index=True)
    annotator_id: int = Field(foreign_key="annotator.id")
    decision: str  # keep, correct, drop
    category: str  # a key of the study's audit taxonomy
    new_gold_json: str | None = Field(default=None, sa_column=Column(Text))  # correct only
    note: str | None = Field(default=None, sa_column=Column(Text))
    decided_at: datetime


class TaskSetVersion(SQLModel, table=True):
    """A task set made from the study's by the decisions in force (append-only): its rows,
    its parent's hash and every decision applied."""

    __tablename__ = "task_set_version"
    __table_args__ = (UniqueConstraint("study_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id")
    number: int  # 1, 2, ... within the study
    parent_hash: str
    content_hash: str
    rows_json: str = Field(sa_column=Column(Text, nullable=False))
    changes_json: str = Field(sa_column=Column(Text, nullable=False))
    made_by: int = Field(foreign_key="annotator.id")
    made_at: datetime


class QualityRecord(SQLModel, table=True):
    """A quality-control fact about a person in a study (`quality.py`), append-only
    (triggers refuse UPDATE and DELETE): consent given or declined (with the text's
    hash), a retry of the qualification allowed, an exclusion and its lifting (with the
    reason), a post-study answer, a guideline seen, the completion code (schema version 10)."""

    __tablename__ = "quality_record"
    id: int | None = Field(default=None, primary_key=True)
    study_id: int = Field(foreign_key="study.id", index=True)
    annotator_id: int = Field(foreign_key="annotator.id")
    kind: str
    attempt_id: int | None = Field(default=None, foreign_key="attempt.id")
    key: str | None = None
    value: str | None = Field(default=None, sa_column=Column(Text))
    made_by: int | None = Field(default=None, foreign_key="annotator.id")
    made_at: datetime
