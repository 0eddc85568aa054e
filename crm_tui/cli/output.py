"""Printing a command's tables: a terminal's width on a terminal, the table's own on a pipe.

rich fits a table into 80 columns when it sees no terminal (a pipe, a file), folding cells
mid-word ("Human s", "100. 0"); a table piped to a file or a pager keeps its shape instead.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # rich is imported where a table is printed, not by every command
    from rich.console import Console
    from rich.table import Table

UNBOUNDED = 10_000  # columns: measure a table's natural width without a terminal's limit


def print_table(table: Table, console: Console) -> None:
    from rich.console import Console
    from rich.measure import Measurement

    if console.is_terminal:
        console.print(table)
        return
    natural = Measurement.get(console, console.options.update_width(UNBOUNDED), table).maximum
    Console(file=console.file, width=max(console.width, natural)).print(table)


def say_how_read(note: str | None) -> None:
    """A read-only command's note on how it read a read-only study file, on stderr (its
    output stays the table or the export)."""
    if note:
        click.echo(f"note: {note}", err=True)


def printable(text: str) -> str:
    """`text` with its control and format characters written as escapes (`\\x1b`,
    `\\u202e`): a name someone typed (or wrote into a study file) cannot move the cursor,
    retitle the terminal or reverse the line it is printed on."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii")
        if unicodedata.category(ch) in ("Cc", "Cf")
        else ch
        for ch in text
    )
