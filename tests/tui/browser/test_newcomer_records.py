"""Record pages as a newcomer met them: Back finds the record
page's tables where they were left, a related list's preview shows what tells its records
apart (an order's lines: the product, not the order again), Ids of records the org does
not hold read as names, and a product's category key says what it holds."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable

from crm_tui.org.backends.interface import Filter, Operator, Sort
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.record import RecordScreen
from tests.helpers.pilot import settle

SIZE = (120, 40)


def busiest_account(backend) -> str:
    """An account with orders enough to move a preview cursor through (and cases)."""
    for record in backend.page("Account", sort=Sort("Id"), limit=50).records:
        counts = {r.name: r.count for r in backend.related(record["Id"])}
        if counts["Orders"] >= 3 and counts["Cases"] >= 1:
            return str(record["Id"])
    raise AssertionError("no account with 3 orders in the small org")


async def open_record(pilot, record_id: str) -> RecordScreen:
    await settle(pilot)
    pilot.app.navigate(RecordLocation(record_id))
    await settle(pilot)
    assert isinstance(pilot.app.screen, RecordScreen)
    return pilot.app.screen


async def test_back_finds_the_related_lists_where_they_were(app, backend):
    async with app.run_test(size=SIZE) as pilot:
        record = await open_record(pilot, busiest_account(backend))
        related = record.query_one("#related", DataTable)
        await pilot.press("tab")  # fields -> related lists
        assert app.screen.focused is related
        await pilot.press("down", "down")  # Contacts, Cases, Orders
        await settle(pilot)
        assert related.cursor_row == 2
        await pilot.press("enter")  # the account's orders, as a list view
        await settle(pilot)
        assert isinstance(app.screen, ListViewScreen)
        await pilot.press("alt+left")
        await settle(pilot)
        back = app.screen
        assert isinstance(back, RecordScreen) and back is not record
        assert back.focused is back.query_one("#related", DataTable)
        assert back.query_one("#related", DataTable).cursor_row == 2
        assert "Orders" in str(back.query_one("#preview-title").render())


async def test_back_finds_the_preview_and_its_related_list(app, backend):
    async with app.run_test(size=SIZE) as pilot:
        record = await open_record(pilot, busiest_account(backend))
        await pilot.press("tab", "down", "down", "tab")  # Orders' preview
        await settle(pilot)
        preview = record.query_one("#preview", DataTable)
        assert record.focused is preview
        await pilot.press("down", "down")
        key = preview.coordinate_to_cell_key(preview.cursor_coordinate).row_key.value
        await pilot.press("enter")  # that order
        await settle(pilot)
        assert app.screen.record_id == key
        await pilot.press("alt+left")
        await settle(pilot)
        back = app.screen
        assert isinstance(back, RecordScreen) and back is not record
        assert back.query_one("#related", DataTable).cursor_row == 2
        preview = back.query_one("#preview", DataTable)
        assert back.focused is preview and preview.cursor_row == 2


async def test_back_finds_the_field_under_the_cursor(app, backend):
    case_id = backend.page("Case", sort=Sort("Id"), limit=1).records[0]["Id"]
    async with app.run_test(size=SIZE) as pilot:
        record = await open_record(pilot, case_id)
        fields = record.query_one("#fields", DataTable)
        contact_row = fields.get_row_index("ContactId")
        fields.move_cursor(row=contact_row)
        await pilot.press("enter")  # the case's contact
        await settle(pilot)
        await pilot.press("alt+left")
        await settle(pilot)
        back = app.screen
        assert isinstance(back, RecordScreen) and back is not record
        fields = back.query_one("#fields", DataTable)
        assert back.focused is fields and fields.cursor_row == contact_row


async def test_an_orders_lines_preview_the_product(app, backend):
    order = backend.page("Order", sort=Sort("Id"), limit=1).records[0]["Id"]
    line = backend.page("OrderItem", [Filter("OrderId", Operator.EQ, order)], Sort("Id"), limit=1)
    product = line.display(backend.describe("OrderItem").field("Product2Id"), line.records[0])
    async with app.run_test(size=SIZE) as pilot:
        record = await open_record(pilot, order)
        preview = record.query_one("#preview", DataTable)
        labels = [str(column.label) for column in preview.columns.values()]
        assert "Order" not in labels and "Product" in labels, labels
        cells = [str(cell) for cell in preview.get_row_at(0)]
        assert product in cells, cells


@pytest.mark.parametrize(
    ("object_name", "field", "name"),
    [
        ("Account", "RecordTypeId", "Person Account"),
        ("LiveChatTranscript", "LiveChatVisitorId", "Anonymous visitor"),
    ],
)
async def test_ids_of_records_outside_the_org_read_as_names(app, backend, object_name, field, name):
    record_id = backend.page(object_name, sort=Sort("Id"), limit=1).records[0]["Id"]
    async with app.run_test(size=SIZE) as pilot:
        record = await open_record(pilot, record_id)
        fields = record.query_one("#fields", DataTable)
        shown = str(fields.get_row(field)[1])
        assert shown.startswith(name), shown


def test_a_products_category_key_says_what_it_holds(backend):
    field = backend.describe("Product2").field("External_ID__c")
    value = backend.page("Product2", sort=Sort("Id"), limit=1).records[0]["External_ID__c"]
    assert "categor" in field.label.lower(), field.label
    assert not value.split("_")[0].isdigit()  # the org's data is as CRMArena's: names, _n
