"""The root command group: plain `crm-tui` opens the app on the local default org."""

from __future__ import annotations

import os
from pathlib import Path

import click

from crm_tui import paths
from crm_tui.cli.connect import run_on_salesforce, salesforce_options
from crm_tui.cli.gold_audit import audit
from crm_tui.cli.old_names import old_name
from crm_tui.cli.options import study_db_option
from crm_tui.cli.org import org
from crm_tui.cli.study import study
from crm_tui.cli.study_quality import COMMANDS as QUALITY_COMMANDS
from crm_tui.cli.study_results import agents, results
from crm_tui.cli.tasks import tasks
from crm_tui.cli.web import web
from crm_tui.paths import StudyLocation


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--org",
    "org_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Org file to open (default: the local default org; env CRM_TUI_ORG).",
)
@click.option(
    "--study",
    "study_name",
    default=None,
    help="Study to work on (default: the latest made for the org on show).",
)
@click.option(
    "--require-code",
    is_flag=True,
    help="Start on the invitation code, whatever the study file holds (crm-tui web "
    "passes it to each browser session).",
)
@study_db_option
@salesforce_options
@click.version_option(package_name="crm-tui")
@click.pass_context
def cli(
    ctx: click.Context,
    org_path: Path | None,
    study_name: str | None,
    require_code: bool,
    db_path: StudyLocation,
    salesforce: bool,
    env_file: Path | None,
    domain: str | None,
) -> None:
    """crm-tui: solve CRMArena tasks, rate realism and audit queries in a terminal."""
    if ctx.invoked_subcommand is not None:
        return
    if paths.is_database_url(db_path):
        _check_server(db_path)
    if salesforce:
        run_on_salesforce(
            env_file,
            domain,
            study_path=db_path,
            study_name=study_name,
            require_code=require_code,
            code_source=code_source(),
        )
        return
    from crm_tui.cli.org import ensure_first_run
    from crm_tui.tui.app import Launch, create_app

    paths.private_data_home()  # study files and each profile's files live in it
    if org_path is None:
        ensure_first_run()
    app = create_app(
        Launch(
            org_path=org_path or paths.default_org_path(),
            study=db_path,
            study_name=study_name,
            require_code=require_code,
            code_source=code_source(),
        )
    )
    app.run()
    if app.return_code:  # the app died of an error it printed: not a success
        raise click.exceptions.Exit(app.return_code)


def code_source() -> str:
    """Who is typing invitation codes: the browser tab's address where the web server set
    it for this process, else this terminal's user and machine (a study server shared by
    several machines counts each one's wrong codes apart)."""
    import getpass
    import socket

    served = os.environ.get(paths.CODE_SOURCE_VARIABLE)
    if served:
        return served
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this user id (a container)
        user = str(os.getuid()) if hasattr(os, "getuid") else "unknown"
    return f"terminal:{user}@{socket.gethostname()}"


def _check_server(url: StudyLocation) -> None:
    """Before the app starts: a study server that cannot be reached (down, wrong password,
    no study yet) is one line here rather than a notice inside the app."""
    from crm_tui.study.coordination import check_reachable

    check_reachable(url)


@cli.command()
def locate() -> None:
    """Print where crm-tui keeps its data."""
    click.echo(f"data folder : {paths.data_home()}")
    click.echo(f"default org : {paths.default_org_path()}")
    click.echo(f"task set    : {paths.default_taskset_path()}")
    study = paths.default_study_location()
    click.echo(f"study db    : {paths.redact_url(study) if isinstance(study, str) else study}")
    click.echo(f"task files  : {paths.bundled_dir('tasks')}")
    click.echo(f"protocols   : {paths.bundled_dir('annotations')}")


cli.add_command(org)
cli.add_command(agents)
cli.add_command(results)
cli.add_command(old_name(results, "report"))
cli.add_command(tasks)
cli.add_command(audit)
for command in QUALITY_COMMANDS:
    study.add_command(command)
cli.add_command(study)
cli.add_command(web)
cli.add_command(old_name(web, "serve"))
