"""Ordered schema migrations for the study file, from version 1 (the first release).

`MIGRATIONS[i]` takes a file from version i to i + 1. The DDL is frozen text, never
generated from the models, so an old file always migrates the same way; a test checks
that the latest version matches `models.py`. Never edit a released migration: add one.

The frozen text is SQLite's. On PostgreSQL `_for_dialect` rewrites it the same way every
time (fixed rules, so an old store still migrates the same way): `id INTEGER NOT NULL
PRIMARY KEY` becomes an identity column, DATETIME is TIMESTAMP, and an append-only
trigger (`RAISE(ABORT, ...)`) becomes a PL/pgSQL function raising an integrity error.
A new migration runs its SQL through `_run_script` or `_execute`, never straight through
`exec_driver_sql`, so that it runs on both (tests/study/test_study_store.py checks it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Connection, text

from crm_tui.errors import CrmTuiError

_V1_TABLES = """
CREATE TABLE annotator (
    id INTEGER NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL UNIQUE,
    role VARCHAR NOT NULL,
    crm_years FLOAT NOT NULL,
    mode VARCHAR NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE TABLE study (
    id INTEGER NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL UNIQUE,
    preset VARCHAR,
    org_fingerprint VARCHAR NOT NULL,
    task_set_hash VARCHAR NOT NULL,
    protocol_json TEXT NOT NULL,
    items_per_annotator INTEGER NOT NULL,
    annotators_per_item INTEGER NOT NULL,
    distinct_families BOOLEAN NOT NULL,
    seed INTEGER NOT NULL,
    time_limit_s INTEGER,
    training_feedback BOOLEAN NOT NULL,
    created_at DATETIME NOT NULL
);
CREATE TABLE study_item (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    idx INTEGER NOT NULL,
    task VARCHAR NOT NULL,
    "query" TEXT NOT NULL,
    metadata_json TEXT NOT NULL,
    reward_metric VARCHAR NOT NULL,
    gold_json TEXT NOT NULL,
    extra_json TEXT,
    UNIQUE (study_id, idx)
);
CREATE INDEX ix_study_item_study_id ON study_item (study_id);
CREATE TABLE assignment (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    item_id INTEGER NOT NULL REFERENCES study_item (id),
    position INTEGER NOT NULL,
    UNIQUE (study_id, annotator_id, position),
    UNIQUE (study_id, annotator_id, item_id)
);
CREATE INDEX ix_assignment_item_id ON assignment (item_id);
CREATE TABLE attempt (
    id INTEGER NOT NULL PRIMARY KEY,
    assignment_id INTEGER NOT NULL UNIQUE REFERENCES assignment (id),
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    item_id INTEGER NOT NULL REFERENCES study_item (id),
    status VARCHAR NOT NULL,
    started_at DATETIME NOT NULL,
    submitted_at DATETIME,
    wall_ms INTEGER,
    active_ms INTEGER,
    answer_raw VARCHAR,
    answer_normalised VARCHAR,
    score FLOAT,
    confidence INTEGER,
    note VARCHAR
);
CREATE INDEX ix_attempt_study_id ON attempt (study_id);
CREATE TABLE event (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    attempt_id INTEGER REFERENCES attempt (id),
    kind VARCHAR NOT NULL,
    wall DATETIME NOT NULL,
    monotonic_ms INTEGER NOT NULL,
    payload_json TEXT
);
CREATE INDEX ix_event_attempt_id ON event (attempt_id);
CREATE TRIGGER event_append_only_update BEFORE UPDATE ON event
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER event_append_only_delete BEFORE DELETE ON event
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TABLE realism_rating (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    target VARCHAR NOT NULL,
    level INTEGER NOT NULL,
    rationale TEXT,
    record_ids_json TEXT NOT NULL,
    rated_at DATETIME NOT NULL,
    UNIQUE (study_id, annotator_id, target)
);
CREATE TABLE audit_flag (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    item_id INTEGER NOT NULL REFERENCES study_item (id),
    category VARCHAR NOT NULL,
    comment TEXT,
    suggested_answer VARCHAR,
    flagged_at DATETIME NOT NULL
);
CREATE INDEX ix_audit_flag_item_id ON audit_flag (item_id);
"""


def _run_script(conn: Connection, script: str) -> None:
    for statement in _statements(script):
        for translated in _for_dialect(conn, statement):
            conn.exec_driver_sql(translated)


_SQLITE_TRIGGER = re.compile(
    r"CREATE TRIGGER (\w+) BEFORE (UPDATE|DELETE|INSERT) ON (\w+)\s+"
    r"BEGIN SELECT RAISE\(ABORT, '([^']*)'\); END;",
    re.IGNORECASE,
)


def is_own_trigger(sql: str) -> bool:
    """Whether a trigger (as `sqlite_master` keeps it) is of the one kind a study file
    holds: a guard that refuses a write (`RAISE(ABORT, ...)`) and changes nothing."""
    return _SQLITE_TRIGGER.fullmatch(sql.strip().rstrip(";") + ";") is not None


def _for_dialect(conn: Connection, statement: str) -> list[str]:
    """A frozen SQLite statement as the connection's database takes it."""
    if conn.dialect.name == "sqlite":
        return [statement]
    trigger = _SQLITE_TRIGGER.fullmatch(statement.strip())
    if trigger:
        name, when, table, message = trigger.groups()
        return [
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation'; "
            "END $$",
            f"CREATE TRIGGER {name} BEFORE {when} ON {table} FOR EACH ROW "
            f"EXECUTE FUNCTION {name}()",
        ]
    statement = re.sub(
        r"\bid INTEGER NOT NULL PRIMARY KEY\b",
        "id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        statement,
    )
    return [re.sub(r"\bDATETIME\b", "TIMESTAMP", statement)]


def _execute(conn: Connection, statement: str) -> None:
    """One frozen statement (ALTER TABLE, UPDATE), for the connection's database."""
    for translated in _for_dialect(conn, statement):
        conn.exec_driver_sql(translated)


def _statements(script: str) -> list[str]:
    """Split on ';' at line ends, keeping trigger bodies (`...; END;`) whole."""
    statements, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text.endswith(";") and (
            not text.upper().startswith("CREATE TRIGGER") or text.upper().endswith("END;")
        ):
            statements.append(text)
            current = []
    return statements


def _v1_initial_schema(conn: Connection) -> None:
    _run_script(conn, _V1_TABLES)


def _v2_provenance(conn: Connection) -> None:
    """Which app version made an attempt and which process wrote each event."""
    conn.exec_driver_sql("ALTER TABLE attempt ADD COLUMN app_version VARCHAR")
    conn.exec_driver_sql("ALTER TABLE event ADD COLUMN app_session VARCHAR")


def _v3_agent_runs(conn: Connection) -> None:
    """Imported agent runs and their re-scored answers (`agents_store.py`)."""
    _run_script(
        conn,
        """
CREATE TABLE agent_run (
    id INTEGER NOT NULL PRIMARY KEY,
    model VARCHAR NOT NULL,
    strategy VARCHAR NOT NULL,
    trial INTEGER NOT NULL,
    task_set_hash VARCHAR NOT NULL,
    source_name VARCHAR NOT NULL,
    source_hash VARCHAR NOT NULL,
    task_category VARCHAR,
    imported_at DATETIME NOT NULL,
    UNIQUE (source_hash, task_set_hash, model, strategy, trial)
);
CREATE INDEX ix_agent_run_task_set_hash ON agent_run (task_set_hash);
CREATE TABLE agent_answer (
    id INTEGER NOT NULL PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES agent_run (id),
    idx INTEGER NOT NULL,
    task VARCHAR NOT NULL,
    answer VARCHAR,
    crmarena_reward FLOAT,
    score FLOAT NOT NULL,
    end_reason VARCHAR NOT NULL,
    UNIQUE (run_id, idx)
);
CREATE INDEX ix_agent_answer_run_id ON agent_answer (run_id);
""",
    )


def _v4_drafts(conn: Connection) -> None:
    """Text still being written, kept as it is typed: an attempt's answer so far, and
    other text such as a rationale (`drafts.py`)."""
    conn.exec_driver_sql("ALTER TABLE attempt ADD COLUMN draft_answer VARCHAR")
    _run_script(
        conn,
        """
CREATE TABLE text_draft (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    "key" VARCHAR NOT NULL,
    text TEXT NOT NULL,
    updated_at DATETIME NOT NULL,
    UNIQUE (study_id, annotator_id, "key")
);
""",
    )


def _v5_agent_records(conn: Connection) -> None:
    """Each agent answer's source record hash (a finished file replaces its checkpoint),
    and no submission scores 0: earlier imports scored it as the answer None."""
    conn.exec_driver_sql("ALTER TABLE agent_answer ADD COLUMN record_hash VARCHAR")
    conn.exec_driver_sql("UPDATE agent_answer SET score = 0 WHERE answer IS NULL")


def _v6_invitations(conn: Connection) -> None:
    """Invitation codes (stored hashed) and the failed tries that lock a source out
    (`invitations.py`)."""
    _run_script(
        conn,
        """
CREATE TABLE invitation (
    id INTEGER NOT NULL PRIMARY KEY,
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    study_id INTEGER REFERENCES study (id),
    selector VARCHAR NOT NULL UNIQUE,
    salt VARCHAR NOT NULL,
    verifier_hash VARCHAR NOT NULL,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL,
    used_at DATETIME,
    revoked_at DATETIME
);
CREATE INDEX ix_invitation_annotator_id ON invitation (annotator_id);
CREATE TABLE invitation_failure (
    id INTEGER NOT NULL PRIMARY KEY,
    source VARCHAR NOT NULL,
    annotator_id INTEGER REFERENCES annotator (id),
    reason VARCHAR NOT NULL,
    failed_at DATETIME NOT NULL
);
CREATE INDEX ix_invitation_failure_source ON invitation_failure (source);
""",
    )


def _v7_agent_traces(conn: Connection) -> None:
    """Each agent answer's trajectory as steps (`steps.py`), its turns, tokens and cost."""
    conn.exec_driver_sql("ALTER TABLE agent_answer ADD COLUMN steps_json TEXT")
    conn.exec_driver_sql("ALTER TABLE agent_answer ADD COLUMN turns INTEGER")
    conn.exec_driver_sql("ALTER TABLE agent_answer ADD COLUMN tokens INTEGER")
    conn.exec_driver_sql("ALTER TABLE agent_answer ADD COLUMN cost FLOAT")


def _v8_conversations(conn: Connection) -> None:
    """Multi-turn solving: the turns of a conversation with a simulated customer, per
    attempt; an interactive agent run's customer turns and dialogue."""
    _run_script(
        conn,
        """
CREATE TABLE conversation_turn (
    id INTEGER NOT NULL PRIMARY KEY,
    attempt_id INTEGER NOT NULL REFERENCES attempt (id),
    position INTEGER NOT NULL,
    role VARCHAR NOT NULL,
    text TEXT NOT NULL,
    source VARCHAR NOT NULL,
    at DATETIME NOT NULL,
    UNIQUE (attempt_id, position)
);
CREATE INDEX ix_conversation_turn_attempt_id ON conversation_turn (attempt_id);
ALTER TABLE agent_answer ADD COLUMN user_turns INTEGER;
ALTER TABLE agent_answer ADD COLUMN dialogue_json TEXT;
""",
    )


def _v9_adjudication(conn: Connection) -> None:
    """Decisions on queries' gold and the task-set versions they make (`adjudication.py`),
    both append-only."""
    _run_script(
        conn,
        """
CREATE TABLE adjudication (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    item_id INTEGER NOT NULL REFERENCES study_item (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    decision VARCHAR NOT NULL,
    category VARCHAR NOT NULL,
    new_gold_json TEXT,
    note TEXT,
    decided_at DATETIME NOT NULL
);
CREATE INDEX ix_adjudication_item_id ON adjudication (item_id);
CREATE TRIGGER adjudication_append_only_update BEFORE UPDATE ON adjudication
BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
CREATE TRIGGER adjudication_append_only_delete BEFORE DELETE ON adjudication
BEGIN SELECT RAISE(ABORT, 'decisions are append-only'); END;
CREATE TABLE task_set_version (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    number INTEGER NOT NULL,
    parent_hash VARCHAR NOT NULL,
    content_hash VARCHAR NOT NULL,
    rows_json TEXT NOT NULL,
    changes_json TEXT NOT NULL,
    made_by INTEGER NOT NULL REFERENCES annotator (id),
    made_at DATETIME NOT NULL,
    UNIQUE (study_id, number)
);
CREATE TRIGGER task_set_version_append_only_update BEFORE UPDATE ON task_set_version
BEGIN SELECT RAISE(ABORT, 'task set versions are never edited'); END;
CREATE TRIGGER task_set_version_append_only_delete BEFORE DELETE ON task_set_version
BEGIN SELECT RAISE(ABORT, 'task set versions are never edited'); END;
""",
    )


def _v10_quality(conn: Connection) -> None:
    """Quality control of a study (`quality.py`): consent, retries allowed, exclusions,
    post-study answers and completion codes, append-only."""
    _run_script(
        conn,
        """
CREATE TABLE quality_record (
    id INTEGER NOT NULL PRIMARY KEY,
    study_id INTEGER NOT NULL REFERENCES study (id),
    annotator_id INTEGER NOT NULL REFERENCES annotator (id),
    kind VARCHAR NOT NULL,
    attempt_id INTEGER REFERENCES attempt (id),
    "key" VARCHAR,
    value TEXT,
    made_by INTEGER REFERENCES annotator (id),
    made_at DATETIME NOT NULL
);
CREATE INDEX ix_quality_record_study_id ON quality_record (study_id);
CREATE TRIGGER quality_record_append_only_update BEFORE UPDATE ON quality_record
BEGIN SELECT RAISE(ABORT, 'quality records are append-only'); END;
CREATE TRIGGER quality_record_append_only_delete BEFORE DELETE ON quality_record
BEGIN SELECT RAISE(ABORT, 'quality records are append-only'); END;
""",
    )


def _v11_wide_milliseconds(conn: Connection) -> None:
    """Milliseconds in 64 bits on PostgreSQL, whose INTEGER holds 32: an event's monotonic
    clock counts from the machine's boot, past 2**31 after 25 days up, and an attempt may
    stay open that long. SQLite's INTEGER holds 64 bits already."""
    if conn.dialect.name == "sqlite":
        return
    for table, column in (
        ("attempt", "wall_ms"),
        ("attempt", "active_ms"),
        ("event", "monotonic_ms"),
    ):
        _execute(conn, f"ALTER TABLE {table} ALTER COLUMN {column} TYPE BIGINT")


MIGRATIONS: list[Callable[[Connection], None]] = [
    _v1_initial_schema,
    _v2_provenance,
    _v3_agent_runs,
    _v4_drafts,
    _v5_agent_records,
    _v6_invitations,
    _v7_agent_traces,
    _v8_conversations,
    _v9_adjudication,
    _v10_quality,
    _v11_wide_milliseconds,
]
LATEST_VERSION = len(MIGRATIONS)


def current_version(conn: Connection) -> int:
    if conn.dialect.name == "sqlite":
        exists = conn.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ).first()
    else:
        # Found through the search path: an annotator's login reads views first
        # (`db_logins.py`), so its current_schema() is not the study's.
        exists = conn.exec_driver_sql(
            "SELECT 1 WHERE to_regclass('schema_version') IS NOT NULL"
        ).first()
    if not exists:
        return 0
    version = conn.exec_driver_sql("SELECT coalesce(max(version), 0) FROM schema_version").scalar()
    return int(version or 0)


def migrate(conn: Connection, path: object, now: datetime, target: int = LATEST_VERSION) -> int:
    """Bring the file to `target` inside the caller's (immediate) transaction; returns the
    version it was at. A file from a newer crm-tui is refused rather than misread."""
    before = current_version(conn)
    if before > LATEST_VERSION:
        raise CrmTuiError(
            f"{path}: study file has schema version {before}, newer than this "
            f"crm-tui understands ({LATEST_VERSION}); upgrade crm-tui"
        )
    if before == 0:
        _execute(
            conn,
            "CREATE TABLE schema_version (version INTEGER NOT NULL "
            "PRIMARY KEY, applied_at DATETIME NOT NULL)",
        )
    applied_at = now.astimezone(UTC).replace(tzinfo=None)
    for version in range(before + 1, target + 1):
        MIGRATIONS[version - 1](conn)
        conn.execute(
            text("INSERT INTO schema_version VALUES (:version, :applied_at)"),
            # SQLite keeps the text it always kept; PostgreSQL takes the timestamp itself.
            {
                "version": version,
                "applied_at": applied_at.isoformat(" ")
                if conn.dialect.name == "sqlite"
                else applied_at,
            },
        )
    return before
