"""`crm-tui study ...`: create a study from a preset or options, and watch its progress."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from crm_tui import paths
from crm_tui.cli.defaults import default_org, default_taskset
from crm_tui.cli.options import (
    ProfileModeChoice,
    crm_years_option,
    job_role_option,
    study_db_option,
)
from crm_tui.cli.output import print_table, printable, say_how_read

if TYPE_CHECKING:
    from crm_tui.study.coordination import StudySummary

# The study's modules are imported inside each command: they load SQLAlchemy and SQLModel,
# which `crm-tui --version`, `--help` and the other command groups never need.


@click.group()
def study() -> None:
    """Create studies and follow their progress."""


@study.command()
@click.argument("name")
@click.option(
    "--preset",
    default=None,
    help="Preset name in annotations/ or a .toml path, e.g. paper-expert-study.",
)
@click.option(
    "--org",
    "org_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Org file the tasks belong to (default: the local default org).",
)
@click.option(
    "--tasks",
    "tasks_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Task set generated from that org (default: the local task set).",
)
@click.option(
    "--items", type=int, default=None, help="Queries per annotator (default: the preset's, or 5)."
)
@click.option("--annotators-per-item", type=int, default=None, help="Overlap per item.")
@click.option("--seed", type=int, default=None, help="Seed of every annotator's order.")
@click.option(
    "--time-limit",
    "time_limit_minutes",
    type=float,
    default=None,
    help="Minutes of active time per query.",
)
@click.option(
    "--training/--no-training",
    "training_feedback",
    default=None,
    help="Show whether each answer was right after submitting.",
)
@click.option(
    "--distinct-families/--any-family",
    "distinct_families",
    default=None,
    help="Give each annotator queries from different task families.",
)
@study_db_option
def create(
    name: str,
    preset: str | None,
    org_path: Path | None,
    tasks_path: Path | None,
    items: int | None,
    db_path: Path | None,
    **settings: Any,
) -> None:
    """Create study NAME over a task set, from a preset and/or options."""
    from crm_tui.study.coordination import create_study

    created = create_study(
        db_path or paths.default_study_path(),
        name,
        preset=preset,
        taskset_path=tasks_path or default_taskset(),
        org_path=org_path,
        default_org=default_org,
        items=items,
        **settings,
    )
    if created.in_crmarena_org:
        click.echo(
            "Its queries point into CRMArena's Salesforce org: solve them there with "
            "`crm-tui --salesforce` (credentials of that org)."
        )
    click.echo(
        f"created study {created.name!r} in {created.location}: {created.items} items, "
        f"{created.items_per_annotator} per annotator, "
        f"{created.annotators_per_item} annotator(s) per item, seed {created.seed}"
    )


@study.command()
@click.option("--study", "study_name", default=None, help="One study (default: all).")
@study_db_option
def status(study_name: str | None, db_path: Path | None) -> None:
    """Progress per study and per annotator (counts only, no answers)."""
    from crm_tui.study.coordination import StudyFile
    from crm_tui.study.service import StudyService

    path = db_path or paths.default_study_path()
    if study_name is not None:  # one study, picked as the app and `crm-tui results` pick it
        with StudyService.open(path, name=study_name, read_only=True) as service:
            say_how_read(service.note)
            _print_summary(service.summary())
        return
    with StudyFile.open_read_only(path) as study_file:
        say_how_read(study_file.note)
        summaries = study_file.summaries()
    if not summaries:
        click.echo(f"no studies in {study_file.location}")  # a URL: without its password
    for summary in summaries:
        _print_summary(summary)


def _print_summary(summary: StudySummary) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    s = summary.study
    attempts = ", ".join(f"{n} {status}" for status, n in summary.attempts.items())
    click.echo(
        f"{printable(s.name)} ({printable(s.preset or 'custom')})  org {s.org_fingerprint}  "
        f"task set {s.task_set_hash[:12]}"
    )
    click.echo(
        f"  {summary.items} items in {summary.families} families; "
        f"{s.items_per_annotator} per annotator, {s.annotators_per_item} per item"
    )
    click.echo(f"  attempts: {attempts}; {summary.ratings} ratings, {summary.flags} flags")
    if not summary.annotators:
        click.echo("  nobody has started yet")
        return
    kinds = [p.kind for p in summary.annotators[0].parts]
    table = Table()
    table.add_column("Annotator")
    for kind in kinds:
        table.add_column(kind, justify="right")
    for person in summary.annotators:
        name = Text(printable(person.annotator))  # not markup: a name is as typed
        table.add_row(name, *(f"{p.done}/{p.total}" for p in person.parts))
    print_table(table, Console())


@study.command()
@click.argument("name")
@click.option("--role", required=True, help="Job title, e.g. 'Customer Service Manager'.")
@click.option(
    "--years", "crm_years", type=float, default=0.0, show_default=True, help="Years using a CRM."
)
@click.option(
    "--mode",
    type=ProfileModeChoice(),
    default="annotator",
    show_default=True,
    help="What the profile may see: annotators never see gold answers; auditors "
    "and coordinators do (audit mode, results).",
)
@study_db_option
def profile(name: str, role: str, crm_years: float, mode: str, db_path: Path | None) -> None:
    """Add profile NAME. The app creates annotators; auditors and coordinators, who see gold
    answers, are made here by whoever runs the study."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open(db_path or paths.default_study_path()) as study_file:
        made = study_file.add_profile(name, role, crm_years, mode)
    click.echo(
        f"added {made.mode} profile {made.name!r} ({made.role}, "
        f"{made.crm_years:g} years using a CRM) to {study_file.location}"
    )


@study.command()
@click.argument("name")
@click.option(
    "--role",
    "mode",
    type=ProfileModeChoice(),
    required=True,
    help="What the person may see: annotators never see gold answers; auditors and "
    "coordinators do (audit, results).",
)
@click.option("--study", "study_name", default=None, help="The study the invitation is for.")
@crm_years_option
@job_role_option
@click.option(
    "--expires",
    default="14d",
    show_default=True,
    help="How long the code may wait for its first use: 14d, 36h, 90m, 2w.",
)
@click.option("--url", default=None, help="Where the person opens the app (crm-tui web).")
@study_db_option
def invite(
    name: str,
    mode: str,
    study_name: str | None,
    crm_years: float,
    job_role: str,
    expires: str,
    url: str | None,
    db_path: Path | None,
) -> None:
    """Invite NAME: make the profile and print its code, once. The person types the code
    when the app starts; the role comes from it."""
    from crm_tui.study.coordination import StudyFile, parse_expiry

    expires_in = parse_expiry(expires)  # a bad expiry: refused before the file is made
    with StudyFile.open(db_path or paths.default_study_path()) as study_file:
        issued = study_file.invite(
            name,
            mode,
            job_role=job_role,
            crm_years=crm_years,
            study_name=study_name,
            expires_in=expires_in,
        )
    click.echo(f"invited {issued.name!r} as {issued.mode} in {study_file.location}")
    click.echo(f"code: {issued.code}")
    click.echo(
        f"  shown only now; first use by {issued.expires_at:%Y-%m-%d %H:%M} UTC, then it "
        f"reopens the profile until `crm-tui study revoke {issued.name!r}`"
    )
    if url:
        click.echo(f"url: {url}")
    if issued.without_code:
        names = ", ".join(repr(n) for n in issued.without_code)
        click.echo(
            f"note: the app now opens on the code screen; {len(issued.without_code)} "
            f"profile(s) have no code: {names}. `crm-tui study invite NAME --role ROLE` "
            "gives each one its code (the profile and its work are kept)."
        )


@study.command("db-login")
@click.argument("name")
@crm_years_option
@job_role_option
@study_db_option
def db_login(name: str, crm_years: float, job_role: str, db_path: Path | None) -> None:
    """Give annotator NAME a PostgreSQL login of their own and print its URL, once: with
    it the app opens their profile, and no SQL reads a gold answer, an invitation or
    anyone else's work. Run with the store owner's URL (it creates a role)."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_existing(db_path or paths.default_study_path()) as study_file:
        issued = study_file.db_login(name, job_role=job_role, crm_years=crm_years)
    click.echo(f"made PostgreSQL login {issued.rolname} for annotator {issued.name!r}")
    click.echo(f"url: {issued.url}")
    click.echo(
        "  shown only now; give it to them as CRM_TUI_STUDY_URL (never the owner's URL); "
        f"`crm-tui study revoke {issued.name!r}` stops it"
    )


@study.command()
@click.argument("name")
@click.option(
    "--drop",
    is_flag=True,
    help="Also remove NAME's PostgreSQL login roles from the server (their work stays).",
)
@study_db_option
def revoke(name: str, drop: bool, db_path: Path | None) -> None:
    """Revoke NAME's invitation code: it opens nothing from now on. Their PostgreSQL
    logins stop too; with --drop their roles are removed from the server."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_existing(db_path or paths.default_study_path()) as study_file:
        done = study_file.revoke(name, drop=drop)
    if done.logins_dropped:
        roles = ", ".join(done.logins_dropped)
        click.echo(
            f"revoked {done.name!r}: {done.codes} code(s); dropped PostgreSQL login(s) "
            f"{roles} (their work stays in the store); `crm-tui study db-login` makes a new one"
        )
        return
    click.echo(
        f"revoked the code of {name.strip()!r} (and any PostgreSQL login of theirs); "
        "`crm-tui study invite` makes a new one"
    )


@study.command("db-logins")
@study_db_option
def db_logins(db_path: Path | None) -> None:
    """Every annotator's PostgreSQL login: person, role name, state (active, revoked,
    dropped), when it was made and whether it is connected now. Run with the owner's URL."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_existing(db_path or paths.default_study_path()) as study_file:
        rows = study_file.db_logins()
    if not rows:
        click.echo(f"no PostgreSQL logins in {study_file.location}")
        return
    # PostgreSQL keeps no record of past connections: only the sessions open now.
    header = ("name", "login", "state", "made", "connected")
    lines = [header] + [
        (
            printable(row.name),
            row.login.rolname,
            row.login.state,
            f"{row.login.created_at:%Y-%m-%d %H:%M}",
            _connected(row.login.sessions, row.login.since),
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def _connected(sessions: int, since: datetime | None) -> str:
    if not sessions:
        return "-"
    started = "" if since is None else f", since {since.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    return f"now ({sessions} session{'s' if sessions > 1 else ''}{started})"


@study.command()
@study_db_option
def invitations(db_path: Path | None) -> None:
    """Every invitation: name, role, state (pending, used, expired, revoked); never a code."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_read_only(db_path or paths.default_study_path()) as study_file:
        say_how_read(study_file.note)
        rows = study_file.invitations()
    if not rows:
        click.echo(f"no invitations in {study_file.location}")
        return
    # Plain columns, one line per invitation (times in UTC), whatever the terminal's width.
    header = ("name", "role", "state", "study", "invited", "first use by", "used")
    lines = [header] + [
        (
            printable(row.name),
            row.mode.value,
            row.state.value,
            printable(row.study or "-"),
            f"{row.created_at:%Y-%m-%d %H:%M}",
            f"{row.expires_at:%Y-%m-%d %H:%M}",
            "-" if row.used_at is None else f"{row.used_at:%Y-%m-%d %H:%M}",
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


@study.command("export")
@click.option("--profile", "profile_name", required=True, help="Whose work to export.")
@click.option("--study", "study_name", default=None, help="The study (default: the newest).")
@click.option(
    "--out",
    "out_path",
    type=click.Path(path_type=Path),
    required=True,
    help="The work file to write (JSON, readable by you only).",
)
@click.option("--force", is_flag=True, help="Replace the work file if it exists.")
@study_db_option
def export_command(
    profile_name: str,
    study_name: str | None,
    out_path: Path,
    force: bool,
    db_path: Path | None,
) -> None:
    """Write one person's work in a study (done on this computer) to a file, for the
    coordinator to merge with `crm-tui study merge`. It holds their answers, never gold."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_read_only(db_path or paths.default_study_path()) as study_file:
        say_how_read(study_file.note)
        done = study_file.export_work(profile_name, out_path, study_name=study_name, force=force)
    click.echo(
        f"exported {done.profile}'s work in study {done.study!r} to {done.path}: "
        f"{done.attempts} attempt(s), {done.events} event(s), {done.ratings} rating(s), "
        f"{done.flags} flag(s)"
    )


@study.command("copy")
@click.argument("out_path", metavar="OUT", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace OUT if it is a file.")
@study_db_option
def copy_command(out_path: Path, force: bool, db_path: Path | None) -> None:
    """Copy the study file to OUT, whole, for offline work (a plain copy of the file can
    miss the latest writes, kept beside it in its -wal until SQLite moves them in). Safe
    while people work on the study."""
    from crm_tui.study.coordination import copy_study

    copied = copy_study(db_path or paths.default_study_path(), out_path, force=force)
    click.echo(f"copied the study to {copied.path} ({copied.size:,} bytes)")


@study.command("merge")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--study", "study_name", default=None, help="The study (default: the one the files name)."
)
@study_db_option
def merge_command(files: tuple[Path, ...], study_name: str | None, db_path: Path | None) -> None:
    """Merge work files exported from copies of a study into it: all of them or none.
    Merging a file again adds nothing."""
    from crm_tui.study.coordination import StudyFile

    with StudyFile.open_existing(db_path or paths.default_study_path()) as study_file:
        name, counts = study_file.merge_work(files, study_name=study_name)
    click.echo(f"merged {len(files)} file(s) into study {name!r}: {counts.describe()}")
