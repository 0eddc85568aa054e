"""The one way tests wait for steady screens: workers done, study writes on disk, repainted."""

from __future__ import annotations

import asyncio


async def settle(pilot, rounds: int = 4) -> None:
    """Wait until key handlers, workers and queued study writes have all finished.

    Several rounds, because a finished worker often starts another (a list view loads its
    first page, then prefetches) and a study write can trigger a refresh.
    """
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await app.wait_for_background_writes()
        await pilot.pause()
    await wait_for(pilot, lambda: not _tables_sizing(app))


def _tables_sizing(app) -> bool:
    """Whether a table still has rows whose widths it has not measured: a DataTable does
    that on its next idle, which a loaded machine can reach after a snapshot was taken
    (cells then showed cut to their header's width)."""
    from textual.widgets import DataTable

    return any(table._require_update_dimensions for table in app.screen.query(DataTable))


async def palette_titles(pilot, timeout: float = 10.0) -> list[str]:
    """Open the command palette and return the titles it lists once it has gathered them
    all (Quit comes last); the palette stays open."""
    import asyncio

    from textual.command import CommandList

    await pilot.press("ctrl+p")
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        await pilot.pause(0.05)
        commands = pilot.app.screen.query(CommandList)
        titles = (
            [
                str(commands.first().get_option_at_index(i).prompt).split("\n")[0]
                for i in range(commands.first().option_count)
            ]
            if commands
            else []
        )
        if "Quit" in titles or asyncio.get_running_loop().time() > deadline:
            return titles


async def palette_search(pilot, text: str) -> None:
    """Ctrl+P and `text` typed into the command palette, then wait until it has gathered
    what matches (its search runs as a worker, restarted by each key)."""
    await pilot.press("ctrl+p", *text)
    await settle(pilot)


async def wait_for(pilot, condition, timeout: float = 20.0) -> None:
    """Pause the app until `condition()` holds (a worker's result, a state), polled;
    AssertionError after `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"waited {timeout:g} s"
        await pilot.pause(0.02)


def tables_measured(app, filled: bool = False) -> bool:
    """Every DataTable on screen has measured its columns for the rows it holds (and with
    `filled`, one holds rows): a table sizes its columns when the app is next idle
    (Textual's `_on_idle`), so a picture taken before that shows new rows in old widths."""
    from textual.widgets import DataTable

    tables = list(app.screen.query(DataTable))
    if filled and not any(table.row_count for table in tables):
        return False
    return all(
        not table._require_update_dimensions and not table._updated_cells for table in tables
    )
