"""Screens take an org's schema from `Backend.describe()`, and its abilities from the
Backend's flags: an org that names Cases "Tickets" shows Tickets everywhere."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import DataTable, OptionList, Select, Static
from textual.widgets.data_table import ColumnKey

from crm_tui.org.backends.interface import SObject, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import ListLocation, RecordLocation, SearchLocation
from tests.helpers.pilot import palette_titles, settle
from tests.tui.browser.conftest import TEST_SETTINGS

SIZE = (120, 40)


class TicketsOrg(LocalBackend):
    """An org whose own describe differs from the catalogue, as a real org's may."""

    def describe(self, object_name: str) -> SObject:
        obj = super().describe(object_name)
        if obj.name != "Case":
            return obj
        fields = tuple(
            replace(f, label="Ticket Number") if f.name == "CaseNumber" else f for f in obj.fields
        )
        return replace(obj, label="Ticket", label_plural="Tickets", fields=fields, _by_name={})


class SearchlessOrg(LocalBackend):
    supports_search = False


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_every_screen_shows_the_orgs_own_labels(small_org_path):
    backend = TicketsOrg(small_org_path)
    case = backend.page("Case", sort=Sort("Id"), limit=1).records[0]
    app = create_app(Launch(backend=backend, browser=TEST_SETTINGS))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one(DataTable).get_row("Case")[0] == "Tickets"

        app.navigate(ListLocation("Case"))
        await settle(pilot)
        list_view = app.screen
        assert text_of(list_view, "#list-title") == "Tickets"
        assert (
            str(list_view.query_one(DataTable).columns[ColumnKey("CaseNumber")].label)
            == "Ticket Number"
        )
        fields = list_view.query_one("#filter-field", Select)
        assert ("Ticket Number (CaseNumber)", "CaseNumber") in fields._options

        app.navigate(RecordLocation(case["Id"]))
        await settle(pilot)
        assert text_of(app.screen, "#record-title").startswith("Ticket ")

        app.navigate(RecordLocation(case["AccountId"]))
        await settle(pilot)
        related = app.screen.query_one("#related", DataTable)
        assert str(related.get_row("Cases")[0]) == "Tickets"

        app.navigate(SearchLocation(case["CaseNumber"]))
        await settle(pilot)
        headings = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert any(h.startswith("Tickets (") for h in headings)

        offered = await palette_titles(pilot)
        assert any("Open Tickets" in line for line in offered), offered


async def test_a_backend_without_search_says_so(small_org_path):
    app = create_app(Launch(backend=SearchlessOrg(small_org_path), browser=TEST_SETTINGS))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(SearchLocation("jacket"))
        await settle(pilot)
        assert text_of(app.screen, "#search-status") == "small offers no search"
        assert app.screen.query_one(OptionList).option_count == 0
