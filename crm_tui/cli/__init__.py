"""The `crm-tui` command line. Each layer's commands live in a module of this package."""

from __future__ import annotations

import os
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
    except Exception as exc:
        # The last net for an error no check foresaw: one line, without the values a
        # database error quotes (its statement's parameters: an invitation's salt and
        # hash); the traceback on demand.
        if os.environ.get("CRM_TUI_TRACEBACK") == "1":
            raise
        click.echo(f"crm-tui: {_unforeseen(exc)} (CRM_TUI_TRACEBACK=1 shows where)", err=True)
        sys.exit(1)
    if isinstance(code, int) and code != 0:
        sys.exit(code)


def _unforeseen(exc: Exception) -> str:
    """An unexpected error in a line: a database error by its driver's own message (not
    SQLAlchemy's, which quotes the statement and its values), anything else by its type
    and the first line of its message."""
    cause = getattr(exc, "orig", None)
    if isinstance(cause, Exception):
        return f"{type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''}"
    text = str(exc).splitlines()[0][:300] if str(exc) else ""
    return f"unexpected {type(exc).__name__}" + (f": {text}" if text else "")
