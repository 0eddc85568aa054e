"""The study store on a PostgreSQL server: passwords never shown, one line when the server
cannot be reached or refuses us, a server that goes away mid-session and comes back, and
(on both stores) writers serialised where they read, then write."""

from __future__ import annotations

import threading

import pytest
from sqlmodel import col, select

from crm_tui.cli import main
from crm_tui.errors import CrmTuiError
from crm_tui.paths import redact_url
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Assignment, Attempt, Event
from crm_tui.study.work.attempts import open_next, record_event, save_draft, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.cli import fails
from tests.helpers.pg_server import PASSWORD, PostgresServer
from tests.helpers.routing_items import instances

WRONG = "not-the-pw-9c1e"


def make_study(store: StudyStore) -> tuple[int, int]:
    study = create_study(
        store,
        "pilot",
        solve_only_preset(2),
        instances=instances(org=None),
        task_set_hash="sha256:test",
        org_fingerprint="local-0000",
    )
    person = create_profile(store, "Ana", "Customer Service Agent", 3)
    assert study.id is not None and person.id is not None
    return study.id, person.id


def test_redacted_urls():
    assert redact_url("postgresql://ann:s%40cret@db.lab:5433/study") == (
        "postgresql://ann:***@db.lab:5433/study"
    )
    assert redact_url("postgresql+psycopg://ann@db/s?password=x&sslmode=require") == (
        "postgresql+psycopg://ann@db/s?password=***&sslmode=require"
    )
    assert redact_url("postgresql://db/s") == "postgresql://db/s"


def test_the_store_never_shows_its_password(postgres_server: PostgresServer):
    url = postgres_server.migrated_database()
    with StudyStore.open(url, FakeClock()) as store:
        shown = [str(store.path), repr(store), repr(store.engine), str(store.engine.url)]
        assert all(PASSWORD not in text for text in shown), shown
        assert store.path == url.replace(PASSWORD, "***")
        with pytest.raises(CrmTuiError) as missing:
            from crm_tui.study.work.studies import find_study

            find_study(store, "nope")
        assert "postgresql://crm:***@127.0.0.1" in str(missing.value)


@pytest.mark.parametrize(
    "where, said",
    [
        ("wrong password", "password authentication failed"),
        ("no such database", "does not exist"),
        ("nobody listening", "Connection refused"),
    ],
)
def test_a_server_that_refuses_is_one_line_without_the_password(
    postgres_server: PostgresServer, where: str, said: str, capsys
):
    url = {
        "wrong password": postgres_server.url("postgres", password=WRONG),
        "no such database": postgres_server.url("no_such_db"),
        "nobody listening": postgres_server.url().replace(f":{postgres_server.port}/", ":1/"),
    }[where]
    with pytest.raises(CrmTuiError) as refused:
        StudyStore.open(url)
    message = str(refused.value)
    assert message.startswith("cannot reach the study store at postgresql://crm:***@")
    assert said in message and "\n" not in message
    assert WRONG not in message and PASSWORD not in message
    for command in (["study", "status"], []):  # [] = plain crm-tui, before the app starts
        line = fails(capsys, *command, "--db", url)  # one line on stderr, no traceback
        assert said in line and WRONG not in line and PASSWORD not in line


def test_a_database_of_another_program_is_refused(postgres_server: PostgresServer):
    import psycopg

    url = postgres_server.new_database()
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE invoices (id integer)")
    with pytest.raises(CrmTuiError, match=r"not a crm-tui study store .*'invoices'"):
        StudyStore.open(url)
    empty = postgres_server.new_database()
    with pytest.raises(CrmTuiError, match="No study store at postgresql://crm:\\*\\*\\*@"):
        StudyStore.open_existing(empty)


def test_the_environment_selects_the_server(postgres_server: PostgresServer, monkeypatch, capsys):
    url = postgres_server.migrated_database()
    with StudyStore.open(url, FakeClock()) as store:
        make_study(store)
    monkeypatch.setenv("CRM_TUI_STUDY_URL", url)
    main(["study", "status"])
    assert capsys.readouterr().out.startswith("pilot (custom)")
    main(["locate"])
    located = capsys.readouterr().out
    assert url.replace(PASSWORD, "***") in located and PASSWORD not in located


def test_a_server_that_goes_away_mid_session_fails_plainly_then_reconnects(
    postgres_server: PostgresServer,
):
    url = postgres_server.migrated_database()
    clock = FakeClock()
    with StudyStore.open(url, clock) as store:
        study_id, ana = make_study(store)
        view = open_next(store, study_id, ana)
        assert view is not None
        save_draft(store, view.attempt_id, "005Wt0000000001")
        postgres_server.stop()
        try:
            for call in (
                lambda: save_draft(store, view.attempt_id, "005Wt0000000001AAA"),
                lambda: record_event(store, view.attempt_id, "paused"),
                lambda: submit(store, view.attempt_id, "005Wt0000000001AAA"),
            ):
                with pytest.raises(CrmTuiError) as lost:
                    call()
                message = str(lost.value)
                assert message.startswith("the study store at postgresql://crm:***@")
                assert "is unreachable" in message and "your answer was not saved" in message
                assert PASSWORD not in message and "\n" not in message
        finally:
            postgres_server.start()
        clock.advance(30)
        result = submit(store, view.attempt_id, "005Wt0000000001AAA")  # the same engine
        assert result.active_ms == 30_000
        with store.transaction() as session:
            attempt = session.get(Attempt, view.attempt_id)
            kinds = session.exec(select(Event.kind).order_by(col(Event.id))).all()
        assert attempt is not None and attempt.answer_raw == "005Wt0000000001AAA"
        assert kinds == ["opened", "answer_submitted"]  # nothing half-written while down


def test_people_enrolling_at_once_never_share_a_capped_item(study_store_url):
    """Drawing a queue reads everyone's assignments, then writes: on both stores the
    draws are serialised, so with one annotator per item no item is given twice."""
    people = 8
    with StudyStore.open(study_store_url, FakeClock()) as store:
        study = create_study(
            store,
            "capped",
            solve_only_preset(2),
            instances=[{**instances(org=None)[0], "idx": idx} for idx in range(2 * people)],
            task_set_hash="sha256:test",
            org_fingerprint="local-0000",
        )
        ids = [create_profile(store, f"p{n}", "Agent", 1).id for n in range(people)]
    start = threading.Barrier(people)
    failures: list[BaseException] = []

    def enrol(annotator_id: int) -> None:
        try:
            with StudyStore.open(study_store_url, FakeClock()) as own:  # own connection
                start.wait()
                open_next(own, study.id, annotator_id)
        except BaseException as error:  # reported below, not lost in the thread
            failures.append(error)

    threads = [threading.Thread(target=enrol, args=(who,)) for who in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    with StudyStore.open(study_store_url) as store, store.transaction() as session:
        given = session.exec(select(Assignment.item_id)).all()
    assert len(given) == 2 * people and len(set(given)) == 2 * people
