"""Pilot tests: Case History's Old/New Value show the agent's name and open the
agent with Enter, in the list view, on the record page and in a report's rows; `s` on a
lookup column sorts by the names it shows (Owner → the owner's name), as Salesforce does."""

from __future__ import annotations

from textual.widgets import DataTable

from crm_tui.org.backends.interface import Filter, Operator, Sort
from crm_tui.org.reports import ReportDefinition, ReportFilter
from crm_tui.org.schema.catalogue import OBJECT_NAMES
from crm_tui.tui.browser.history import ListLocation, ReportBuilderLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.record import RecordScreen
from tests.helpers.browser_pilot import select_row, table_keys
from tests.helpers.pilot import settle

SIZE = (120, 40)
OWNER = Filter("Field__c", "=", "Owner Assignment")


async def test_case_history_values_show_the_agent_and_enter_opens_the_agent(app, backend):
    first = backend.page("CaseHistory__c", [OWNER], Sort("CreatedDate"), limit=1).records[0]
    agent = backend.get_record(first["NewValue__c"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ListLocation("CaseHistory__c", (OWNER,)))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ListViewScreen)
        table = screen.query_one(DataTable)
        assert table_keys(table)[0] == first["Id"]
        new_value = [c.key.value for c in table.columns.values()].index("NewValue__c")
        assert str(table.get_row(first["Id"])[new_value]) == agent.title  # a name, not an Id
        await pilot.press(*["right"] * new_value, "enter")  # Enter on the agent's name
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        assert app.screen.view is not None and app.screen.view.record_id == agent.record_id
        await pilot.press("backspace")
        await settle(pilot)
        await pilot.press("home", "enter")  # the row's own name opens the history row
        await settle(pilot)
        page = app.screen
        assert isinstance(page, RecordScreen) and page.view is not None
        assert page.view.record_id == first["Id"]
        fields = page.query_one("#fields", DataTable)
        assert str(fields.get_row("NewValue__c")[1]) == f"→ {agent.title}"  # shown as a link
        await select_row(pilot, fields, "NewValue__c")
        assert app.screen.view is not None and app.screen.view.record_id == agent.record_id


async def test_sorting_by_owner_sorts_by_the_owners_name(app, backend):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*["down"] * OBJECT_NAMES.index("Case"), "enter")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        owner = [c.key.value for c in table.columns.values()].index("OwnerId")
        await pilot.press(*["right"] * owner, "s")
        await settle(pilot)
        screen = app.screen
        assert screen.sort == Sort("OwnerId")
        assert "sorted by Owner (ascending)" in str(screen.query_one("#list-status").render())
        table = screen.query_one(DataTable)
        await pilot.press(*["down"] * 40)  # the next page comes as the cursor moves down
        await settle(pilot)
        shown = [str(table.get_row_at(i)[owner]) for i in range(table.row_count)]
        assert len(shown) > 30
        assert shown == sorted(shown, key=str.lower)
        assert len(set(shown)) > 1


async def test_a_report_row_opens_the_agent_from_new_value(app, backend):
    definition = ReportDefinition(
        "CaseHistory__c",
        columns=("Name", "NewValue__c", "CaseId__r.Subject"),
        filters=(ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),),
    )
    expected = backend.run_report(definition)
    first_id = expected.row_ids[0]
    values = {f.name: f.value for f in backend.get_record(first_id).fields}
    agent, case_id = backend.get_record(values["NewValue__c"]), values["CaseId__c"]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        grid = app.screen.query_one("#report-grid", DataTable)
        assert str(grid.get_row_at(0)[1]) == agent.title  # the agent's name, not an Id
        for column, opens in ((1, agent.record_id), (2, case_id), (0, first_id)):
            grid.move_cursor(row=0, column=column)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, RecordScreen)
            assert app.screen.view is not None and app.screen.view.record_id == opens
            await pilot.press("backspace")
            await settle(pilot)
            grid = app.screen.query_one("#report-grid", DataTable)
