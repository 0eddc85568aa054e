"""SVG snapshots at 120x40 of the results screen (the study of conftest.py, as its
coordinator sees it) and the SOQL console (the seeded small org)."""

from __future__ import annotations

from textual.widgets import TabbedContent

from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.study.results import ResultsScreen
from crm_tui.tui.widgets.history_input import HistoryInput
from tests.helpers.pilot import settle

SIZE = (120, 40)


async def show(pilot, screen) -> None:
    await settle(pilot)
    pilot.app.push_screen(screen)
    await settle(pilot)


def test_results_side_by_side(make_app, results, snap_compare):
    async def side_by_side(pilot):
        await show(pilot, ResultsScreen(*results))

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=side_by_side)


def test_results_realism(make_app, results, snap_compare):
    async def realism(pilot):
        await show(pilot, ResultsScreen(*results))
        pilot.app.screen.query_one(TabbedContent).active = "realism"
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=realism)


def test_soql_console(make_app, snap_compare):
    async def query(pilot):
        await show(pilot, SoqlConsole())
        box = pilot.app.screen.query_one(HistoryInput)
        box.cursor_blink = False
        box.value = (
            "SELECT CaseNumber, Status, Priority, Account.Name, Owner.Name "
            "FROM Case ORDER BY CaseNumber LIMIT 12"
        )
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=query)


def test_soql_console_error(make_app, snap_compare):
    async def malformed(pilot):
        await show(pilot, SoqlConsole())
        box = pilot.app.screen.query_one(HistoryInput)
        box.cursor_blink = False
        box.value = "SELECT Id FROM Case WHERE Status = "
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=malformed)
