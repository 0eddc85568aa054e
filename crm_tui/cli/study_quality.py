"""`crm-tui study quality|allow-retry|exclude|codes`: a coordinator's quality control of a
study: who consented, qualified, how they did on check items, their behaviour flags and
exclusions; one more qualification try; excluding with a reason; completion codes."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import click

from crm_tui import paths
from crm_tui.atomic import check_output_path, write_text_atomically
from crm_tui.cli.options import study_db_option

_STUDY = click.option(
    "--study", "study_name", default=None, help="Study name (default: the newest in the file)."
)


@click.command("quality")
@_STUDY
@click.option("--format", "output_format", type=click.Choice(["table", "json"]), default="table")
@study_db_option
def quality(study_name: str | None, output_format: str, db_path: Path | None) -> None:
    """Per person: consent, qualification, check items, behaviour flags, exclusions."""
    from rich.console import Console

    from crm_tui.study.service import StudyService

    with StudyService.open(
        db_path or paths.default_study_path(), name=study_name, read_only=True
    ) as service:
        overview = service.quality_overview()
    if overview is None:
        raise click.ClickException("this study has no quality controls (its preset sets none)")
    if output_format == "json":
        import orjson

        click.echo(orjson.dumps(overview, option=orjson.OPT_INDENT_2).decode())
        return
    from crm_tui.cli.output import print_table
    from crm_tui.study.results.render_quality import rich_quality_tables

    for table in rich_quality_tables(overview):
        print_table(table, Console())


@click.command("allow-retry")
@click.argument("name")
@_STUDY
@study_db_option
def allow_retry(name: str, study_name: str | None, db_path: Path | None) -> None:
    """Let NAME, who failed the qualification, try it once more."""
    from crm_tui.study.service import StudyService

    with StudyService.open(db_path or paths.default_study_path(), name=study_name) as service:
        tries = service.allow_retry(name)
    click.echo(f"{name} may now try the qualification {tries} times in all")


@click.command("exclude")
@click.argument("name")
@click.option("--reason", required=True, help="Why: kept with the exclusion and in the report.")
@click.option("--attempt", "attempt_id", type=int, default=None, help="Only this attempt.")
@click.option("--lift", is_flag=True, help="Count them (or the attempt) again.")
@_STUDY
@study_db_option
def exclude(
    name: str,
    reason: str,
    attempt_id: int | None,
    lift: bool,
    study_name: str | None,
    db_path: Path | None,
) -> None:
    """Exclude NAME (or one attempt) from the figures with a reason; nothing is deleted."""
    from crm_tui.study.service import StudyService

    with StudyService.open(db_path or paths.default_study_path(), name=study_name) as service:
        service.exclude(name, reason, attempt_id=attempt_id, lift=lift)
    what = name if attempt_id is None else f"attempt {attempt_id} of {name}"
    click.echo(f"{what} {'counted again' if lift else 'excluded'}: {reason}")


@click.command("codes")
@_STUDY
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
@study_db_option
def codes(study_name: str | None, out: Path | None, force: bool, db_path: Path | None) -> None:
    """Completion codes with names, as CSV (for a crowd platform's payment list)."""
    from crm_tui.study.service import StudyService

    if out is not None:
        check_output_path(out, force=force, what="the codes")
    with StudyService.open(
        db_path or paths.default_study_path(), name=study_name, read_only=True
    ) as service:
        rows = service.completion_codes()
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["name", "completion_code"])
    writer.writerows(rows)
    if out is None:
        click.echo(buffer.getvalue(), nl=False)
    else:
        write_text_atomically(out, buffer.getvalue(), private=True)
        click.echo(f"wrote {len(rows)} codes to {out}")


COMMANDS = [quality, allow_retry, exclude, codes]
