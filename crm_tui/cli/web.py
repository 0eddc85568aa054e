"""`crm-tui web`: the study app in web browsers, each tab its own app process.

Not `crm-tui org serve` (the org as a Salesforce REST endpoint): this one serves the app
itself through textual-serve. Every tab runs `python -m crm_tui --org … --study NAME`
(`--salesforce` instead of `--org` for a live org) with `--require-code`, in a process of
its own. The study store reaches it through the environment it inherits (CRM_TUI_STUDY,
or CRM_TUI_STUDY_URL for a PostgreSQL server), as Salesforce credentials do: never on a
command line.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from urllib.parse import urlsplit

import click

from crm_tui import paths
from crm_tui.cli.connect import salesforce_options
from crm_tui.cli.options import org_path_option, study_db_option
from crm_tui.paths import StudyLocation, is_loopback

DEFAULT_PORT = 8000
DEFAULT_MAX_TABS = 50  # each tab's app takes ~130 MB
DEFAULT_MAX_TABS_PER_ADDRESS = 10


@click.command("web")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Keep loopback and put a TLS reverse proxy in front "
    "(documentation: 'Serving a study in the browser').",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--public-url",
    default=None,
    help="The address browsers use, e.g. https://study.example.org behind a proxy "
    "(default: http://HOST:PORT).",
)
@click.option(
    "--study",
    "study_name",
    default=None,
    help="Study to serve (default: the latest made for the org).",
)
@click.option(
    "--max-tabs",
    type=click.IntRange(1),
    default=DEFAULT_MAX_TABS,
    show_default=True,
    help="Browser tabs served at once (each runs an app of ~130 MB); a tab past it is "
    "told the server is full.",
)
@click.option(
    "--max-tabs-per-address",
    type=click.IntRange(1),
    default=DEFAULT_MAX_TABS_PER_ADDRESS,
    show_default=True,
    help="Browser tabs served at once to one address (people behind one proxy or network "
    "address share it): one address cannot take every place.",
)
@click.option(
    "--trust-proxy",
    is_flag=True,
    help="A reverse proxy on this host is in front: read each browser's address from the "
    "X-Forwarded-For it sets (for lock-outs after wrong codes and the cap per address). "
    "Without it the header is ignored, as any client could write it.",
)
@study_db_option
@org_path_option
@salesforce_options
def web(
    host: str,
    port: int,
    public_url: str | None,
    study_name: str | None,
    max_tabs: int,
    max_tabs_per_address: int,
    trust_proxy: bool,
    db_path: StudyLocation | None,
    org_path: Path | None,
    salesforce: bool,
    env_file: Path | None,
    domain: str | None,
) -> None:
    """Serve the study app to web browsers; each tab runs its own app process."""
    # Imported here: aiohttp is slow to load, and every other command (each tab's app
    # among them) would pay for it.
    from crm_tui.org.store.orgstore import OrgStore
    from crm_tui.study.coordination import study_to_serve
    from crm_tui.web.server import StudyWebServer, url_host

    if salesforce and org_path is not None:
        raise click.UsageError("--org and --salesforce choose the org two ways: give one")
    url = public_url_for(url_host(host), port, public_url)
    if salesforce:
        org_args = _salesforce_args(env_file, domain)
        fingerprint = None  # known once connected; each session checks the study fits
    else:
        if org_path is None:
            from crm_tui.cli.org import ensure_first_run

            ensure_first_run()  # here, not in every tab's process at once
        org_file = (org_path or paths.default_org_path()).resolve()
        with OrgStore.open(org_file) as org:
            fingerprint = org.fingerprint
        org_args = ["--org", str(org_file)]
    location = db_path if db_path is not None else paths.default_study_location()
    if paths.is_database_url(location):  # a PostgreSQL server: its URL may hold a password
        shown = paths.redact_url(str(location))
        environment = {"CRM_TUI_STUDY_URL": str(location)}
    else:
        location = Path(location).resolve()
        shown = str(location)
        environment = {"CRM_TUI_STUDY_URL": "", "CRM_TUI_STUDY": shown}
    name = study_to_serve(location, shown, study_name, fingerprint)

    # textual-serve runs it through a shell; `exec` leaves one process per tab, the app.
    command = "exec " + shlex.join(
        [sys.executable, "-m", "crm_tui", *org_args, "--study", name, "--require-code"]
    )

    def announce() -> None:
        click.echo(f"Serving study {name!r} at {url} (study store {shown})")
        invite = shlex.join(["--study", name, "--db", shown, "--url", url])
        click.echo(
            "Each person opens it with an invitation code: "
            f"crm-tui study invite 'THEIR NAME' --role annotator {invite}"
        )
        click.echo("Each browser tab runs its own app. Stop with Ctrl+C.", err=True)

    if not is_loopback(host):
        click.echo(
            f"warning: listening on {host}: invitation codes and answers travel in clear "
            "unless a TLS reverse proxy is in front (pass its address as --public-url)",
            err=True,
        )
    StudyWebServer(
        command,
        host=host,
        port=port,
        public_url=url,
        title=f"crm-tui · study {name}",
        announce=announce,
        # Each tab's process inherits the server's environment (and so the Salesforce
        # credentials there), plus where the study store is: never on a command line,
        # since a server's URL may hold a password.
        environment=environment,
        max_tabs=max_tabs,
        max_tabs_per_address=max_tabs_per_address,
        trust_proxy=trust_proxy,
    ).run()


def public_url_for(host: str, port: int, public_url: str | None) -> str:
    if public_url is None:
        return f"http://{host}:{port}"
    url = public_url.rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise click.BadParameter(
            f"{public_url!r} is not an http(s) address such as https://study.example.org",
            param_hint="--public-url",
        )
    return url


def _salesforce_args(env_file: Path | None, domain: str | None) -> list[str]:
    """The child's options for a live org, once the credentials are found (not used: each
    session signs in itself). Only a file's path and a domain go on the command line."""
    from crm_tui.org.backends.sf_connection import load_credentials

    load_credentials(env_file, domain)  # missing credentials: one line now, not per tab
    args = ["--salesforce"]
    if env_file is not None:
        args += ["--env-file", str(env_file.resolve())]
    if domain is not None:
        args += ["--domain", domain]
    return args
