"""The study store's PostgreSQL server goes away while someone is solving: the typed answer
stays on screen, the person is told it was not saved, and once the server is back the same
screen submits it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlmodel import select
from textual.widgets import Input

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pg_server import PASSWORD, PostgresServer, find_binaries, started_server
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import (
    create_crafted_study,
    first_two_ids,
    type_text,
)


@pytest.fixture(scope="module")
def own_server() -> Iterator[PostgresServer]:
    """A server of this module's own: the test stops it, which no other test should see."""
    bin_dir = find_binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/postgres); .ci/run installs it")
    server = started_server(bin_dir)
    yield server
    server.remove()


@pytest.fixture
def study_url(own_server, small_org_path, clock) -> str:
    """The paper preset on crafted instances of the small org, on the server; Dana."""
    url = own_server.new_database()
    with OrgStore.open(small_org_path) as org, StudyStore.open(url, clock) as store:
        create_crafted_study(store, org)
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return url


async def test_the_answer_survives_the_server_going_away(
    own_server, study_url, small_org_path, clock
):
    app = create_app(Launch(org_path=small_org_path, study=study_url, study_clock=clock))
    assert isinstance(app, StudyApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")  # Dana, then the first query
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        _wrong, gold = first_two_ids(small_org_path, solve.family.answer_object)
        await type_text(pilot, gold[:10])
        await settle(pilot)

        own_server.stop()
        try:
            await type_text(pilot, gold[10:])
            await settle(pilot)
            await pilot.press("ctrl+s")
            await settle(pilot)
            await pilot.press("4")  # confidence: submits, and fails
            await settle(pilot)
            assert app.screen is solve  # still solving, the answer still there
            assert solve.query_one("#answer-text", Input).value == gold
            said = [n.message for n in app._notifications]
            assert any("your answer was not saved" in m for m in said), said
            assert all(PASSWORD not in m for m in said)
            assert any("is unreachable" in m and "postgresql://crm:***@" in m for m in said)
        finally:
            own_server.start()

        clock.advance(5)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)

    with StudyStore.open(study_url, clock) as store, store.transaction() as session:
        (attempt,) = session.exec(select(Attempt)).all()
    assert (attempt.status, attempt.answer_raw, attempt.confidence) == ("submitted", gold, 4)
