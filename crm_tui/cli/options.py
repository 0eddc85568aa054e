"""Options several command groups share."""

from __future__ import annotations

from pathlib import Path

import click

study_db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Study file (default: the local study file; env CRM_TUI_STUDY).",
)

org_path_option = click.option(
    "--org",
    "org_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Org file (default: the local default org).",
)
