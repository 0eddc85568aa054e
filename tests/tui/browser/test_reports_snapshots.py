"""SVG snapshots at 120x40 of the report builder (also with a cross filter and its
condition), a grouped result and a matrix result with its subtotals, on the small org."""

from __future__ import annotations

from datetime import date

import pytest
from textual.widgets import Input

from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import (
    CrossFilter,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
)
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import ReportBuilderLocation
from crm_tui.tui.browser.screens.report_result import ReportScreen
from tests.helpers.pilot import settle, tables_measured, wait_for
from tests.tui.browser.conftest import TEST_SETTINGS

SIZE = (120, 40)
DEFINITION = ReportDefinition(
    "Case",
    groupings=(Grouping("Priority"),),
    summaries=(Summary.parse("COUNT_DISTINCT(AccountId)"),),
    sort=SummarySort("COUNT()"),
    today=date(2024, 6, 1),
    name="Cases by priority",
)


def result_shown(app) -> bool:
    """The result's screen is up and its table measured: the builder's own preview table
    is measured too, so a wait on the tables alone could end before Ctrl+R's screen came."""
    return isinstance(app.screen, ReportScreen) and tables_measured(app, filled=True)


@pytest.fixture
def still_app(small_org_path):
    """The browser with a clock that never moves: a run's time reads 0.00 s."""
    return create_app(Launch(org_path=small_org_path, browser=TEST_SETTINGS, clock=lambda: 0.0))


def test_report_builder(still_app, snap_compare):
    async def open_builder(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(DEFINITION))
        await settle(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=SIZE, run_before=open_builder)


def test_grouped_report_result(still_app, snap_compare):
    async def run_report(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(DEFINITION))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        await wait_for(pilot, lambda: result_shown(pilot.app))
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=SIZE, run_before=run_report)


CROSS = ReportDefinition(
    "Case",
    filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
    cross_filters=(
        CrossFilter(
            "CaseHistories__r",
            (ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),),
            with_=False,
            more_than=1,
        ),
    ),
    groupings=(Grouping("OwnerId"),),
    summaries=(Summary.parse("AVG(Age)"),),
    today=date(2024, 6, 1),
    name="Closed cases never transferred",
)
MATRIX = ReportDefinition(
    "Case",
    groupings=(Grouping("Status"), Grouping("Priority")),
    summaries=(Summary.parse("AVG(Age)"),),
    sort=SummarySort("AVG(Age)"),
    matrix=True,
    today=date(2024, 6, 1),
    name="Age by status and priority",
)


def test_report_builder_with_a_cross_filter(still_app, snap_compare):
    async def open_builder(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(CROSS))
        await settle(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=SIZE, run_before=open_builder)


def test_matrix_report_result(still_app, snap_compare):
    async def run_report(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(MATRIX))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        await wait_for(pilot, lambda: result_shown(pilot.app))
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=SIZE, run_before=run_report)
