"""The report builder and result screens, driven with keys on the small generated org."""

from __future__ import annotations

from textual.coordinate import Coordinate
from textual.widgets import DataTable, Static, TextArea

from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import Grouping, ReportDefinition, ReportFilter, Summary, SummarySort
from crm_tui.tui.browser.history import ListLocation, ReportBuilderLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.report_builder import ReportBuilderScreen
from crm_tui.tui.browser.screens.report_result import ReportScreen
from tests.helpers.pilot import settle

SIZE = (120, 40)


def cell_text(table: DataTable[object], row: int, column: int) -> str:
    return str(table.get_cell_at(Coordinate(row, column)))


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space", "\n": "enter"}.get(c, c) for c in text])


def grid(app) -> DataTable:
    return app.screen.query_one("#report-grid", DataTable)


async def test_group_cases_by_status_with_keys(app, backend):
    """r opens the builder; type a field, Enter adds the grouping; Ctrl+R runs it; the
    grid shows the groups and the grand total the backend counts."""
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ReportBuilderScreen)
        await type_text(pilot, "Status")
        await pilot.press("enter")
        await settle(pilot)
        assert "Grouping" not in str(app.screen.query_one("#report-check", Static).render())
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        table = grid(app)
        expected = backend.run_report(ReportDefinition("Case", groupings=(Grouping("Status"),)))
        assert table.row_count == len(expected.groups) + 1  # and the grand total
        assert cell_text(table, 0, 0) == expected.groups[0].keys[0].label
        total_row = table.row_count - 1
        assert cell_text(table, total_row, 0) == "Grand total"
        assert cell_text(table, total_row, 1) == f"{expected.record_count:,}"


async def test_top_owner_by_case_count_from_the_text(app, backend):
    """The TOML text is the source of truth: typed in, the top group reads on screen."""
    definition = ReportDefinition(
        "Case",
        groupings=(Grouping("OwnerId"),),
        sort=SummarySort("COUNT()"),
        top_n=1,
    )
    expected = backend.run_report(definition)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        area = app.screen.query_one("#report-toml", TextArea)
        area.focus()
        area.load_text("")
        await type_text(
            pilot,
            'object = "Case"\ngroupings = ["OwnerId"]\nsort = "COUNT()"\ntop_n = 1\n',
        )
        await settle(pilot)
        assert app.screen.definition == definition
        await pilot.press("ctrl+r")
        await settle(pilot)
        table = grid(app)
        assert cell_text(table, 0, 0) == expected.top.keys[0].label


async def test_a_bad_definition_shows_one_line_naming_the_part(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await type_text(pilot, "Description")  # group by a long text
        await pilot.press("enter")
        await settle(pilot)
        line = str(app.screen.query_one("#report-check", Static).render())
        assert "\n" not in line.strip()
        assert "Grouping 'Description'" in line and "long text" in line
        await pilot.press("ctrl+r")  # nothing else changes: the run says the same
        await settle(pilot)
        status = str(app.screen.query_one("#report-status", Static).render())
        assert "Grouping 'Description'" in status


async def test_drill_down_opens_the_list_filtered_to_the_group(app, backend):
    definition = ReportDefinition(
        "Case",
        filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
        groupings=(Grouping("Priority"),),
        summaries=(Summary.parse("COUNT()"),),
    )
    expected = backend.run_report(definition)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("enter")  # on the first group
        await settle(pilot)
        assert isinstance(app.screen, ListViewScreen)
        place = app.history.current
        assert isinstance(place, ListLocation)
        top = expected.groups[0]
        assert place.filters[-1].value == top.keys[0].value
        assert app.screen.total == top.count


async def test_saved_reports_reopen_with_one_key(app):
    definition = ReportDefinition("Case", groupings=(Grouping("Status"),), name="By status")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert (app.reports_folder() / "by-status.toml").is_file()
        await pilot.press("ctrl+n")
        await settle(pilot)
        await pilot.press("escape")  # leave the field: R is a key of the browser
        app.screen.query_one("#report-parts").focus()
        await pilot.press("R")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReportBuilderScreen)
        assert app.screen.definition == definition
