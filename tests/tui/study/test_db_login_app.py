"""The app on an annotator's own PostgreSQL login (`crm-tui study db-login`): it opens
that person's profile with no code, solves and submits a query though the login reads
no gold, and the coordinator's report then scores the answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlmodel import select

from crm_tui.cli.main import cli
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.logins import make_login
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pg_server import PostgresServer, find_binaries, started_server
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_crafted_study, first_two_ids, type_text


@pytest.fixture(scope="module")
def server() -> Iterator[PostgresServer]:
    bin_dir = find_binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/postgres); .ci/run installs it")
    started = started_server(bin_dir)
    yield started
    started.remove()


async def test_the_app_on_an_annotators_login_solves_and_the_coordinator_scores(
    server, small_org_path, clock
):
    owner_url = server.new_database()
    with OrgStore.open(small_org_path) as org, StudyStore.open(owner_url, clock) as store:
        create_crafted_study(store, org)
        create_profile(store, "Bo", "Customer Service Associate", 2)  # not in her list
        login = make_login(store, "Dana", job_role="Customer Service Associate", crm_years=6)
    app = create_app(Launch(org_path=small_org_path, study=login.url, study_clock=clock))
    assert isinstance(app, StudyApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)  # no code screen: the login is hers
        assert app.service is not None
        assert [p.name for p in app.service.pickable_profiles()] == ["Dana"]
        await pilot.press("enter", "s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        _wrong, gold = first_two_ids(small_org_path, solve.family.answer_object)
        await type_text(pilot, gold)
        clock.advance(5)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        said = [n.message for n in app._notifications]
        assert any("Submitted after" in m for m in said), said
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert errors == []  # nothing it did was refused by the login

    with StudyStore.open_existing(owner_url, clock) as store, store.transaction() as session:
        (attempt,) = session.exec(select(Attempt)).all()
    assert (attempt.status, attempt.answer_raw, attempt.score) == ("submitted", gold, None)

    result = CliRunner().invoke(cli, ["results", "--format", "json", "--db", owner_url])
    assert result.exit_code == 0, result.output
    with StudyStore.open_existing(owner_url, clock) as store, store.transaction() as session:
        (attempt,) = session.exec(select(Attempt)).all()
    assert attempt.score == 1.0
