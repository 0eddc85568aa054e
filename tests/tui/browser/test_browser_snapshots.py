"""SVG snapshots at 120x40 of the browser's main screens, on the seeded small org."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from crm_tui.org.backends.interface import Sort
from crm_tui.org.schema.catalogue import OBJECT_NAMES
from crm_tui.tui.browser.history import RecordLocation, SearchLocation
from tests.helpers.pilot import settle

SIZE = (120, 40)


@pytest.fixture
def first_case_id(backend) -> str:
    return backend.page("Case", sort=Sort("Id"), limit=1).records[0]["Id"]


def test_object_list(app, snap_compare):
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_case_list_view(app, snap_compare):
    async def open_cases(pilot):
        await settle(pilot)
        await pilot.press(*["down"] * OBJECT_NAMES.index("Case"), "enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=open_cases)


def test_case_record_page(app, snap_compare, first_case_id):
    async def open_case(pilot):
        await settle(pilot)
        pilot.app.navigate(RecordLocation(first_case_id))
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=open_case)


def test_search_results(app, snap_compare, backend, first_case_id):
    subject = backend.get_record(first_case_id).fields[2].display  # Case.Subject
    word = subject.split()[0]

    async def search(pilot):
        await settle(pilot)
        pilot.app.navigate(SearchLocation(word))
        await settle(pilot)
        pilot.app.screen.query_one(Input).cursor_blink = False
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=search)
