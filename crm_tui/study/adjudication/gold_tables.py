"""The original-versus-corrected table for the terminal, Markdown and the app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crm_tui.study.adjudication.rescore import GoldComparison, comparison_lines

if TYPE_CHECKING:
    from rich.table import Table


def title(comparison: GoldComparison) -> str:
    return (
        f"Original vs corrected gold (version {comparison.version}, "
        f"{comparison.content_hash[:12]}, from {comparison.parent_hash[:12]}): % right"
    )


def gold_table(comparison: GoldComparison) -> Table:
    from rich.table import Table

    header, *rows = comparison_lines(comparison)
    table = Table(title=title(comparison), title_justify="left")
    for i, column in enumerate(header):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return table


def gold_markdown(comparison: GoldComparison) -> str:
    header, *rows = comparison_lines(comparison)
    lines = [f"## {title(comparison)}", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
