"""`crm-tui audit ...`: adjudicate a study's gold (the queue, decisions, versions), compare
the scores under both golds, and release the realism ratings."""

from __future__ import annotations

import os
from pathlib import Path

import click

from crm_tui.cli.options import study_db_option
from crm_tui.cli.output import print_table
from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation

study_option = click.option(
    "--study", "study_name", default=None, help="Study name (default: the newest in the file)."
)
as_option = click.option(
    "--as",
    "adjudicator",
    required=True,
    help="The coordinator or auditor profile who decides (stored with the decision).",
)
repo_option = click.option(
    "--repo", default=None, help="Also push to this Hugging Face dataset repository (user/name)."
)
token_file_option = click.option(
    "--token-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="File holding the Hub token for --repo (default: env HF_TOKEN); never printed.",
)
endpoint_option = click.option(
    "--endpoint",
    envvar="HF_ENDPOINT",
    default=None,
    help="Hub address (env HF_ENDPOINT; default https://huggingface.co).",
)
license_option = click.option(
    "--license",
    "license_id",
    default=None,
    help="Licence in the dataset card (default: CRMArena's cc-by-nc-4.0 for its queries, "
    "else apache-2.0).",
)


def hub_token(token_file: Path | None) -> str:
    """The Hub token from --token-file or HF_TOKEN; one line naming where to put it."""
    token = (
        token_file.read_text(encoding="utf-8").strip()
        if token_file
        else os.environ.get("HF_TOKEN", "").strip()
    )
    if not token:
        raise CrmTuiError("--repo needs a Hub token: set HF_TOKEN or give --token-file")
    return token


def push(folder: Path, repo: str, token_file: Path | None, endpoint: str | None) -> None:
    from crm_tui.tasks.release import push_release

    address = push_release(folder, repo, hub_token(token_file), endpoint=endpoint)
    click.echo(f"pushed to {address}")


@click.group()
def audit() -> None:
    """Adjudicate a study's gold answers and release the result."""


@audit.command()
@study_option
@as_option
@study_db_option
def queue(study_name: str | None, adjudicator: str, db_path: StudyLocation) -> None:
    """The adjudication queue: flagged queries and those people agree on against the gold,
    heaviest evidence first."""
    from rich.console import Console
    from rich.table import Table

    from crm_tui.study.service import StudyService
    from crm_tui.tasks.scoring import gold_text

    with StudyService.open(db_path, name=study_name) as service:
        items = service.adjudication_queue(service.adjudicator(adjudicator))
    table = Table(title=f"Adjudication queue ({len(items)} queries)", title_justify="left")
    for column in ("idx", "Task", "Weight", "Gold", "Evidence", "Status"):
        table.add_column(column)
    for item in items:
        table.add_row(
            str(item.idx),
            item.task,
            f"{item.weight:g}",
            gold_text(item.gold),
            "; ".join(item.reasons),
            item.status,
        )
    print_table(table, Console())


@audit.command()
@click.argument("idx", type=int)
@click.argument("decision", type=click.Choice(["keep", "correct", "drop"]))
@click.option("--category", required=True, help="A key of the study's audit taxonomy.")
@click.option("--gold", "new_gold", default=None, help="The corrected gold (with correct).")
@click.option("--note", default=None, help="Why (stored with the decision).")
@click.option(
    "--task-set",
    default=None,
    help="The content hash of the task set IDX belongs to (refused unless the study's).",
)
@study_option
@as_option
@study_db_option
def decide(
    idx: int,
    decision: str,
    category: str,
    new_gold: str | None,
    note: str | None,
    task_set: str | None,
    study_name: str | None,
    adjudicator: str,
    db_path: StudyLocation,
) -> None:
    """Keep, correct or drop query IDX, with a category and a note."""
    from crm_tui.study.service import StudyService

    with StudyService.open(db_path, name=study_name) as service:
        made = service.decide(
            service.adjudicator(adjudicator), idx, decision, category, note, new_gold, task_set
        )
    gold = f" to {made.new_gold!r}" if decision == "correct" else ""
    click.echo(f"query {idx}: {made.decision}{gold} ({made.category}) by {made.adjudicator}")


@audit.command()
@study_option
@as_option
@study_db_option
def version(study_name: str | None, adjudicator: str, db_path: StudyLocation) -> None:
    """Make a new task-set version from the decisions in force (never an edit in place)."""
    from crm_tui.study.service import StudyService

    with StudyService.open(db_path, name=study_name) as service:
        made = service.make_version(service.adjudicator(adjudicator))
    click.echo(f"made {made.summary}; parent {made.parent_hash[:12]}")


@audit.command()
@click.option(
    "--with-excluded",
    is_flag=True,
    help="Keep the people and attempts a coordinator excluded, as `crm-tui results` does.",
)
@study_option
@study_db_option
def compare(with_excluded: bool, study_name: str | None, db_path: StudyLocation) -> None:
    """People's and agents' scores under the original and the latest corrected gold, over
    the measured queries as the results count them."""
    from rich.console import Console

    from crm_tui.study.adjudication.gold_tables import gold_table
    from crm_tui.study.service import StudyService

    with StudyService.open(db_path, name=study_name, read_only=True) as service:
        comparison = service.gold_comparison(with_excluded=with_excluded)
        listed = service.task_set_versions()
    if comparison is None:
        raise CrmTuiError("the study has no audited version yet: run `crm-tui audit version`")
    for made in listed:
        click.echo(made.summary)
    print_table(gold_table(comparison), Console())


@audit.command(name="export-ratings")
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Release folder to write."
)
@click.option("--force", is_flag=True, help="Replace an existing --out folder.")
@license_option
@repo_option
@token_file_option
@endpoint_option
@study_option
@study_db_option
def export_ratings(
    out: Path,
    force: bool,
    license_id: str | None,
    repo: str | None,
    token_file: Path | None,
    endpoint: str | None,
    study_name: str | None,
    db_path: StudyLocation,
) -> None:
    """A realism study's ratings and agreement as JSON, JSONL, a Hugging Face dataset and
    a dataset card."""
    import json

    from crm_tui.study.adjudication.ratings_release import RATING_FEATURES
    from crm_tui.study.service import StudyService
    from crm_tui.tasks.release import check_release_folder, save_release

    check_release_folder(out, force)
    if repo:
        hub_token(token_file)  # before anything is written
    with StudyService.open(db_path, name=study_name, read_only=True) as service:
        made = service.ratings_release()
    if not made.rows:
        raise CrmTuiError(f"study {made.study!r} has no realism ratings: nothing was written")
    release = save_release(
        out,
        force=force,
        rows=made.rows,
        features=RATING_FEATURES,
        card=made.card(license_id or "cc-by-4.0"),
        files={
            "ratings.json": json.dumps(made.rows, indent=1, ensure_ascii=False) + "\n",
            "ratings.jsonl": "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in made.rows),
            "agreement.json": json.dumps(made.agreement, indent=2) + "\n",
        },
    )
    click.echo(f"wrote {out} ({release.rows} ratings: {', '.join(release.files)})")
    if repo:
        push(out, repo, token_file, endpoint)
