"""The SOQL console on the small generated org: rows, errors, history."""

from __future__ import annotations

import json

from textual.widgets import Static

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tui.browser.screens.soql_console import SoqlConsole, history_path
from crm_tui.tui.widgets.history_input import HistoryInput
from crm_tui.tui.widgets.records_table import RecordsTable, cell_text
from tests.helpers.pilot import settle
from tests.helpers.results_study import cells, column_labels


async def open_console(pilot) -> SoqlConsole:
    await settle(pilot)
    pilot.app.push_screen(SoqlConsole())
    await settle(pilot)
    return pilot.app.screen


async def run(pilot, query: str, typed: bool = False) -> None:
    """Enter a query and run it; `typed`: one key per character, as a person types."""
    box = pilot.app.screen.query_one(HistoryInput)
    box.focus()
    box.value = ""
    if typed:
        await pilot.press(*query)
    else:
        box.insert_text_at_cursor(query)
    await pilot.press("enter")
    await settle(pilot)


def status(screen) -> str:
    return str(screen.query_one("#soql-status", Static).render())


def error_line(screen) -> str:
    line = screen.query_one("#soql-error", Static)
    return str(line.render()) if line.display else ""


async def test_typed_query_shows_rows_with_parent_fields_flattened(make_app, small_org_path):
    with OrgStore.open(small_org_path) as org:
        expected = [
            [case["Id"], cell_text(case["Subject"])]
            for case in org.rows("Case", "1 ORDER BY Id LIMIT 3")
        ]
        account_names = {a["Id"]: a["Name"] for a in org.rows("Account", "1")}
        case_accounts = [c["AccountId"] for c in org.rows("Case", "1 ORDER BY Id LIMIT 3")]
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_console(pilot)
        await run(
            pilot, "SELECT Id, Subject, Account.Name FROM Case ORDER BY Id LIMIT 3", typed=True
        )
        table = screen.query_one(RecordsTable)
        assert column_labels(table) == ["Id", "Subject", "Account.Name"]
        rows = cells(table)
        assert [row[:2] for row in rows] == expected
        assert [row[2] for row in rows] == [account_names.get(a, "") for a in case_accounts]
        assert status(screen) == "3 records" and error_line(screen) == ""


async def test_child_subquery_shows_a_count_and_an_empty_parent_a_blank(make_app, small_org_path):
    with OrgStore.open(small_org_path) as org:
        account = org.rows("Account", "1 ORDER BY Id LIMIT 1")[0]
        cases = org.conn.execute(
            'SELECT COUNT(*) FROM "Case" WHERE AccountId = ?', (account["Id"],)
        ).fetchone()[0]
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_console(pilot)
        await run(pilot, "SELECT Name, (SELECT Id FROM Cases) FROM Account ORDER BY Id LIMIT 1")
        table = screen.query_one(RecordsTable)
        assert column_labels(table) == ["Name", "Cases"]
        assert cells(table) == [[account["Name"], f"{cases} records" if cases else ""]]
        # Owner.Name of a record without an owner, next to one with: one column, blank cell
        assert cell_text(None) == "" and cell_text(True) == "true"


async def test_count_and_aggregate_results(make_app, small_org_path):
    with OrgStore.open(small_org_path) as org:
        total = org.conn.execute('SELECT COUNT(*) FROM "Case"').fetchone()[0]
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_console(pilot)
        await run(pilot, "SELECT COUNT() FROM Case")
        assert status(screen) == f"COUNT(): {total:,}"
        await run(pilot, "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status")
        table = screen.query_one(RecordsTable)
        assert column_labels(table) == ["Status", "n"]
        assert sum(int(row[1]) for row in cells(table)) == total


async def test_malformed_query_shows_salesforces_error_and_keeps_the_rows(make_app):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_console(pilot)
        await run(pilot, "SELECT Id FROM Case LIMIT 2")
        await run(pilot, "SELECT Id FROM Case WHERE")
        shown = error_line(screen)
        assert shown.startswith("MALFORMED_QUERY:\nSELECT Id FROM Case WHERE\n")
        assert "ERROR at Row:1:Column:" in shown
        assert screen.query_one(RecordsTable).row_count == 2  # the last good answer stays
        await run(pilot, "SELECT Nope FROM Case")
        assert error_line(screen).startswith("INVALID_FIELD:\nSELECT Nope FROM Case\n")
        await run(pilot, "SELECT Id FROM Case LIMIT 1")
        assert error_line(screen) == "" and status(screen) == "1 record"


async def test_up_and_down_recall_queries_and_the_history_is_kept(make_app):
    first, second = "SELECT Id FROM Account LIMIT 1", "SELECT Id FROM Case LIMIT 1"
    async with make_app().run_test(size=(120, 40)) as pilot:
        await open_console(pilot)
        await run(pilot, first)
        await run(pilot, second)
        box = pilot.app.screen.query_one(HistoryInput)
        assert box.value == second  # kept after running, to edit and run again
        await pilot.press("ctrl+u", *"SELECT")  # a new draft, given back after the history
        await pilot.press("up")
        assert box.value == second
        await pilot.press("up", "up")  # stops at the oldest
        assert box.value == first
        await pilot.press("down", "down")
        assert box.value == "SELECT"
    saved = history_path().read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in saved] == [first, second]
    async with make_app().run_test(size=(120, 40)) as pilot:  # a new session recalls them
        await open_console(pilot)
        await pilot.press("up")
        assert pilot.app.screen.query_one(HistoryInput).value == second


async def test_a_bad_history_file_is_named_and_left_alone(make_app):
    path = history_path()
    path.parent.mkdir(parents=True)
    path.write_text('"SELECT Id FROM Case"\nnot json\n', encoding="utf-8")
    async with make_app().run_test(size=(120, 40)) as pilot:
        await open_console(pilot)
        await run(pilot, "SELECT Id FROM Case LIMIT 1")
        messages = [n.message for n in pilot.app._notifications]
        assert any(f"{path} line 2" in m for m in messages)
    assert path.read_text(encoding="utf-8") == '"SELECT Id FROM Case"\nnot json\n'


async def test_a_backend_without_soql_shows_the_console_unavailable(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        app.backend = _WithoutSoql(app.backend)
        screen = await open_console(pilot)
        assert "does not offer it" in error_line(screen)
        assert screen.query_one(HistoryInput).disabled


class _WithoutSoql:
    """The local backend seen as a backend that declares no SOQL (as a remote one may)."""

    supports_soql = False

    def __init__(self, inner) -> None:
        self._inner = inner
        self.name = "remote-org"

    def __getattr__(self, name):
        return getattr(self._inner, name)
