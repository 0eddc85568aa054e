"""The `crm-tui` command line. Each layer's commands live in a module of this package."""

from __future__ import annotations

import sys

import click

from crm_tui.cli.main import cli
from crm_tui.errors import CrmTuiError


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors become one clear line on stderr and a non-zero exit."""
    try:
        # Without standalone mode, click returns a command's `Exit(code)` instead of
        # exiting with it: the code is passed on here (0 ok, 1 failure, 2 usage).
        code = cli.main(args=argv, prog_name="crm-tui", standalone_mode=False)
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
    except OSError as exc:
        # The last net for a file system refusal the commands' own checks did not foresee
        # (disk full, a folder made read-only mid-run): one line naming the file.
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"crm-tui: {where}{exc.strerror or exc}", err=True)
        sys.exit(1)
    if isinstance(code, int) and code != 0:
        sys.exit(code)
