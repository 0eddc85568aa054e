"""The results screen's single- vs multi-turn tab: there for a study with interactive
items (tests/helpers/turn_modes_study.py has its numbers), absent otherwise."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, TabbedContent

from crm_tui.study.service import StudyService
from tests.helpers.pilot import settle
from tests.helpers.results_study import cells, coordinator, open_results
from tests.helpers.turn_modes_study import make_turn_modes_study


@pytest.fixture(scope="module")
def turns_study(tmp_path_factory):
    path = tmp_path_factory.mktemp("turns") / "study.sqlite"
    make_turn_modes_study(path)
    return path


async def test_the_tab_shows_people_and_the_interactive_agent(make_app, turns_study):
    with StudyService.open(turns_study) as service:
        async with make_app().run_test(size=(120, 40)) as pilot:
            screen = await open_results(pilot, service, coordinator(service))
            tabs = screen.query_one(TabbedContent)
            tabs.active = "turns"
            await settle(pilot)
            modes, items = screen.query_one("#turns-body").query(DataTable)
            assert cells(modes) == [
                ["HTU", "humans", "50.0 (n=2)", "100.0 (n=2)", "2.5"],
                ["HTU", "gpt-4o ReAct", "100.0 (n=2)", "50.0 (n=2)", "4.0"],
            ]
            # per item: Ana's conversation asks for the period, Ben's ends at once; nobody
            # queried (and the agents' records keep no dialogue)
            assert cells(items) == [
                ["HTU", "0", "humans", "1", "1", "—", "1", "—"],
                ["HTU", "1", "humans", "1", "0", "—", "1", "—"],
            ]
            await pilot.press("r")  # built again: the tab is kept, not added twice
            await settle(pilot)
            assert len(screen.query("#turns")) == 1
            assert len(screen.query("#turns-body DataTable")) == 2


async def test_no_tab_without_interactive_items(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        assert screen.query_one("#results-families", DataTable).row_count == 3
        assert not screen.query("#turns")
