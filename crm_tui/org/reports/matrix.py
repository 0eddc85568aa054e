"""A matrix report: rows by the first grouping, columns by the second, one summary in
each cell, with the subtotal of every row and every column and the grand total.

A subtotal is the summary over all the row's (or column's) records, as Salesforce shows
it, not a sum of cells: an average, a distinct count or a maximum cannot be added up from
cells. So the backend runs the report twice more, grouped by each grouping alone, with
the same rules; the grand total is the report's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.reports.definition import GroupKey, ReportDefinition, ReportResult

Value = float | int | str | None
RunReport = Callable[[ReportDefinition], ReportResult]


@dataclass(frozen=True)
class Matrix:
    summary: str  # the summary's key, e.g. COUNT() or AVG(Age)
    rows: list[GroupKey]
    columns: list[GroupKey]
    cells: dict[tuple[Any, Any], Value]  # (row value, column value) -> the summary
    row_totals: dict[Any, Value]  # row value -> the summary over the whole row
    column_totals: dict[Any, Value]
    total: Value  # over every record of the report


def is_matrix(definition: ReportDefinition) -> bool:
    return definition.matrix and len(definition.groupings) == 2


def shown_summary(definition: ReportDefinition, summaries: tuple[str, ...]) -> str:
    """The summary a matrix (and the chart) shows: the sort's, else the last one."""
    if definition.sort is not None and definition.sort.summary in summaries:
        return definition.sort.summary
    return summaries[-1]


def run_matrix(run: RunReport, definition: ReportDefinition) -> tuple[ReportResult, Matrix]:
    """The report (two groupings) and its matrix with subtotals, through `run` (a
    backend's `run_report`)."""
    if not is_matrix(definition):
        raise CrmTuiError("A matrix needs two groupings and matrix = true")
    result = run(definition)
    summary = shown_summary(definition, result.summaries)
    rows, columns, cells = result.matrix(summary)
    totals = []
    for grouping in definition.groupings:
        alone = run(definition.with_(groupings=(grouping,), sort=None, top_n=None, matrix=False))
        index = alone.summaries.index(summary)
        totals.append({g.keys[0].value: g.values[index] for g in alone.groups})
    return result, Matrix(
        summary,
        rows,
        columns,
        cells,
        {r.value: totals[0].get(r.value) for r in rows},
        {c.value: totals[1].get(c.value) for c in columns},
        result.value_total(summary),
    )
