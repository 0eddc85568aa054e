"""Helpers for driving the browser with Pilot."""

from __future__ import annotations

from textual.widgets import DataTable

from tests.helpers.pilot import settle


def table_keys(table: DataTable[object]) -> list[str]:
    """Row keys (record Ids, field names, ...) in display order."""
    return [key.value for key in table.rows if key.value is not None]


async def select_row(pilot, table: DataTable, key: str) -> None:
    """Put the cursor on the row with `key`, then press Enter as a person would."""
    table.focus()
    table.move_cursor(row=table.get_row_index(key))
    await pilot.press("enter")
    await settle(pilot)
