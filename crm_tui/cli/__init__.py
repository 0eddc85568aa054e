"""The `crm-tui` command line. Each layer's commands live in a module of this package."""

from __future__ import annotations

import sys

import click

from ..errors import CrmTuiError
from .main import cli


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors become one clear line on stderr and a non-zero exit."""
    try:
        cli.main(args=argv, prog_name="crm-tui", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.UsageError as exc:
        click.echo(f"crm-tui: {exc.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as exc:
        click.echo(f"crm-tui: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except CrmTuiError as exc:
        click.echo(f"crm-tui: {exc}", err=True)
        sys.exit(1)
