"""`crm-tui tasks ...`: generate task sets from an org, import CRMArena's, describe them."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from crm_tui.atomic import check_output_path
from crm_tui.cli.defaults import default_org
from crm_tui.cli.gold_audit import endpoint_option, license_option, repo_option, token_file_option
from crm_tui.cli.options import StudyLocationType, org_path_option
from crm_tui.cli.output import print_table
from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation

if TYPE_CHECKING:
    from crm_tui.org.store.orgstore import OrgStore
    from crm_tui.tasks.taskset import Instance

_Read = TypeVar("_Read")


@click.group()
def tasks() -> None:
    """Generate, import and describe task sets."""


@tasks.command()
@org_path_option
@click.option(
    "--per-task",
    type=click.IntRange(min=1),
    default=130,
    show_default=True,
    help="Instances per task family.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Task set to write (JSON array; JSONL if it ends in .jsonl).",
)
@click.option(
    "--allow-short", is_flag=True, help="Write what the org allows when a family cannot be filled."
)
@click.option(
    "--confidentiality",
    is_flag=True,
    help="Add CRMArena-Pro's three confidentiality categories (gold: a refusal) after the "
    "other families.",
)
@click.option("--force", is_flag=True, help="Replace an existing file.")
def generate(
    org_path: Path | None,
    per_task: int,
    seed: int,
    out: Path,
    allow_short: bool,
    confidentiality: bool,
    force: bool,
) -> None:
    """Generate the nine service task families with gold answers from an org, on a B2B
    org the ten sales families too, and with --confidentiality CRMArena-Pro's three
    confidentiality categories (deterministic)."""
    from concurrent.futures import ThreadPoolExecutor

    from crm_tui.org.store.check import find_damage
    from crm_tui.org.store.orgstore import OrgError, OrgStore
    from crm_tui.tasks.generate import generate_taskset
    from crm_tui.tasks.gold_rows import GoldRows
    from crm_tui.tasks.taskset import write_taskset

    check_output_path(out, force=force, what="the task set")
    started = time.perf_counter()
    with OrgStore.open(org_path or default_org()) as store, ThreadPoolExecutor(1) as pool:
        # Beside the generation, on connections of their own and so on the other core:
        # first the rows the period golds hold, which the generation asks for once it has
        # read its facts, then the damage check, a read of the whole file. Both run inside
        # SQLite, which runs without the GIL (the rows come as one JSON text: read row by
        # row, they handed the GIL back and forth with the facts' reading and slowed both).
        # The check has the last word: a damaged file gives its one line whatever the
        # generation made of it, never tasks from bad rows.
        held = pool.submit(_read_in_own_store, store.path, GoldRows.read)
        checking = pool.submit(_read_in_own_store, store.path, find_damage)
        try:
            with store.reading("generating tasks"):
                taskset = generate_taskset(
                    store,
                    per_task=per_task,
                    seed=seed,
                    allow_short=allow_short,
                    held=held.result,
                    confidentiality=confidentiality,
                )
        finally:
            damage = checking.result()
            if damage is not None:  # in place of what the generation raised, if it did
                raise OrgError(
                    f"{store.path} is damaged ({damage}); no task set was written"
                ) from None
    write_taskset(taskset, out)
    click.echo(
        f"wrote {out} ({len(taskset):,} instances for org {taskset.fingerprint}, "
        f"{time.perf_counter() - started:.1f} s)"
    )


def _read_in_own_store(path: Path, read: Callable[[OrgStore], _Read]) -> _Read:
    """`read` on a connection of its own (for another thread)."""
    from crm_tui.org.store.orgstore import OrgStore

    with OrgStore.open(path) as store:
        return read(store)


@tasks.command(name="import")
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the validated set in crm-tui's form (default: validate only).",
)
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
def import_(file: Path, out: Path | None, force: bool) -> None:
    """Validate CRMArena's task file (paper-era or Hugging Face form, JSON or JSONL), or a
    folder `tasks export` wrote (its Hugging Face dataset)."""
    from crm_tui.tasks.taskset import imported, load_taskset, write_taskset

    if out is not None:
        check_output_path(out, force=force, what="the task set")
    if file.is_dir():
        from crm_tui.tasks.release import is_release, load_released

        if not is_release(file):
            raise CrmTuiError(f"{file}: a folder, but no saved dataset in it; nothing was imported")
        taskset = imported(load_released(file))
    else:
        taskset = imported(load_taskset(file))
    if out is not None:
        write_taskset(taskset, out)
    click.echo(
        f"{file}: {len(taskset):,} valid instances in {len(taskset.by_task())} "
        f"families (org {taskset.fingerprint})" + (f"; wrote {out}" if out else "")
    )
    from crm_tui.tasks.pro_families import local_unavailable_reason

    reasons = [r for task in taskset.by_task() if (r := local_unavailable_reason(task))]
    if reasons:
        click.echo(f"{len(reasons)} families cannot be solved on a local org:")
        for reason in reasons:
            click.echo(f"  {reason}")


@tasks.command(name="fetch-crmarena")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("crmarena.json"),
    show_default=True,
    help="Write the validated set here, in crm-tui's form.",
)
@click.option(
    "--revision",
    default="main",
    show_default=True,
    help="Dataset revision (a branch, tag or commit) for a pinned, repeatable fetch.",
)
@click.option(
    "--endpoint",
    envvar="HF_ENDPOINT",
    default=None,
    help="Hub address (env HF_ENDPOINT; default https://huggingface.co).",
)
@click.option(
    "--cache-dir",
    envvar="HF_HUB_CACHE",
    type=click.Path(path_type=Path),
    default=None,
    help="Hugging Face cache (env HF_HUB_CACHE; default ~/.cache/huggingface/hub).",
)
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
def fetch_crmarena(
    out: Path, revision: str, endpoint: str | None, cache_dir: Path | None, force: bool
) -> None:
    """Fetch CRMArena's 1,170 queries from the Hugging Face dataset Salesforce/CRMArena."""
    from crm_tui.tasks.crmarena_hub import fetch_crmarena as fetch
    from crm_tui.tasks.taskset import write_taskset

    check_output_path(out, force=force, what="the task set")
    fetched = fetch(revision=revision, endpoint=endpoint, cache_dir=cache_dir)
    write_taskset(fetched.taskset, out)
    click.echo(
        f"{fetched.source}: {len(fetched.taskset):,} valid instances in "
        f"{len(fetched.taskset.by_task())} families; wrote {out} "
        f"(cached at {fetched.cached_file})"
        + (
            "; the Hub did not answer, so this is the cached copy"
            if fetched.from_cache_only
            else ""
        )
    )


CRMARENA_FILE = Path("crmarena.json")  # where `tasks fetch-crmarena` writes by default


@tasks.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--crmarena",
    "crmarena_file",
    type=click.Path(path_type=Path),
    default=None,
    help="CRMArena's task file, to show its distinct queries beside each family's "
    f"(default: {CRMARENA_FILE} in this folder, where fetch-crmarena writes it, if there).",
)
def stats(file: Path, crmarena_file: Path | None) -> None:
    """Counts per family, share of None answers, distinct answers and queries (beside
    CRMArena's, given its file) and, for a family with several rules (case routing), the
    share of instances each rule decided."""
    from rich.console import Console
    from rich.table import Table

    from crm_tui.tasks.taskset import load_taskset

    taskset = load_taskset(file)
    if crmarena_file is None and CRMARENA_FILE.is_file():
        crmarena_file = CRMARENA_FILE
    theirs = (
        {t: distinct_queries(i) for t, i in load_taskset(crmarena_file).by_task().items()}
        if crmarena_file is not None
        else None
    )
    table = Table(title=f"{file}  ({taskset.fingerprint})")
    columns = ["Task", "Abbrev", "Persona", "Instances", "None", "None %", "Distinct answers"]
    columns += ["Distinct queries", *(["CRMArena's queries"] if theirs is not None else [])]
    for column in [*columns, "Decided by"]:
        table.add_column(
            column,
            justify="left" if column in ("Task", "Abbrev", "Persona", "Decided by") else "right",
        )
    for task, instances in taskset.by_task().items():
        family = instances[0].family
        nones = sum(1 for i in instances if i.answer is None)
        crmarenas = [] if theirs is None else [f"{theirs[task]:,}" if task in theirs else ""]
        table.add_row(
            task,
            family.abbrev,
            family.persona_label,
            f"{len(instances):,}",
            f"{nones:,}",
            f"{100 * nones / len(instances):.0f}",
            f"{len({i.answer for i in instances}):,}",
            f"{distinct_queries(instances):,}",
            *crmarenas,
            decided_by_shares(instances),
        )
    nones = sum(1 for i in taskset.instances if i.answer is None)
    table.add_row(
        "[b]total[/b]",
        "",
        "",
        f"[b]{len(taskset):,}[/b]",
        f"{nones:,}",
        f"{100 * nones / len(taskset):.0f}",
        *[""] * (len(columns) - 5),
    )
    print_table(table, Console())


def distinct_queries(instances: list[Instance]) -> int:
    return len({i.query for i in instances})


def decided_by_shares(instances: list[Instance]) -> str:
    """The share of instances each rule decided ("expertise 35% · product 35% · ..."), from
    the generator's `decided_by`; empty for a family of one rule and for imported sets."""
    rules = Counter(i.extra["decided_by"] for i in instances if "decided_by" in i.extra)
    return " · ".join(
        f"{rule} {100 * n / len(instances):.0f}%" for rule, n in sorted(rules.items())
    )


@tasks.command()
@click.argument("file", type=click.Path(exists=True, path_type=Path), required=False)
@click.option(
    "--out", type=click.Path(path_type=Path), required=True, help="Release folder to write."
)
@click.option("--force", is_flag=True, help="Replace an existing --out folder.")
@click.option(
    "--db",
    "db_path",
    type=StudyLocationType(),
    default=None,
    help="Export a study's audited version instead of FILE: the study file or server.",
)
@click.option("--study", "study_name", default=None, help="With --db: the study (default: newest).")
@click.option(
    "--version",
    "number",
    type=click.IntRange(min=1),
    default=None,
    help="With --db: the version to export (default: the latest).",
)
@click.option("--title", default=None, help="The dataset card's title.")
@license_option
@repo_option
@token_file_option
@endpoint_option
def export(
    file: Path | None,
    out: Path,
    force: bool,
    db_path: StudyLocation | None,
    study_name: str | None,
    number: int | None,
    title: str | None,
    license_id: str | None,
    repo: str | None,
    token_file: Path | None,
    endpoint: str | None,
) -> None:
    """Release a task set (FILE, or a study's audited version with --db) as CRMArena's JSON,
    JSONL, a Hugging Face dataset and a dataset card with the audit's change log; --repo
    also pushes it to the Hub."""
    from crm_tui.cli.gold_audit import hub_token, push
    from crm_tui.tasks.release import check_release_folder, export_taskset
    from crm_tui.tasks.taskset import load_taskset
    from crm_tui.tasks.versions import Change

    if (file is None) == (db_path is None):
        raise CrmTuiError("give a task set FILE or a study with --db (one of the two)")
    check_release_folder(out, force)
    if repo:
        hub_token(token_file)  # before anything is written
    changes: tuple[Change, ...] = ()
    parent: str | None = None
    if db_path is not None:
        from crm_tui.study.service import StudyService

        with StudyService.open(db_path, name=study_name, read_only=True) as service:
            taskset, info = service.audited_task_set(number)
        changes, parent = info.changes, info.parent_hash
        what = f"version {info.number} of study {service.study.name!r}"
    else:
        assert file is not None
        taskset, what = load_taskset(file), str(file)
    release = export_taskset(
        taskset,
        out,
        force=force,
        title=title,
        license_id=license_id,
        changes=changes,
        parent_hash=parent,
    )
    click.echo(
        f"wrote {out} ({what}: {release.rows:,} queries, {len(changes)} decisions; "
        f"{', '.join(release.files)})"
    )
    if repo:
        push(out, repo, token_file, endpoint)


@tasks.command(name="generate-sales")
@org_path_option
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option(
    "--per-family", type=click.IntRange(min=1), default=100, show_default=True,
    help="Items per sales family (fewer where the org has too few records).",
)  # fmt: skip
@click.option("--out", type=click.Path(path_type=Path), required=True, help="JSON file to write.")
def generate_sales(org_path: Path | None, seed: int, per_family: int, out: Path) -> None:
    """Generate CRMArena-Pro's sales families on a B2B org, in CRMArena-Pro's row form
    (read it with `crm-tui tasks import`)."""
    import json

    from crm_tui.cli.defaults import default_org
    from crm_tui.org.store.orgstore import OrgStore
    from crm_tui.tasks.sales_families import generate_sales_items

    with OrgStore.open(org_path or default_org()) as store:
        if store.org_kind != "b2b":
            raise CrmTuiError(
                f"{store.path} is a {store.org_kind.upper()} org; the sales families need a "
                "B2B org (crm-tui org generate --kind b2b)"
            )
        rows = generate_sales_items(store.conn, seed, per_family)
    out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    click.echo(f"wrote {out}: {len(rows):,} items")
