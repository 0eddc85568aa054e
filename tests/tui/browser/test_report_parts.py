"""The builder's cross filter and the matrix result, driven with keys on the small
org: "without related Case Histories, more than 1, where Change = Owner Assignment" is
built from the form, not pasted; a matrix shows each row's and column's subtotal and the
grand total, as the backend computes them over all the records of the row or column."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import (
    CrossFilter,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
)
from crm_tui.tui.browser.history import ReportBuilderLocation
from crm_tui.tui.browser.screens.report_builder import PARTS, ReportBuilderScreen
from crm_tui.tui.browser.screens.report_result import ReportScreen, show_value
from tests.helpers.pilot import settle
from tests.tui.browser.test_reports import type_text

SIZE = (120, 40)


async def choose(pilot, options: list[str], wanted: str) -> None:
    """On a focused Select: open it, go from the chosen option to `wanted`, take it."""
    steps = options.index(wanted) - options.index(pilot.app.focused.value)
    await pilot.press("enter", *["down" if steps > 0 else "up"] * abs(steps), "enter")
    await settle(pilot)


async def add_part(pilot, kind: str, field: str, how: str | None, value: str) -> None:
    """From the field box: the part kind (Shift+Tab back to it), the field, how, the value,
    Enter adds it."""
    await pilot.press("shift+tab")
    await choose(pilot, list(PARTS), kind)
    await pilot.press("tab")
    await type_text(pilot, field)
    await pilot.press("tab")
    if how is not None:
        await choose(pilot, [value for _label, value in PARTS[kind][1]], how)
    await pilot.press("tab")
    await type_text(pilot, value)
    await pilot.press("enter")
    await settle(pilot)


async def test_a_cross_filter_and_its_condition_are_built_from_the_form(app, backend):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReportBuilderScreen)
        await add_part(pilot, "cross", "CaseHistories__r", "without", "1")
        await add_part(pilot, "cross_where", "Field__c", None, "Owner Assignment")
        await add_part(pilot, "grouping", "OwnerId", None, "")
        expected = ReportDefinition(
            "Case",
            cross_filters=(
                CrossFilter(
                    "CaseHistories__r",
                    (ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),),
                    with_=False,
                    more_than=1,
                ),
            ),
            groupings=(Grouping("OwnerId"),),
        )
        assert screen.definition == expected
        parts = screen.query_one("#report-parts", DataTable)
        assert str(parts.get_row("cross_filters:0")[1]) == (
            "without CaseHistories__r more than 1 where Field__c = Owner Assignment"
        )
        assert str(screen.query_one("#report-check", Static).render()).startswith("Ready")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        grid = app.screen.query_one("#report-grid", DataTable)
        total = str(grid.get_row_at(grid.row_count - 1)[1])
        record_count = backend.run_report(expected).record_count
        assert 0 < record_count < backend.count("Case")  # the cross filter filters
        assert total == f"{record_count:,}"


async def test_a_condition_needs_a_cross_filter_first(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await add_part(pilot, "cross_where", "Field__c", None, "Owner Assignment")
        check = str(app.screen.query_one("#report-check", Static).render())
        assert (
            check == "Cross filter: where: add a cross filter first (with / without related rows)"
        )
        assert app.screen.definition.cross_filters == ()


MATRIX = ReportDefinition(
    "Case",
    groupings=(Grouping("Status"), Grouping("Priority")),
    summaries=(Summary.parse("AVG(Age)"),),
    sort=SummarySort("AVG(Age)"),
    matrix=True,
)


async def test_a_matrix_shows_row_and_column_subtotals_and_the_grand_total(app, backend):
    by_status = backend.run_report(MATRIX.with_(groupings=MATRIX.groupings[:1], matrix=False))
    by_priority = backend.run_report(MATRIX.with_(groupings=MATRIX.groupings[1:], matrix=False))
    whole = backend.run_report(MATRIX)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ReportBuilderLocation(MATRIX))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        grid = app.screen.query_one("#report-grid", DataTable)
        rows = [[str(c) for c in grid.get_row_at(i)] for i in range(grid.row_count)]
        columns = [str(c.label) for c in grid.columns.values()]
        assert columns[-1] == "Total"
        # Each row ends with the row's own average (not an average of its cells).
        subtotals = {r[0]: r[-1] for r in rows[:-1]}
        assert subtotals == {
            g.keys[0].label: show_value(by_status.value(g, "AVG(Age)")) for g in by_status.groups
        }
        # The last row: each column's average, then the report's.
        assert rows[-1][0] == "Total (AVG(Age) (hours))"
        assert dict(zip(columns[1:-1], rows[-1][1:-1], strict=True)) == {
            g.keys[0].label: show_value(by_priority.value(g, "AVG(Age)"))
            for g in by_priority.groups
        }
        assert rows[-1][-1] == show_value(whole.value_total("AVG(Age)"))
        # Enter on a subtotal opens the row's records (the list view filtered to it).
        await pilot.press("end", "enter")
        await settle(pilot)
        assert app.screen.place.filters[-1].field == "Status"
