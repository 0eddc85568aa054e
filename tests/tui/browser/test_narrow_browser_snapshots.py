"""SVG snapshots at 80x24, the smallest supported size, of the browser's main screens:
the object list, the case list, a case's record page, the report builder and a result."""

from __future__ import annotations

from textual.widgets import Input

from crm_tui.org.backends.interface import Sort
from crm_tui.org.schema.catalogue import OBJECT_NAMES
from crm_tui.tui.browser.history import RecordLocation, ReportBuilderLocation
from tests.helpers.narrow import NARROW
from tests.helpers.pilot import settle, wait_for
from tests.tui.browser.test_reports_snapshots import (  # noqa: F401
    DEFINITION,
    result_shown,
    still_app,
)


def test_narrow_object_list(app, snap_compare):
    assert snap_compare(app, terminal_size=NARROW, run_before=settle)


def test_narrow_case_list_view(app, snap_compare):
    async def open_cases(pilot):
        await settle(pilot)
        await pilot.press(*["down"] * OBJECT_NAMES.index("Case"), "enter")
        await settle(pilot)

    assert snap_compare(app, terminal_size=NARROW, run_before=open_cases)


def test_narrow_case_record_page(app, snap_compare, backend):
    case_id = backend.page("Case", sort=Sort("Id"), limit=1).records[0]["Id"]

    async def open_case(pilot):
        await settle(pilot)
        pilot.app.navigate(RecordLocation(case_id))
        await settle(pilot)

    assert snap_compare(app, terminal_size=NARROW, run_before=open_case)


def test_narrow_report_builder(still_app, snap_compare):  # noqa: F811
    async def open_builder(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(DEFINITION))
        await settle(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=NARROW, run_before=open_builder)


def test_narrow_report_result(still_app, snap_compare):  # noqa: F811
    async def run_report(pilot):
        await settle(pilot)
        pilot.app.navigate(ReportBuilderLocation(DEFINITION))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        await wait_for(pilot, lambda: result_shown(pilot.app))
        await pilot.pause()

    assert snap_compare(still_app, terminal_size=NARROW, run_before=run_report)
