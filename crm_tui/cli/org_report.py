"""`crm-tui org report DEF`: run a report definition (TOML or JSON) on an org.

The local default org unless `--org PATH` or `--salesforce`; prints the groups (or, for
an ungrouped report, its rows) as a table, CSV or JSON. Bad definitions fail with one
line naming the part.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from crm_tui.cli.connect import open_salesforce, salesforce_options
from crm_tui.cli.defaults import default_org

if TYPE_CHECKING:  # imported in the command: `crm-tui --version` and `--help` never need them
    from crm_tui.org.backends.interface import Backend
    from crm_tui.org.reports import ReportResult


@click.command("report")
@click.argument("definition", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="How to print the result.",
)
@click.option(
    "--org",
    "org_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Org file (default: the local default org).",
)
@click.option(
    "--today",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="The day relative ranges count from (default: the definition's, else the org's).",
)
@salesforce_options
def report(
    definition: Path,
    fmt: str,
    org_path: Path | None,
    today: Any,
    salesforce: bool,
    env_file: Path | None,
    domain: str | None,
) -> None:
    """Run the report DEFINITION (a .toml or .json file) on an org."""
    from crm_tui.org.reports import load_definition

    d = load_definition(definition)
    if salesforce and org_path is not None:
        raise click.UsageError("Use either --org or --salesforce, not both")
    backend: Backend
    if salesforce:
        backend = open_salesforce(env_file, domain)
    else:
        from crm_tui.org.backends.local import LocalBackend

        backend = LocalBackend(org_path or default_org())
    try:
        result = backend.run_report(d, today.date() if today else None)
    finally:
        backend.close()
    click.echo(render(result, fmt), nl=False)


def _cells(result: ReportResult) -> tuple[list[str], list[list[Any]]]:
    """Header and rows: groups (keys then summaries) and a grand total, or detail rows."""
    if not result.grouping_labels:
        header = list(result.column_labels)
        rows: list[list[Any]] = [list(r) for r in result.rows]
        return header, rows
    header = [*result.grouping_labels, *result.summaries]
    rows = [[*(k.label for k in g.keys), *g.values] for g in result.groups]
    return header, rows


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)


def render(result: ReportResult, fmt: str) -> str:
    from rich.console import Console
    from rich.table import Table

    from crm_tui.org.reports.definition import summary_unit

    header, rows = _cells(result)
    if fmt == "json":
        doc: dict[str, Any] = {
            "summaries": list(result.summaries),
            "groupings": list(result.grouping_labels),
            "total": list(result.total),
            "record_count": result.record_count,
            "truncated": result.truncated,
            "today": result.today.isoformat() if isinstance(result.today, date) else None,
        }
        if result.grouping_labels:
            doc["groups"] = [
                {
                    "keys": [
                        {"value": k.value, "label": k.label, "record_id": k.record_id}
                        for k in g.keys
                    ],
                    "values": dict(zip(result.summaries, g.values, strict=True)),
                }
                for g in result.groups
            ]
        else:
            doc["columns"] = list(result.columns)
            doc["rows"] = [
                dict(zip(result.columns, r, strict=True), Id=i)
                for r, i in zip(result.rows, result.row_ids, strict=True)
            ]
        return json.dumps(doc, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        if result.grouping_labels:
            writer.writerow(["Total", *[""] * (len(result.grouping_labels) - 1), *result.total])
        return out.getvalue()
    title = result.definition.name or f"{result.definition.object_name} report"
    # The title on its own line: as the table's title it wrapped into the table's width.
    table = Table()
    n_keys = len(result.grouping_labels)
    for i, h in enumerate(header):
        summary = bool(result.grouping_labels) and i >= n_keys
        unit = summary_unit(result.definition, h) if summary else None
        shown = f"{h} ({unit})" if unit else h
        # A header stays whole (up to a point) instead of breaking mid-word.
        table.add_column(
            shown, justify="right" if summary else "left", min_width=min(len(shown), 30)
        )
    for row in rows:
        table.add_row(*(_number(c) for c in row))
    if result.grouping_labels:
        table.add_row("[b]Total[/b]", *[""] * (n_keys - 1), *(_number(v) for v in result.total))
    if result.truncated:
        table.caption = "more rows or groups than shown"
    console = Console(file=io.StringIO(), width=120, force_terminal=False)
    console.print(
        f"{title}  ({result.record_count:,} records)", markup=False, highlight=False, soft_wrap=True
    )
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return str(text)
