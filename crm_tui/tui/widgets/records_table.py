"""A DataTable of SOQL records as Salesforce returns them: parent fields flattened to
`Account.Name` columns, child sub-queries shown as a count."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.widgets import DataTable

CELL_WIDTH = 60  # long text is cut here; the table is for scanning, not reading


def flatten(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"Account": {"Name": "Acme"}} -> {"Account.Name": "Acme"}; `attributes` dropped."""
    flat: dict[str, Any] = {}
    for key, value in record.items():
        if key == "attributes":
            continue
        name = prefix + key
        if isinstance(value, dict) and "records" in value:
            flat[name] = f"{value['totalSize']} records"
        elif isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def leaf_columns(rows: list[dict[str, Any]]) -> list[str]:
    """Every key in order of first appearance, less a relationship that was empty in one
    record (`Account`: None) when another record has its fields (`Account.Name`)."""
    keys = list(dict.fromkeys(key for row in rows for key in row))
    return [key for key in keys if not any(other.startswith(key + ".") for other in keys)]


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"  # as in Salesforce's JSON
    text = " ".join(str(value).split())
    return text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…"


class RecordsTable(DataTable[str]):
    def show_records(self, records: list[dict[str, Any]]) -> None:
        self.clear(columns=True)
        flat = [flatten(record) for record in records]
        columns = leaf_columns(flat)
        rows = [[cell_text(row.get(column)) for column in columns] for row in flat]
        # widths set here, not measured later by the table: the first paint is already right
        for index, column in enumerate(columns):
            self.add_column(
                column, width=max([cell_len(column)] + [cell_len(row[index]) for row in rows])
            )
        self.add_rows(rows)
