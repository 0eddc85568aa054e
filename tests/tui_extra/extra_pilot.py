"""Helpers for driving the results screen and the SOQL console with Pilot."""

from __future__ import annotations

from textual.widgets import DataTable


async def settle(pilot) -> None:
    """Wait until every worker has finished and its result is on screen."""
    for _ in range(5):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            return


def cells(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def column_labels(table: DataTable) -> list[str]:
    return [str(column.label) for column in table.columns.values()]
