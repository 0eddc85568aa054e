"""The original-versus-corrected table for the terminal, the report's files and the app."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from crm_tui.study.adjudication.rescore import GoldComparison, comparison_lines

if TYPE_CHECKING:
    from rich.table import Table

    from crm_tui.study.results.render import TableView

TITLE = "Original vs corrected gold"  # how every output names the table


def title(comparison: GoldComparison) -> str:
    kept = ", exclusions kept in" if comparison.with_excluded else ""
    return (
        f"{TITLE} (version {comparison.version}, "
        f"{comparison.content_hash[:12]}, from {comparison.parent_hash[:12]}{kept}): % right"
    )


def gold_view(comparison: GoldComparison) -> TableView:
    """The table as the report's other tables are kept: for `crm-tui results` in every
    format and for the results screen."""
    from crm_tui.study.results.render import TableView  # it imports this module

    header, *rows = comparison_lines(comparison)
    return TableView(title(comparison), header, rows)


def gold_records(comparison: GoldComparison) -> Iterator[list[object]]:
    """CSV rows (section, family, subject, measure, value): per family the queries, how
    many were corrected and dropped, and each solver's score under either gold."""
    section = "gold_comparison"
    yield [section, "", "", "version", comparison.version]
    yield [section, "", "", "content_hash", comparison.content_hash]
    yield [section, "", "", "parent_hash", comparison.parent_hash]
    yield [section, "", "", "with_excluded", comparison.with_excluded]
    for row in comparison.rows:
        yield [section, row.family, "", "items", row.items]
        yield [section, row.family, "", "corrected", row.corrected]
        yield [section, row.family, "", "dropped", row.dropped]
        for who, (before, after) in [("humans", row.humans), *row.agents.items()]:
            yield [section, row.family, who, "success_original", before]
            yield [section, row.family, who, "success_corrected", after]


def gold_table(comparison: GoldComparison) -> Table:
    from rich.table import Table

    header, *rows = comparison_lines(comparison)
    table = Table(title=title(comparison), title_justify="left")
    for i, column in enumerate(header):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    return table
