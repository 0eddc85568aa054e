"""Helpers for solving a sales item in the study app with Pilot, the way a person would:
the record browser, list views (with their filters) and reports; never the SOQL console.

`solve_sales_item` opens a one-item study on a B2B org, switches to the browser (F2), lets
a family's `find` read the answer off the screens, types it into the answer box and
submits it. The readers below return what the screens show."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from sqlmodel import select
from textual.widgets import DataTable, Input

from crm_tui.org.backends.interface import Filter, Operator
from crm_tui.org.reports.definition import parse_definition
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.tasks.sales_families import months_before
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import ListLocation, RecordLocation, ReportLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.browser.screens.report_result import ReportScreen
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import create_one_item_study, submit_with_confidence, type_text

SIZE = (120, 40)
# Reads the answer off the screens: returns it to be typed, or None when it took it into the
# answer box itself (`u` on a record or a report group).
Find = Callable[[Any, dict[str, Any]], Awaitable[str | None]]


def considered(item: dict[str, Any]) -> str:
    """The record an item is about ("... Id to be considered is: X")."""
    found = re.search(r"to be considered is: (\S+)", item["metadata"]["required"])
    assert found, item["metadata"]["required"]
    return found.group(1)


def todays_date(item: dict[str, Any]) -> date:
    found = re.search(r"Today's date: (\d{4}-\d\d-\d\d)", item["metadata"]["required"])
    assert found
    return date.fromisoformat(found.group(1))


def query_period(item: dict[str, Any]) -> str:
    """The report's calendar range for "the past N weeks / months / quarters" up to the
    item's today, both days included."""
    found = re.search(r"the past (\d+) (weeks|months|quarters)", item["query"])
    assert found, item["query"]
    n, unit, today = int(found.group(1)), found.group(2), todays_date(item)
    start = (
        today - timedelta(weeks=n)
        if unit == "weeks"
        else months_before(today, n * (3 if unit == "quarters" else 1))
    )
    return f"{start.isoformat()}..{today.isoformat()}"


async def solve_sales_item(
    org_path: Path, item: dict[str, Any], tmp_path: Path, find: Find
) -> tuple[Attempt, str]:
    """A study of the one `item`; Dana opens it, finds the answer in the browser with
    `find(pilot, item)`, types it (unless `find` took it with `u`) and submits it. The
    attempt and the answer submitted."""
    clock = FakeClock()
    study_path = tmp_path / "study.sqlite"
    with OrgStore.open(org_path) as org, StudyStore.open(study_path, clock) as store:
        create_one_item_study(store, org, item, "sales")
        create_profile(store, "Dana", "Sales Representative", 4)
    app = create_app(Launch(org_path=org_path, study=study_path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        await pilot.press("f2")  # to the browser
        await settle(pilot)
        found = await find(pilot, item)
        if app.screen is not solve:  # `u` goes back to the query by itself
            await pilot.press("f2")  # back to the query
            await settle(pilot)
        assert app.screen is solve
        if found is not None:
            await type_text(pilot, found)
        answer = solve.query_one("#answer-text", Input).value
        await submit_with_confidence(pilot)
        assert not any(isinstance(s, SoqlConsole) for s in app.screen_stack)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        return db.exec(select(Attempt)).one(), answer


# ------------------------------------------------------------------ reading the screens
async def open_record(pilot, record_id: str) -> RecordScreen:
    """The record page of `record_id`, its fields and related lists shown."""
    app = pilot.app
    app.navigate(RecordLocation(record_id))
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, RecordScreen)
            and app.screen.record_id == record_id
            and app.screen.view is not None
        ),
    )
    await settle(pilot)
    return app.screen


def fields(record: RecordScreen) -> dict[str, str]:
    """Field name -> the value the record page shows (a long text in full, as the pane
    under the fields shows it; a lookup as the name of the record it links to)."""
    assert record.view is not None
    return {f.name: f.display for f in record.view.fields}


def links(record: RecordScreen) -> dict[str, str]:
    """Lookup field -> the Id of the record Enter on it opens."""
    assert record.view is not None
    return {f.name: f.link for f in record.view.fields if f.link}


async def open_list(pilot, object_name: str, *filters: Filter) -> list[dict[str, Any]]:
    """A list view with `filters` (a related list opened from its record is the same
    list): one dict per row shown, column -> text, plus "Id" (the row's record) and
    "links" (column -> the Id a lookup opens)."""
    app = pilot.app
    place = ListLocation(object_name, tuple(filters))
    app.navigate(place)
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, ListViewScreen)
            and app.screen.place == place
            and app.screen.total is not None
            and not app.screen.loading_page
        ),
    )
    await settle(pilot)
    screen = app.screen
    table = screen.query_one("#records", DataTable)
    assert screen.total is not None and table.row_count == screen.total  # all on one page
    rows = []
    for index in range(table.row_count):
        key = table.coordinate_to_cell_key((index, 0)).row_key.value
        cells = table.get_row_at(index)
        row: dict[str, Any] = {
            str(column.key.value): str(cell) for column, cell in zip(table.columns.values(), cells)
        }
        row["Id"] = key
        row["links"] = screen.links.get(str(key), {})
        rows.append(row)
    return rows


async def take_group(pilot, index: int) -> None:
    """On a report's result: the cursor to group row `index`, then `u` (use as my
    answer)."""
    grid = pilot.app.screen.query_one("#report-grid", DataTable)
    grid.move_cursor(row=index)
    await pilot.press("u")
    await settle(pilot)


async def run_report(pilot, definition: str) -> list[tuple[str, tuple[Any, ...]]]:
    """A report's result as the grid shows it: (the group's label, its summaries) per
    group row, the grand total left out."""
    app = pilot.app
    app.navigate(ReportLocation(parse_definition(definition)))
    await wait_for(
        pilot, lambda: isinstance(app.screen, ReportScreen) and app.screen.result is not None
    )
    await settle(pilot)
    screen = app.screen
    assert screen.result is not None
    table = screen.query_one("#report-grid", DataTable)
    shown = [str(table.get_row_at(i)[0]) for i in range(table.row_count - 1)]
    groups = screen.result.groups
    assert shown == [" / ".join(k.label for k in g.keys) for g in groups]
    return [(label, g.values) for label, g in zip(shown, groups)]


async def user_id(pilot, name: str) -> str:
    """The Id of the user named `name`: the Users list filtered by name."""
    rows = await open_list(pilot, "User", Filter("Name", Operator.EQ, name))
    assert len(rows) == 1, rows
    return rows[0]["Id"]


async def article_id(pilot, title: str) -> str:
    """The Id of the knowledge article titled `title` (the Knowledge list filtered)."""
    rows = await open_list(pilot, "Knowledge__kav", Filter("Title", Operator.EQ, title))
    assert len(rows) == 1, rows
    return rows[0]["Id"]
