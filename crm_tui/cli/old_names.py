"""Commands kept under the name they had before, for one release: hidden from help, and
saying the new name each time they run, so scripts keep working while people move."""

from __future__ import annotations

from typing import Any

import click


def old_name(command: click.Command, name: str) -> click.Command:
    """`command` again under `name`: same options, same work, one line on stderr first."""
    assert command.callback is not None
    new_name = command.name

    def callback(*args: Any, **kwargs: Any) -> Any:
        click.echo(
            f"crm-tui: '{name}' is now '{new_name}'; the old name goes in the next release.",
            err=True,
        )
        return click.get_current_context().invoke(command.callback, *args, **kwargs)  # type: ignore[arg-type]

    return click.Command(
        name,
        params=command.params,
        callback=callback,
        help=command.help,
        hidden=True,
        context_settings=command.context_settings,
    )
