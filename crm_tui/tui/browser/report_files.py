"""Saved report definitions: TOML files in a folder of the data home (`reports/`), one per
report, named after the report. The app says which folder (`CrmApp.reports_folder`): the
study app keeps one per profile."""

from __future__ import annotations

import re
from pathlib import Path

from crm_tui import paths
from crm_tui.atomic import write_text_atomically
from crm_tui.org.reports.definition import ReportDefinition, dump_definition, load_definition


def reports_home() -> Path:
    return paths.data_home() / "reports"


def file_name(name: str) -> str:
    """A file name for a report's name: letters, digits, dashes (`Cases by owner` ->
    `cases-by-owner.toml`)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return f"{slug or 'report'}.toml"


def list_saved(folder: Path) -> list[Path]:
    """The saved definitions of a folder, by name (none if it does not exist yet)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".toml", ".json"))


def save(folder: Path, definition: ReportDefinition) -> Path:
    """Write `definition` under its name (replacing a report of the same name)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(definition.name)
    write_text_atomically(path, dump_definition(definition))
    return path


def load(path: Path) -> ReportDefinition:
    definition = load_definition(path)
    return definition if definition.name else definition.with_(name=path.stem)
