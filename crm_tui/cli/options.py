"""Options several command groups share."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from crm_tui import paths

if TYPE_CHECKING:
    StudyLocationParamType = click.ParamType[paths.StudyLocation, paths.StudyLocation]
else:  # ParamType takes type arguments at run time only from click 8.4 on
    StudyLocationParamType = click.ParamType


class StudyLocationType(StudyLocationParamType):
    """A study file's path, or a PostgreSQL URL, kept as text (a Path would fold its `//`)."""

    name = "FILE|URL"

    def convert(
        self, value: paths.StudyLocation, param: click.Parameter | None, ctx: click.Context | None
    ) -> paths.StudyLocation:
        return paths.study_location(value) if isinstance(value, str) else value


# The value is a Path or a URL (str), never None: without --db, the store the environment
# names (CRM_TUI_STUDY_URL, CRM_TUI_STUDY) or the local study file, read at each call.
study_db_option = click.option(
    "--db",
    "db_path",
    type=StudyLocationType(),
    default=paths.default_study_location,
    show_default=False,
    help="Study file, or a PostgreSQL server: postgresql://user@host/db (password in "
    "PGPASSWORD or ~/.pgpass rather than on the command line) (default: the local study "
    "file; env CRM_TUI_STUDY_URL, CRM_TUI_STUDY).",
)

# A person's profile as `study invite` and `study db-login` make it.
crm_years_option = click.option(
    "--crm-years", type=float, default=0.0, show_default=True, help="Years using a CRM."
)
job_role_option = click.option(
    "--job-role",
    default="Study participant",
    show_default=True,
    help="Job title, e.g. 'Customer Service Manager'.",
)


class ProfileModeChoice(click.Choice[str]):
    """The profile modes (`crm_tui.study.views.Mode`), read when click first needs them
    (parsing, a command's help): the models load SQLAlchemy, which `crm-tui --version`,
    `--help` and the commands of other groups never need."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from crm_tui.study.views import Mode

        return tuple(mode.value for mode in Mode)

    @choices.setter
    def choices(self, _: tuple[str, ...]) -> None:
        """click.Choice sets its choices in __init__; these come from Mode instead."""


org_path_option = click.option(
    "--org",
    "org_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Org file (default: the local default org).",
)
