"""`crm-tui org serve`: the local org as a Salesforce REST endpoint on loopback."""

from __future__ import annotations

import json
import shlex
import signal
import threading
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote_plus

import click

from crm_tui import paths
from crm_tui.cli.defaults import default_org
from crm_tui.cli.options import org_path_option
from crm_tui.paths import is_loopback

if TYPE_CHECKING:
    from collections.abc import Callable

    from crm_tui.org.server.rest import OrgServer


@click.command()
@org_path_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (keep loopback unless you mean otherwise).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8443,
    show_default=True,
    help="Port (0 = any free port).",
)
@click.option(
    "--tls",
    is_flag=True,
    help="Serve https with a fresh test CA (simple-salesforce always uses https).",
)
@click.option(
    "--today",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="Date that TODAY, LAST_N_DAYS:n, ... count from (default: the org's).",
)
@click.option(
    "--username",
    envvar="CRM_TUI_SERVE_USERNAME",
    default=None,
    help="User that may log in (env CRM_TUI_SERVE_USERNAME; default admin@crm-tui.local).",
)
@click.option(
    "--password",
    envvar="CRM_TUI_SERVE_PASSWORD",
    default=None,
    help="Its password (env CRM_TUI_SERVE_PASSWORD; default: a new random one each run).",
)
@click.option(
    "--query-workers",
    type=click.IntRange(0, 64),
    default=None,
    help="Processes that answer queries returning many records, so other clients are "
    "answered meanwhile (default: one per CPU, at most 4; 0 = in the server's process).",
)
@click.option("--verbose", is_flag=True, help="Log every request.")
def serve(
    org_path: Path | None,
    host: str,
    port: int,
    tls: bool,
    today: datetime | None,
    username: str | None,
    password: str | None,
    query_workers: int | None,
    verbose: bool,
) -> None:
    """Answer simple-salesforce (and so CRMArena's harness) from a local org, read-only.

    Only the printed username and password log in (SOAP or OAuth password grant); the
    session id they get is printed too.
    """
    from crm_tui.org.server.rest import DEFAULT_USERNAME, OrgServer, default_query_workers

    path = org_path or default_org()
    context = None
    if tls:
        from crm_tui.org.server.loopback_tls import make_loopback_certificates

        certs = make_loopback_certificates(paths.data_home() / "loopback-tls")
        context = certs.server_context()
    server = OrgServer(
        path,
        host=host,
        port=port,
        tls=context,
        today=today.date() if today else None,
        verbose=verbose,
        username=username or DEFAULT_USERNAME,
        password=password or None,
        query_workers=default_query_workers() if query_workers is None else query_workers,
    )

    def announce() -> None:
        if not tls and not is_loopback(host):
            click.echo(
                f"warning: listening on {host} over plain http: the password and session id "
                "travel in clear; serve with --tls, or keep loopback",
                err=True,
            )
        click.echo(f"serving {path} at {server.url} (read-only; Ctrl-C stops)")
        click.echo(f"session id : {server.session_id}")
        click.echo(f"username   : {server.username}")
        click.echo(f"password   : {server.password}")
        if tls:
            for label, line in _https_lines(server.url, server.session_id, certs.ca_pem):
                click.echo(f"{label:<11}: {line}")
        else:
            for label, line in _http_lines(server.url, server.session_id):
                click.echo(f"{label:<11}: {line}")
        click.echo(
            f"or login   : Salesforce(username='{server.username}', password='{server.password}', "
            "security_token='', session=session) with login.salesforce.com sent here"
        )

    # The lines go out once SIGTERM is handled: a client may stop the server on reading them.
    serve_until_signalled(server, announce)


def serve_until_signalled(server: OrgServer, announce: Callable[[], None] = lambda: None) -> None:
    """Serve in this (the main) thread until SIGTERM or Ctrl-C, then stop the server and
    its query workers, and put back the signal handlers the caller had. `announce` (the
    lines saying where the server is) runs once the handlers are in place.

    The handler only asks the accept loop to end; raising from it instead (Ctrl-C's
    KeyboardInterrupt) could land anywhere, for example between a request's thread
    starting and the loop noting it, and leave the server running with its books wrong.
    """
    stopping = threading.Event()

    def ask_to_stop(_signal: int, _frame: object) -> None:
        if not stopping.is_set():
            stopping.set()
            # `shutdown()` waits for the loop to end, so not in the loop's own thread.
            threading.Thread(target=server.httpd.shutdown, daemon=True).start()

    previous = {sig: signal.signal(sig, ask_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        announce()
        server.serve_forever()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.stop()


# Lines a person pastes into a shell as printed (tests/cli/test_serve_lines.py runs them).
def _https_lines(url: str, session_id: str, ca_pem: Path) -> list[tuple[str, str]]:
    """The app and simple-salesforce verify the server's certificate with the printed CA:
    requests reads REQUESTS_CA_BUNDLE, so no code changes."""
    trust = f"REQUESTS_CA_BUNDLE={shlex.quote(str(ca_pem))}"
    login = (
        f"SALESFORCE_INSTANCE_URL={shlex.quote(url)} "
        f"SALESFORCE_SESSION_ID={shlex.quote(session_id)}"
    )
    # double quotes inside, so the shell's single quotes around it need no escapes
    client = (
        "from simple_salesforce import Salesforce; "
        f"sf = Salesforce(instance_url={json.dumps(url)}, session_id={json.dumps(session_id)}, "
        'version="59.0"); print(sf.query("SELECT COUNT() FROM Case")["totalSize"])'
    )
    return [
        ("trust CA", str(ca_pem)),
        ("app", f"{trust} {login} crm-tui --salesforce"),
        ("python", f"{trust} python3 -c {shlex.quote(client)}"),
    ]


def _http_lines(url: str, session_id: str) -> list[tuple[str, str]]:
    """Plain http: simple-salesforce (and so the app and CRMArena's harness) always speaks
    https, so no Salesforce(...) line could work; a raw REST call does."""
    query = f"{url}/services/data/v59.0/query/?q={quote_plus('SELECT COUNT() FROM Case')}"
    return [
        ("client", "simple-salesforce and crm-tui --salesforce speak https only: serve with --tls"),
        (
            "try",
            f"curl -s -H {shlex.quote('Authorization: Bearer ' + session_id)} {shlex.quote(query)}",
        ),
    ]
