"""`crm-tui study ...`: create a study from a preset or options, and watch its progress."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from crm_tui import paths
from crm_tui.bench.taskset import CRMARENA, check_taskset_matches, load_taskset
from crm_tui.cli.options import study_db_option
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.db import StudyStore
from crm_tui.study.models import Mode, row_id
from crm_tui.study.profiles import create_profile
from crm_tui.study.progress import StudySummary, study_summary
from crm_tui.study.protocol import load_preset
from crm_tui.study.service import StudyService
from crm_tui.study.studies import (
    check_study,
    create_study,
    list_studies,
    solve_only_preset,
    with_overrides,
)

console = Console()


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
    if preset:
        chosen, preset_path = load_preset(preset)
    else:
        chosen, preset_path = solve_only_preset(items or 5), None
    chosen = with_overrides(chosen, items=items, **settings)
    taskset = load_taskset(tasks_path or paths.default_taskset_path())
    if taskset.fingerprint in (None, CRMARENA) and org_path is None:
        # CRMArena's own queries: their Ids live in CRMArena's Salesforce org, so the study
        # belongs to that org (solved with `crm-tui --salesforce`, or audited anywhere).
        fingerprint = CRMARENA
    else:
        with OrgStore.open(org_path or paths.default_org_path()) as org:
            check_taskset_matches(taskset, org)
            fingerprint = org.fingerprint
    # Refuse bad input before the study file is opened (or made).
    check_study(
        name,
        chosen,
        instances=[inst.to_row() for inst in taskset.instances],
        org_fingerprint=fingerprint,
        preset_path=preset_path,
    )
    with StudyStore.open(db_path or paths.default_study_path()) as store:
        created = create_study(
            store,
            name,
            chosen,
            preset_path=preset_path,
            instances=[inst.to_row() for inst in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=fingerprint,
        )
    if fingerprint == CRMARENA:
        click.echo(
            "Its queries point into CRMArena's Salesforce org: solve them there with "
            "`crm-tui --salesforce` (credentials of that org)."
        )
    click.echo(
        f"created study {created.name!r} in {store.path}: {len(taskset)} items, "
        f"{created.items_per_annotator} per annotator, "
        f"{created.annotators_per_item} annotator(s) per item, seed {created.seed}"
    )


@study.command()
@click.option("--study", "study_name", default=None, help="One study (default: all).")
@study_db_option
def status(study_name: str | None, db_path: Path | None) -> None:
    """Progress per study and per annotator (counts only, no answers)."""
    path = db_path or paths.default_study_path()
    if study_name is not None:  # one study, picked as the app and `crm-tui report` pick it
        with StudyService.open(path, name=study_name) as service:
            _print_summary(service.summary())
        return
    with StudyStore.open_existing(path) as store:
        studies = list_studies(store)
        if not studies:
            click.echo(f"no studies in {path}")
        for one in studies:
            _print_summary(study_summary(store, row_id(one)))


def _print_summary(summary: StudySummary) -> None:
    s = summary.study
    attempts = ", ".join(f"{n} {status}" for status, n in summary.attempts.items())
    click.echo(
        f"{s.name} ({s.preset or 'custom'})  org {s.org_fingerprint}  "
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
        table.add_row(person.annotator, *(f"{p.done}/{p.total}" for p in person.parts))
    console.print(table)


@study.command()
@click.argument("name")
@click.option("--role", required=True, help="Job title, e.g. 'Customer Service Manager'.")
@click.option(
    "--years", "crm_years", type=float, default=0.0, show_default=True, help="Years using a CRM."
)
@click.option(
    "--mode",
    type=click.Choice([m.value for m in Mode]),
    default=Mode.ANNOTATOR.value,
    show_default=True,
    help="What the profile may see: annotators never see gold answers; auditors "
    "and coordinators do (audit mode, results).",
)
@study_db_option
def profile(name: str, role: str, crm_years: float, mode: str, db_path: Path | None) -> None:
    """Add profile NAME. The app creates annotators; auditors and coordinators, who see gold
    answers, are made here by whoever runs the study."""
    with StudyStore.open(db_path or paths.default_study_path()) as store:
        made = create_profile(store, name, role, crm_years, mode)
    click.echo(
        f"added {made.mode} profile {made.name!r} ({made.role}, "
        f"{made.crm_years:g} years using a CRM) to {store.path}"
    )
