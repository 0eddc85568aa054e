"""The browser at 80x24, the smallest supported size: every key its
screens offer is in reach (the footer shows it whole), a list keeps its telling columns
and says which it leaves out, a record page shows its related lists' counts."""

from __future__ import annotations

from textual.widgets import DataTable

from crm_tui.org.backends.interface import Sort
from crm_tui.tui.browser.history import (
    ListLocation,
    ObjectsLocation,
    RecordLocation,
    ReportBuilderLocation,
    ReportLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from tests.helpers.narrow import NARROW, keys_out_of_reach
from tests.helpers.pilot import settle
from tests.tui.browser.test_reports_snapshots import DEFINITION


async def test_every_browser_key_is_in_reach(app, backend):
    case_id = backend.page("Case", sort=Sort("Id"), limit=1).records[0]["Id"]
    places = [
        ObjectsLocation(),
        ListLocation("Case"),
        RecordLocation(case_id),
        SearchLocation("shipping"),
        ReportBuilderLocation(DEFINITION),
        ReportLocation(DEFINITION),
    ]
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        for place in places:
            app.navigate(place)
            await settle(pilot)
            assert keys_out_of_reach(app) == [], place
        app.push_screen(SoqlConsole())
        await settle(pilot)
        assert keys_out_of_reach(app) == [], "SOQL console"


async def test_the_case_list_keeps_its_telling_columns(app):
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        app.navigate(ListLocation("Case"))
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        labels = [str(column.label).rstrip(" ▲▼") for column in table.columns.values()]
        assert labels[:4] == ["Case Number", "Subject", "Status", "Priority"], labels
        widths = [column.get_render_width(table) for column in table.columns.values()]
        assert sum(widths) <= table.size.width, widths  # no column runs off the right
        assert min(widths) >= len("Priority"), widths
        title = str(app.screen.query_one("#list-title").render())
        assert "not shown at this width" in title and "Owner" in title, title


async def test_a_record_page_shows_its_related_counts(app, backend):
    case_id = backend.page("Case", sort=Sort("Id"), limit=1).records[0]["Id"]
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        app.navigate(RecordLocation(case_id))
        await settle(pilot)
        related = app.screen.query_one("#related", DataTable)
        right = related.region.x + sum(
            column.get_render_width(related) for column in related.columns.values()
        )
        assert right <= app.size.width  # the Records column whole on screen
        for rel in backend.related(case_id):
            name, count = (str(cell) for cell in related.get_row(rel.name))
            assert count == rel.count_label and name == rel.label
        name_width = next(iter(related.columns.values())).width
        assert name_width >= max(len(rel.label) for rel in backend.related(case_id))
