"""Annotators' own PostgreSQL logins: blinding that holds outside the app.

Whoever holds the store owner's URL can read everything in it, gold answers included,
whatever the app shows. So on PostgreSQL the coordinator gives each annotator a login of
their own (`crm-tui study db-login NAME`), a PostgreSQL role that:

- reads study items through a view (schema `crm_tui_blind`, first on the login's search
  path) whose gold is empty except on the qualification's practice items, and cannot
  read `gold_json` from the table itself;
- cannot read invitations, decisions on gold, task-set versions or agent runs at all,
  nor write a profile or an invitation;
- reads and writes only its own attempts, events, ratings, flags, drafts, turns and
  quality records (row-level security), and never changes an attempt once it is closed
  nor scores one: its scores are left empty (practice items excepted, whose gold the
  gate's feedback needs) and filled in by the coordinator's side (`score_pending`).

The roles are the server's; what ties one to a profile lives in schema `crm_tui_roles`,
which logins cannot read: `login_profile()` tells a connection who it is. The store's
owner (who ran the migrations) passes every policy. Everything here is PostgreSQL only:
a SQLite file handed to someone is entirely theirs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, text

BLIND = "crm_tui_blind"  # the views a login reads instead of the tables
ROLES = "crm_tui_roles"  # who is who: never readable by a login

# What a login may do per table (a column list: those columns only). A migration that
# adds a table or column an annotator's calls use adds it here too. Tables left out
# (invitation, invitation_failure, adjudication, task_set_version, agent_run,
# agent_answer) a login cannot read or write at all.
_ITEM_COLUMNS = 'id, study_id, idx, task, "query", metadata_json, reward_metric, extra_json'
_ATTEMPT_WRITES = (
    "status, submitted_at, wall_ms, active_ms, answer_raw, answer_normalised, score, "
    "confidence, note, draft_answer, app_version"
)
_GRANTS = {
    "schema_version": ["SELECT"],
    "study": ["SELECT"],
    "annotator": ["SELECT"],
    "study_item": [f"SELECT ({_ITEM_COLUMNS})"],
    "assignment": ["SELECT", "INSERT"],
    "attempt": ["SELECT", "INSERT", f"UPDATE ({_ATTEMPT_WRITES})"],
    "event": ["SELECT", "INSERT"],
    "realism_rating": ["SELECT", "INSERT", "UPDATE", "DELETE"],
    "audit_flag": ["SELECT", "INSERT"],
    "text_draft": ["SELECT", "INSERT", "UPDATE", "DELETE"],
    "conversation_turn": ["SELECT", "INSERT"],
    "quality_record": ["SELECT", "INSERT"],
}
# Row-level security: a login's rows are its own profile's.
_OWN_ROWS = (
    "attempt",
    "event",
    "realism_rating",
    "audit_flag",
    "text_draft",
    "quality_record",
)


@dataclass(frozen=True)
class Standing:
    """What a connection to a server store may do: read gold (the owner, or anyone the
    owner granted it), and which profile its login is (None: no annotator's login)."""

    reads_gold: bool
    login_profile_id: int | None


def standing(conn: Connection) -> Standing:
    """The connection's standing in the store (a migrated one, on PostgreSQL)."""
    schema = _study_schema(conn)
    reads_gold = bool(
        conn.execute(
            text("SELECT has_column_privilege(:table, 'gold_json', 'SELECT')"),
            {"table": f'"{schema}".study_item'},
        ).scalar()
    )
    profile = None
    if conn.exec_driver_sql(f"SELECT to_regprocedure('{ROLES}.login_profile()')").scalar():
        profile = conn.exec_driver_sql(f"SELECT {ROLES}.login_profile()").scalar()
    return Standing(reads_gold, None if profile is None else int(profile))


def study_schema(conn: Connection) -> str | None:
    """The schema holding the study's tables (the one `schema_version` is found in), or
    None where there is no store yet."""
    found = conn.exec_driver_sql(
        "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.oid = to_regclass('schema_version')"
    ).scalar()
    return None if found is None else str(found)


def _study_schema(conn: Connection) -> str:
    found = study_schema(conn)
    if found is None:
        raise RuntimeError("no study store on this connection")
    return found


def is_set_up(conn: Connection) -> bool:
    return bool(conn.exec_driver_sql(f"SELECT to_regclass('{ROLES}.login') IS NOT NULL").scalar())


def set_up(conn: Connection) -> None:
    """Make (or make again, after a migration) the views, functions, guards and policies,
    and grant every login what `_GRANTS` says. Run by the owner, in its transaction."""
    s = _quoted(_study_schema(conn))
    for statement in (
        f"CREATE SCHEMA IF NOT EXISTS {ROLES}",
        f"CREATE SCHEMA IF NOT EXISTS {BLIND}",
        f"CREATE TABLE IF NOT EXISTS {ROLES}.login ("
        "rolname VARCHAR NOT NULL PRIMARY KEY, "
        f"annotator_id INTEGER NOT NULL REFERENCES {s}.annotator (id), "
        "created_at TIMESTAMP NOT NULL DEFAULT (now() AT TIME ZONE 'UTC'))",
        # session_user: inside a SECURITY DEFINER function current_user is the owner.
        f"CREATE OR REPLACE FUNCTION {ROLES}.login_profile() RETURNS integer "
        "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS "
        f"$$ SELECT annotator_id FROM {ROLES}.login WHERE rolname = session_user $$",
        # The qualification's practice items: their gold is the gate's feedback.
        f"CREATE OR REPLACE FUNCTION {ROLES}.is_practice(item integer) RETURNS boolean "
        "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$ "
        "SELECT coalesce(bool_or("
        "jsonb_typeof(st.protocol_json::jsonb #> '{quality,qualification}') = 'object' "
        "AND (st.protocol_json::jsonb #> '{quality,practice_idx}') @> to_jsonb(i.idx)"
        f"), false) FROM {s}.study_item i JOIN {s}.study st ON st.id = i.study_id "
        "WHERE i.id = item $$",
        f"DROP VIEW IF EXISTS {BLIND}.study_item",
        f"CREATE VIEW {BLIND}.study_item AS SELECT "
        'i.id, i.study_id, i.idx, i.task, i."query", i.metadata_json, i.reward_metric, '
        f"CASE WHEN {ROLES}.is_practice(i.id) THEN i.gold_json END AS gold_json, "
        f"i.extra_json FROM {s}.study_item i",
        # A login changes an attempt only while it is open, only on its own assignment,
        # and never gives it a score, except on a practice item.
        f"CREATE OR REPLACE FUNCTION {ROLES}.guard_attempt() RETURNS trigger "
        "LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$ BEGIN "
        f"IF {ROLES}.login_profile() IS NULL THEN RETURN NEW; END IF; "
        "IF TG_OP = 'UPDATE' AND OLD.status <> 'in_progress' THEN "
        "RAISE EXCEPTION 'a closed attempt is never changed' "
        "USING ERRCODE = 'insufficient_privilege'; END IF; "
        "IF TG_OP = 'INSERT' AND (NEW.status <> 'in_progress' OR NOT EXISTS ("
        f"SELECT 1 FROM {s}.assignment a WHERE a.id = NEW.assignment_id "
        "AND a.annotator_id = NEW.annotator_id AND a.item_id = NEW.item_id)) THEN "
        "RAISE EXCEPTION 'an attempt opens only on its own assignment' "
        "USING ERRCODE = 'insufficient_privilege'; END IF; "
        "IF TG_OP = 'UPDATE' AND (NEW.score IS DISTINCT FROM OLD.score OR "
        "NEW.answer_raw IS DISTINCT FROM OLD.answer_raw) AND NEW.status = 'in_progress' THEN "
        "RAISE EXCEPTION 'an answer and its score come with the submit' "
        "USING ERRCODE = 'insufficient_privilege'; END IF; "
        f"IF NOT {ROLES}.is_practice(NEW.item_id) THEN NEW.score := NULL; END IF; "
        "RETURN NEW; END $$",
        f"DROP TRIGGER IF EXISTS crm_tui_guard_attempt ON {s}.attempt",
        f"CREATE TRIGGER crm_tui_guard_attempt BEFORE INSERT OR UPDATE ON {s}.attempt "
        f"FOR EACH ROW EXECUTE FUNCTION {ROLES}.guard_attempt()",
    ):
        conn.exec_driver_sql(statement)
    for table in _OWN_ROWS:
        _policy(conn, f"{s}.{table}", f"annotator_id = {ROLES}.login_profile()")
    _policy(
        conn,
        f"{s}.conversation_turn",
        f"attempt_id IN (SELECT id FROM {s}.attempt WHERE annotator_id = {ROLES}.login_profile())",
    )
    # Profiles: one's own; assignments: all read (the draw counts them), one's own added.
    _policy(conn, f"{s}.annotator", f"id = {ROLES}.login_profile()")
    _policy(conn, f"{s}.assignment", "true", f"annotator_id = {ROLES}.login_profile()")
    for (rolname,) in conn.exec_driver_sql(f"SELECT rolname FROM {ROLES}.login").all():
        _grant(conn, s, _quoted(rolname))


def _policy(conn: Connection, table: str, using: str, check: str | None = None) -> None:
    conn.exec_driver_sql(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    conn.exec_driver_sql(f"DROP POLICY IF EXISTS crm_tui_own ON {table}")
    conn.exec_driver_sql(
        f"CREATE POLICY crm_tui_own ON {table} USING ({using}) WITH CHECK ({check or using})"
    )


def _grant(conn: Connection, schema: str, role: str) -> None:
    conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA {schema}, {BLIND}, {ROLES} TO {role}")
    conn.exec_driver_sql(f"GRANT SELECT ON {BLIND}.study_item TO {role}")
    for table, privileges in _GRANTS.items():
        for privilege in privileges:
            conn.exec_driver_sql(f"GRANT {privilege} ON {schema}.{table} TO {role}")


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class NewLogin:
    rolname: str
    password: str


def create_login(conn: Connection, annotator_id: int) -> NewLogin:
    """A new login role for the profile, granted what an annotator may do; its password
    exists only in what this returns. Needs CREATEROLE (or a superuser)."""
    set_up(conn)
    rolname = f"crmtui_{secrets.token_hex(6)}"
    password = secrets.token_urlsafe(24)  # letters, digits, - and _: safe inside quotes
    database = conn.exec_driver_sql("SELECT current_database()").scalar()
    schema = _study_schema(conn)
    conn.exec_driver_sql(f"CREATE ROLE {rolname} LOGIN PASSWORD '{password}'")
    conn.exec_driver_sql(
        f"ALTER ROLE {rolname} IN DATABASE {_quoted(str(database))} "
        f"SET search_path = {BLIND}, {_quoted(schema)}"
    )
    conn.execute(
        text(f"INSERT INTO {ROLES}.login (rolname, annotator_id) VALUES (:name, :id)"),
        {"name": rolname, "id": annotator_id},
    )
    _grant(conn, _quoted(schema), rolname)
    return NewLogin(rolname, password)


def logins_of(conn: Connection, annotator_id: int) -> list[str]:
    if not is_set_up(conn):
        return []
    return list(
        conn.execute(
            text(f"SELECT rolname FROM {ROLES}.login WHERE annotator_id = :id ORDER BY rolname"),
            {"id": annotator_id},
        ).scalars()
    )


def disable_logins(conn: Connection, annotator_id: int) -> int:
    """Stop the profile's logins connecting (their sessions now are ended); how many."""
    names = logins_of(conn, annotator_id)
    for rolname in names:
        conn.exec_driver_sql(f"ALTER ROLE {_quoted(rolname)} NOLOGIN")
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE usename = :name AND pid <> pg_backend_pid()"
            ),
            {"name": rolname},
        )
    return len(names)
