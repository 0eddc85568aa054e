"""The report builder in a newcomer's words: parts show field labels beside the API
names, a label may be typed for a field, Tab takes the grey suggestion, Esc leaves the
field box, and a duration's summary says its unit."""

from __future__ import annotations

from textual.widgets import DataTable, Input

from crm_tui.org.reports import Grouping, ReportDefinition, Summary
from crm_tui.tui.browser.history import ReportBuilderLocation
from crm_tui.tui.browser.screens.report_result import ReportScreen
from tests.helpers.pilot import settle, wait_for
from tests.tui.browser.test_report_builder_usability import open_builder
from tests.tui.browser.test_reports import type_text

SIZE = (120, 40)


async def test_parts_show_labels_and_a_label_may_be_typed(app):
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_builder(pilot)
        await wait_for(pilot, lambda: bool(screen.field_paths))
        await type_text(pilot, "Date/Time Opened")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.definition.groupings == (Grouping("CreatedDate"),)
        parts = screen.query_one("#report-parts", DataTable)
        assert str(parts.get_row("groupings:0")[1]) == "Date/Time Opened (CreatedDate)"


async def test_tab_takes_the_suggestion_and_esc_leaves_the_field(app):
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_builder(pilot)
        await wait_for(pilot, lambda: bool(screen.field_paths))
        field = screen.query_one("#report-field", Input)
        await type_text(pilot, "Prio")
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        assert field.value == "Priority" and app.focused is field
        await pilot.press("tab")  # with nothing more to take, Tab moves on
        assert app.focused is not field
        field.focus()
        field.value = ""
        await type_text(pilot, "Stat")
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is not field
        await pilot.press("o")  # the app's key now, not a letter typed into the box
        await settle(pilot)
        assert field.value == "Stat"
        assert screen.definition.groupings == ()
        await pilot.press("alt+left")  # back: the text typed and not added is still there
        await settle(pilot)
        again = app.screen
        assert again.query_one("#report-field", Input).value == "Stat"


async def test_a_duration_summary_says_its_unit(app):
    definition = ReportDefinition(
        "Case", groupings=(Grouping("Status"),), summaries=(Summary.parse("AVG(Age)"),)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        report = app.screen
        assert isinstance(report, ReportScreen)
        await wait_for(pilot, lambda: report.result is not None)
        grid = report.query_one("#report-grid", DataTable)
        titles = [str(c.label) for c in grid.columns.values()]
        assert "AVG(Age) (hours)" in titles
