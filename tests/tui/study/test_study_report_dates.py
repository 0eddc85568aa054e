"""Relative date ranges in a study count from the query's date ("Today's date: ..."), not
the org's, and the report builder says which date it counts from."""

from __future__ import annotations

from datetime import date

from textual.widgets import Static

from crm_tui.org.reports import DateRange, ReportDefinition
from crm_tui.tui.browser.history import ReportBuilderLocation
from crm_tui.tui.browser.screens.report_builder import ReportBuilderScreen
from crm_tui.tui.browser.screens.report_result import ReportScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import create_profile_via_form

SIZE = (120, 40)


async def test_relative_ranges_count_from_the_querys_date(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await create_profile_via_form(pilot, "Dana", "Customer Service Associate", "6")
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        shown = solve.view.item.required_context.split("Today's date: ")[1][:10]
        today = date.fromisoformat(shown)
        await pilot.press("f2")
        await settle(pilot)
        definition = ReportDefinition(
            "Case", date_ranges=(DateRange("CreatedDate", "LAST_N_WEEKS:4"),)
        )
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        builder = app.screen
        assert isinstance(builder, ReportBuilderScreen)
        header = str(builder.query_one("#report-builder-title", Static).render())
        assert shown in header and "query" in header
        await pilot.press("ctrl+r")
        await settle(pilot)
        report = app.screen
        assert isinstance(report, ReportScreen)
        await wait_for(pilot, lambda: report.result is not None)
        assert report.result is not None and report.result.today == today
