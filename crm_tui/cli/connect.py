"""Choosing the org the app opens: the local store (default) or a Salesforce org."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from crm_tui.paths import StudyLocation

if TYPE_CHECKING:
    from crm_tui.org.backends.salesforce import SalesforceBackend


_F = TypeVar("_F", bound=Callable[..., Any])


def salesforce_options(command: _F) -> _F:
    """--salesforce, --env-file and --domain, for commands that open an org."""
    command = click.option(
        "--domain",
        default=None,
        help="Login domain: login (default), test for a sandbox, or a My Domain such as "
        "acme.my (env SALESFORCE_DOMAIN).",
    )(command)
    command = click.option(
        "--env-file",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        help="A .env file with the SALESFORCE_* credentials (default: ./.env if present; "
        "the environment wins).",
    )(command)
    return click.option(
        "--salesforce",
        is_flag=True,
        default=False,
        help="Open a live Salesforce org (read-only) instead of a local org file, with "
        "credentials from SALESFORCE_USERNAME/PASSWORD/SECURITY_TOKEN or "
        "SALESFORCE_INSTANCE_URL/SESSION_ID.",
    )(command)


def open_salesforce(env_file: Path | None, domain: str | None) -> SalesforceBackend:
    # Imported here: simple-salesforce is slow to load and only this path needs it.
    from crm_tui.org.backends.salesforce import SalesforceBackend
    from crm_tui.org.backends.sf_connection import load_credentials

    click.echo("Connecting to Salesforce…", err=True)
    backend = SalesforceBackend(load_credentials(env_file, domain))
    click.echo(f"Connected to org {backend.fingerprint}", err=True)
    return backend


def run_on_salesforce(
    env_file: Path | None,
    domain: str | None,
    study_path: StudyLocation,
    study_name: str | None = None,
    require_code: bool = False,
    code_source: str = "terminal",
) -> None:
    """The app on a Salesforce org; prints the API calls it made when it closes."""
    from crm_tui.tui.app import Launch, create_app

    backend = open_salesforce(env_file, domain)
    app = create_app(
        Launch(
            backend=backend,
            study=study_path,
            study_name=study_name,
            require_code=require_code,
            code_source=code_source,
        )
    )
    try:
        app.run()
    finally:
        click.echo(str(backend.usage), err=True)
    if app.return_code:  # the app died of an error it printed: not a success
        raise click.exceptions.Exit(app.return_code)
