"""An annotator's own PostgreSQL login (`crm-tui study db-login`): with the URL they are
given, plain SQL cannot read a gold answer, a decision's new gold or an invitation, nor
make a coordinator; no coordinator command runs on it; they see only their own work.
A real PostgreSQL server, the real command line."""

from __future__ import annotations

import json
import re
import uuid

import psycopg
import pytest
from click.testing import CliRunner
from sqlmodel import select

from crm_tui.cli import main
from crm_tui.cli.main import cli
from crm_tui.errors import CrmTuiError
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Annotator, Attempt, Invitation
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.logins import make_login
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.study.work.quality import Stage
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.cli import fails
from tests.helpers.pg_server import PASSWORD, USER
from tests.helpers.turn_modes_study import one_conversation
from tests.study.test_quality import ORG, gold, preset_data, rows

GOLD = "005Ws000001xZvdIAE"
LOGIN_URL = re.compile(r"^url: (postgresql://\S+)$", re.MULTILINE)


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def two_item_study(url: str) -> None:
    with StudyStore.open(url) as store:
        create_study(
            store,
            "pilot",
            solve_only_preset(1),  # two people, one item each
            instances=[
                {
                    "idx": idx,
                    "task": "handle_time",
                    "query": f"Which agent ({idx})?",
                    "answer": GOLD,
                    "reward_metric": "exact_match",
                    "metadata": {"required": "", "optional": ""},
                }
                for idx in (1, 2)
            ],
            task_set_hash="sha256:x",
            org_fingerprint="local-x",
        )


def db_login(owner_url: str, name: str) -> str:
    code, out = run("study", "db-login", name, "--db", owner_url)
    assert code == 0, out
    (url,) = LOGIN_URL.findall(out)
    assert PASSWORD not in out  # the owner's password is never handed out
    return url


@pytest.fixture
def owner_url(postgres_server) -> str:
    url = postgres_server.new_database()
    two_item_study(url)
    return url


def test_an_annotator_login_cannot_read_gold_or_invitations(owner_url):
    url = db_login(owner_url, "Rae Kim")
    assert url.startswith("postgresql://crmtui_")
    with psycopg.connect(url) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT gold_json FROM public.study_item").fetchall()
        conn.rollback()
        # What the app reads instead: the query and its context, never a measured gold.
        rows = conn.execute("SELECT query, gold_json FROM study_item ORDER BY idx").fetchall()
        assert rows == [("Which agent (1)?", None), ("Which agent (2)?", None)]
        for table in ("invitation", "adjudication", "task_set_version", "agent_answer"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM {table}").fetchall()
            conn.rollback()


def test_an_annotator_login_cannot_make_a_coordinator(owner_url, capsys):
    url = db_login(owner_url, "Rae Kim")
    line = fails(capsys, "study", "invite", "Mallory", "--role", "coordinator", "--db", url)
    assert "annotator" in line and "owner" in line, line
    with psycopg.connect(url) as conn:
        (me,) = conn.execute("SELECT id FROM annotator WHERE name = 'Rae Kim'").fetchone()
        for statement in (
            "INSERT INTO invitation (annotator_id, selector, salt, verifier_hash, created_at, "
            f"expires_at) VALUES ({me}, 'ABCD', '00', '00', now(), now() + interval '1 day')",
            f"UPDATE annotator SET mode = 'coordinator' WHERE id = {me}",
            "INSERT INTO annotator (name, role, crm_years, mode, created_at) "
            "VALUES ('Mallory', 'x', 1, 'coordinator', now())",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
            conn.rollback()
    with StudyStore.open_existing(owner_url) as store, store.transaction() as session:
        assert session.exec(select(Invitation)).all() == []
        assert [a.mode for a in session.exec(select(Annotator))] == ["annotator"]


@pytest.mark.parametrize(
    "argv",
    [
        ("report",),
        ("results",),
        ("study", "invitations"),
        ("study", "status"),
        ("study", "export", "--profile", "Rae Kim", "--out", "OUT"),
        ("study", "quality"),
    ],
)
def test_coordinator_commands_refuse_an_annotator_login_in_one_line(
    owner_url, capsys, tmp_path, argv
):
    url = db_login(owner_url, "Rae Kim")
    argv = tuple(str(tmp_path / "out.json") if a == "OUT" else a for a in argv)
    with pytest.raises(SystemExit) as caught:
        main([*argv, "--db", url])
    assert caught.value.code == 1
    err = capsys.readouterr().err
    # `report` says first that its name is now `results`; then the refusal, one line.
    lines = [line for line in err.splitlines() if "the old name goes" not in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    (line,) = lines
    assert "annotator's PostgreSQL login" in line and "owner" in line, line
    assert GOLD not in line and url.split("@")[0].split(":")[-1] not in line
    assert not (tmp_path / "out.json").exists()


def test_an_annotator_sees_only_their_own_work_and_the_coordinator_scores_it(owner_url):
    rae_url = db_login(owner_url, "Rae Kim")
    db_login(owner_url, "Sam Lee")
    with StudyStore.open_existing(owner_url) as owner:
        with owner.transaction() as session:  # the owner's connection: Sam solves an item
            ids = {a.name: a.id for a in session.exec(select(Annotator))}
        sams = attempts.open_next(owner, 1, ids["Sam Lee"])
        assert sams is not None
        attempts.submit(owner, sams.attempt_id, GOLD)
    with StudyStore.open_existing(rae_url) as rae:
        assert rae.blinded and rae.login_profile_id == ids["Rae Kim"]
        view = attempts.open_next(rae, 1, ids["Rae Kim"])
        assert view is not None
        result = attempts.submit(rae, view.attempt_id, GOLD)
        assert result.score is None  # scored where gold can be read: the coordinator's side
        with rae.transaction() as session:
            seen = session.exec(select(Attempt)).all()
        assert [a.annotator_id for a in seen] == [ids["Rae Kim"]]
        assert seen[0].score is None
    with psycopg.connect(rae_url) as conn:
        # A closed attempt is never changed, nor scored by its annotator.
        for statement in (
            "UPDATE attempt SET answer_raw = 'other'",
            "UPDATE attempt SET score = 1",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
            conn.rollback()
    with StudyStore.open_existing(owner_url) as owner:
        attempts.score_pending(owner)
        with owner.transaction() as session:
            scores = {a.annotator_id: a.score for a in session.exec(select(Attempt))}
    assert scores == {ids["Sam Lee"]: 1.0, ids["Rae Kim"]: 1.0}


def test_a_sqlite_file_has_no_logins(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    with StudyStore.open(db) as store:
        create_profile(store, "Rae Kim", "Agent", 1)
    line = fails(capsys, "study", "db-login", "Rae Kim", "--db", db)
    assert "PostgreSQL" in line, line


def test_a_login_goes_through_consent_practice_checks_and_ratings(postgres_server, tmp_path):
    """A study with quality control, solved through a login as the app does: practice
    feedback from the practice items' gold; check items count once the coordinator's
    side has scored them, and then stop a person who answers them wrong."""
    (tmp_path / "consent.md").write_text("# Consent\n\nYou agree to take part.\n")
    (tmp_path / "routing.md").write_text("# Routing\n\nAnswer with a User Id.\n")
    owner_url = postgres_server.new_database()
    clock = FakeClock()
    preset = validated(Preset, preset_data(tmp_path / "consent.md"), "test preset")
    with StudyStore.open(owner_url, clock) as store:
        create_study(
            store,
            "controlled",
            preset,
            instances=rows(),
            task_set_hash="sha256:t",
            org_fingerprint=ORG,
        )
        login = make_login(store, "Ben")
    with StudyService.open(login.url, clock=clock, person_session=True) as service:
        assert service.codes_required() is False
        (ben,) = [p.id for p in service.pickable_profiles()]
        service.give_consent(ben, True)
        for _ in range(3):  # practice: feedback at once
            view = service.open_next(ben)
            assert view is not None and view.practice
            clock.advance(seconds=60)
            assert service.submit_answer(view.attempt_id, gold(view.item.idx)).correct is True
        assert service.standing(ben).stage == Stage.SOLVE
        plan = service.study.protocol.quality
        assert plan is not None
        service.rate_realism(ben, "org", 4)
        service.save_rationale_draft(ben, "Case", "Looks real")
        checks_wrong = 0
        while checks_wrong < 2 and (view := service.open_next(ben)) is not None:
            clock.advance(seconds=40)
            is_check = view.item.idx in plan.check_idx
            checks_wrong += is_check
            result = service.submit_answer(
                view.attempt_id, "wrong" if is_check else gold(view.item.idx)
            )
            assert (result.correct, result.score) == (None, None)
        service.flag_item(ben, view.item.item_id, service.study.protocol.taxonomy.categories[0].key)
        # Unscored, the wrong check answers stop nobody yet.
        assert service.standing(ben).stage == Stage.SOLVE
    with StudyService.open(owner_url, clock=clock) as coordinator:  # scores what is pending
        person = next(p for p in coordinator.quality_overview().people if p.name == "Ben")
        assert person.check_accuracy == 0.0
    with StudyService.open(login.url, clock=clock, person_session=True) as service:
        assert service.standing(ben).stage == Stage.STOPPED
    # As documented: the practice items' gold, and only theirs, is readable on a login.
    with psycopg.connect(login.url) as conn:
        readable = conn.execute(
            "SELECT idx FROM study_item WHERE gold_json IS NOT NULL ORDER BY idx"
        ).fetchall()
    assert [idx for (idx,) in readable] == sorted(plan.practice_idx)


def test_a_scripted_customer_on_a_login_is_refused_in_one_line(postgres_server):
    """The scripted customer compares replies with the gold, which a login cannot read."""
    owner_url = postgres_server.new_database()
    one_conversation(owner_url)
    with StudyStore.open_existing(owner_url) as store:
        login = make_login(store, "Dana")
    with StudyService.open(login.url, person_session=True) as service:
        (dana,) = [p.id for p in service.pickable_profiles()]
        view = service.open_next(dana)
        assert view is not None and service.is_interactive(view.attempt_id)
        with pytest.raises(CrmTuiError, match="crm-tui web") as refused:
            service.open_conversation(view.attempt_id)
    assert "\n" not in str(refused.value)


def test_revoke_stops_a_login_and_ends_its_sessions(any_owner_url):
    """Also for an owner that is no superuser (CREATEROLE), as the docs set it up."""
    url = db_login(any_owner_url, "Rae Kim")
    with psycopg.connect(url, autocommit=True) as connected:
        code, out = run("study", "revoke", "Rae Kim", "--db", any_owner_url)
        assert code == 0, out
        with pytest.raises(psycopg.OperationalError):
            connected.execute("SELECT 1")
    with pytest.raises(psycopg.OperationalError, match="not permitted to log in"):
        psycopg.connect(url)


# ----------------------------------------------------------------- the coordinator's logins
def createrole_owner(postgres_server) -> str:
    """A store owner as the docs describe it: no superuser, CREATEROLE, its own database."""
    name = f"lead_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {name} LOGIN CREATEROLE PASSWORD '{PASSWORD}'")
        conn.execute(f'CREATE DATABASE "{name}" OWNER {name}')
    url = postgres_server.url(name).replace(f"//{USER}:", f"//{name}:", 1)
    two_item_study(url)
    return url


@pytest.fixture(params=["superuser", "createrole"])
def any_owner_url(request, postgres_server) -> str:
    if request.param == "superuser":
        url = postgres_server.new_database()
        two_item_study(url)
        return url
    return createrole_owner(postgres_server)


def rolname_of(url: str) -> str:
    return url.split("//", 1)[1].split(":", 1)[0]


def logins_table(owner_url: str) -> dict[str, list[str]]:
    """`study db-logins`: its lines by login name, split on runs of spaces."""
    code, out = run("study", "db-logins", "--db", owner_url)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].split() == ["name", "login", "state", "made", "connected"], out
    return {cells[1]: cells for cells in (re.split(r"\s{2,}", line) for line in lines[1:])}


def test_db_logins_lists_each_login_its_state_and_who_is_connected(any_owner_url):
    rae = db_login(any_owner_url, "Rae Kim")
    sam = db_login(any_owner_url, "Sam Lee")
    with psycopg.connect(rae):  # Rae is connected while the coordinator looks
        code, out = run("study", "revoke", "Sam Lee", "--db", any_owner_url)
        assert code == 0, out
        table = logins_table(any_owner_url)
    assert set(table) == {rolname_of(rae), rolname_of(sam)}
    name, _, state, _, connected = table[rolname_of(rae)]
    assert (name, state) == ("Rae Kim", "active") and connected.startswith("now"), table
    name, _, state, _, connected = table[rolname_of(sam)]
    assert (name, state, connected) == ("Sam Lee", "revoked", "-"), table
    assert PASSWORD not in str(table)


def test_db_logins_on_a_store_without_logins_says_so(owner_url):
    code, out = run("study", "db-logins", "--db", owner_url)
    assert code == 0 and out.startswith("no PostgreSQL logins in postgresql://"), out
    assert PASSWORD not in out


def test_db_logins_refuses_a_login_and_a_file(owner_url, tmp_path, capsys):
    url = db_login(owner_url, "Rae Kim")
    line = fails(capsys, "study", "db-logins", "--db", url)
    assert "annotator's PostgreSQL login" in line, line
    db = tmp_path / "study.sqlite"
    with StudyStore.open(db) as store:
        create_profile(store, "Rae Kim", "Agent", 1)
    line = fails(capsys, "study", "db-logins", "--db", db)
    assert "PostgreSQL" in line, line


def test_revoke_drop_removes_the_role_and_keeps_the_work(any_owner_url):
    url = db_login(any_owner_url, "Rae Kim")
    role = rolname_of(url)
    with StudyStore.open_existing(url) as rae:  # Rae answers through the login
        view = attempts.open_next(rae, 1, rae.login_profile_id or 0)
        assert view is not None
        attempts.submit(rae, view.attempt_id, GOLD)
    connected = psycopg.connect(url)  # and is still connected when the role goes
    try:
        code, out = run("study", "revoke", "Rae Kim", "--drop", "--db", any_owner_url)
        assert code == 0, out
        assert "dropped" in out and role in out, out
    finally:
        connected.close()
    with psycopg.connect(any_owner_url) as conn:
        assert conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url)
    with StudyStore.open_existing(any_owner_url) as owner:
        attempts.score_pending(owner)
        with owner.transaction() as session:
            (attempt,) = session.exec(select(Attempt)).all()
            assert (attempt.answer_raw, attempt.score) == (GOLD, 1.0)
    assert logins_table(any_owner_url)[role][2] == "dropped"
    # The profile gets a new login; migrations grant again to live logins only.
    again = db_login(any_owner_url, "Rae Kim")
    assert rolname_of(again) != role
    psycopg.connect(again).close()


def test_revoke_drop_on_a_file_says_a_file_has_no_logins(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    with StudyStore.open(db) as store:
        create_profile(store, "Rae Kim", "Agent", 1)
    line = fails(capsys, "study", "revoke", "Rae Kim", "--drop", "--db", db)
    assert "PostgreSQL" in line, line


# ----------------------------------------------------------------- a login's own queue
def test_a_login_adds_to_its_queue_only_what_the_draw_could(owner_url):
    """With SQL, a login may add an assignment only for its own profile, of an item of the
    study, in the part of the queue the item belongs to, within the study's items per
    person and the item's people per item; the app's own draw still goes through."""
    with StudyStore.open_existing(owner_url) as store:  # a second study in the same store
        create_study(
            store,
            "other",
            solve_only_preset(1),
            instances=[
                {
                    "idx": 9,
                    "task": "handle_time",
                    "query": "Elsewhere?",
                    "answer": GOLD,
                    "reward_metric": "exact_match",
                    "metadata": {"required": "", "optional": ""},
                }
            ],
            task_set_hash="sha256:y",
            org_fingerprint="local-x",
        )
    rae_url = db_login(owner_url, "Rae Kim")
    sam_url = db_login(owner_url, "Sam Lee")
    with psycopg.connect(owner_url) as conn:
        ids = dict(conn.execute("SELECT name, id FROM annotator").fetchall())
        pilot, other = (
            conn.execute("SELECT id FROM study WHERE name = %s", (name,)).fetchone()[0]
            for name in ("pilot", "other")
        )
        items = dict(conn.execute("SELECT idx, id FROM study_item").fetchall())
    add = "INSERT INTO assignment (study_id, annotator_id, item_id, position) VALUES ({})"

    def refused(url: str, *values: int) -> None:
        with psycopg.connect(url) as conn:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(add.format(", ".join(map(str, values))))

    rae, sam = ids["Rae Kim"], ids["Sam Lee"]
    refused(rae_url, pilot, sam, items[1], 0)  # someone else's queue
    refused(rae_url, pilot, rae, items[9], 0)  # an item of another study
    refused(rae_url, pilot, rae, items[1], -1_000_000)  # a practice place, no practice item
    with psycopg.connect(rae_url) as conn:  # what a draw could give: one item of the study
        conn.execute(add.format(f"{pilot}, {rae}, {items[1]}, 0"))
    refused(rae_url, pilot, rae, items[2], 1)  # more than the study's items per person
    refused(sam_url, pilot, sam, items[1], 0)  # item 1 has its one person already
    with StudyStore.open_existing(sam_url) as store:  # the app's draw on a login
        view = attempts.open_next(store, pilot, sam)
        assert view is not None and view.item.idx == 2
    with StudyStore.open_existing(rae_url) as store:
        view = attempts.open_next(store, pilot, rae)
        assert view is not None and view.item.idx == 1
    with psycopg.connect(owner_url) as conn:
        assert conn.execute("SELECT count(*) FROM assignment").fetchone() == (2,)


def test_logins_made_before_the_queue_guard_get_it_when_the_owner_opens_the_store(owner_url):
    rae_url = db_login(owner_url, "Rae Kim")
    with psycopg.connect(owner_url) as conn:  # the store as an earlier crm-tui left it
        conn.execute("DROP FUNCTION crm_tui_roles.guard_assignment() CASCADE")
        conn.execute(
            "CREATE OR REPLACE FUNCTION crm_tui_roles.login_profile() RETURNS integer "
            "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS "
            "$$ SELECT annotator_id FROM crm_tui_roles.login WHERE rolname = session_user $$"
        )
        conn.execute("ALTER TABLE crm_tui_roles.login DROP COLUMN dropped_at")
    StudyStore.open_existing(owner_url).close()
    with psycopg.connect(rae_url) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(  # a practice place for an item outside any practice pool
                "INSERT INTO assignment (study_id, annotator_id, item_id, position) "
                "SELECT s.id, a.id, i.id, -1000000 FROM study s, annotator a, study_item i "
                "LIMIT 1"
            )


# ----------------------------------------------------------------- a customer played by a person
def person_customer_study(postgres_server, clock: FakeClock | None = None) -> str:
    owner_url = postgres_server.new_database()
    one_conversation(owner_url, clock, customer="person")
    code, out = run("study", "invite", "Cleo", "--role", "customer", "--db", owner_url)
    assert code == 0, out
    return owner_url


def test_a_customer_gets_no_login_and_is_told_to_play_in_crm_tui_web(postgres_server, capsys):
    owner_url = person_customer_study(postgres_server)
    line = fails(capsys, "study", "db-login", "Cleo", "--db", owner_url)
    assert "customer" in line and "crm-tui web" in line, line


def test_the_customer_role_on_a_login_says_so_in_one_line(postgres_server):
    """A login whose profile plays the customer (made a customer on the owner's side)
    cannot see the solver's conversation: opening the role says where to play it."""
    owner_url = person_customer_study(postgres_server)
    with StudyStore.open_existing(owner_url) as store:
        login = make_login(store, "Rae Kim")
    with psycopg.connect(owner_url) as conn:
        conn.execute("UPDATE annotator SET mode = 'customer' WHERE name = 'Rae Kim'")
    with StudyService.open(login.url, person_session=True) as service:
        (rae,) = [p.id for p in service.pickable_profiles()]
        for call in (
            lambda: service.customer_conversations(rae),
            lambda: service.customer_says(rae, 1, "Hello"),
        ):
            with pytest.raises(CrmTuiError, match="crm-tui web") as refused:
                call()
            assert "\n" not in str(refused.value)


def test_a_solver_on_a_login_talks_with_a_customer_played_in_the_served_study(postgres_server):
    """The other way round works: the solver on a login, the customer on the owner's side
    (as `crm-tui web` serves it); the answer is scored there."""
    clock = FakeClock()  # the one the attempt was opened with
    owner_url = person_customer_study(postgres_server, clock)
    with StudyStore.open_existing(owner_url) as store:
        login = make_login(store, "Dana")  # the study's solver
    with psycopg.connect(owner_url) as conn:
        (answer,) = conn.execute("SELECT gold_json FROM study_item").fetchone()
        (cleo,) = conn.execute("SELECT id FROM annotator WHERE name = 'Cleo'").fetchone()
    answer = json.loads(answer)
    answer = answer[0] if isinstance(answer, list) else answer
    with (
        StudyService.open(login.url, clock=clock, person_session=True) as solver,
        StudyService.open(owner_url, clock=clock) as served,
    ):
        (dana,) = [p.id for p in solver.pickable_profiles()]
        view = solver.open_next(dana)
        assert view is not None and solver.open_conversation(view.attempt_id).turns == ()
        (waiting,) = served.customer_conversations(cleo)
        assert waiting.attempt_id == view.attempt_id and waiting.query == view.item.query
        served.customer_says(cleo, view.attempt_id, "How long do my cases take?")
        said = solver.conversation(view.attempt_id).turns
        assert [t.text for t in said] == ["How long do my cases take?"]
        clock.advance(seconds=60)
        solver.reply_to_customer(view.attempt_id, str(answer))
        served.customer_says(cleo, view.attempt_id, "Thanks", stop=True)
    with StudyStore.open_existing(owner_url) as owner, owner.transaction() as session:
        (attempt,) = session.exec(select(Attempt)).all()
        assert (attempt.status, attempt.score) == ("submitted", 1.0)
