"""An annotator's own PostgreSQL login (`crm-tui study db-login`): with the URL they are
given, plain SQL cannot read a gold answer, a decision's new gold or an invitation, nor
make a coordinator; no coordinator command runs on it; they see only their own work.
A real PostgreSQL server, the real command line."""

from __future__ import annotations

import re

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
from tests.helpers.pg_server import PASSWORD
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


def test_revoke_stops_a_login(owner_url):
    url = db_login(owner_url, "Rae Kim")
    psycopg.connect(url).close()
    code, out = run("study", "revoke", "Rae Kim", "--db", owner_url)
    assert code == 0, out
    with pytest.raises(psycopg.OperationalError, match="not permitted to log in"):
        psycopg.connect(url)
