"""`crm-tui org ...`: generate, check and describe local orgs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from crm_tui import paths
from crm_tui.cli.defaults import default_org
from crm_tui.cli.options import org_path_option
from crm_tui.cli.org_report import report
from crm_tui.cli.org_serve import serve
from crm_tui.cli.output import print_table

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from crm_tui.org.realism_measures import Measure
    from crm_tui.org.store.orgstore import OrgStore

# The org's modules and rich are imported inside the commands: `crm-tui --version`,
# `--help` and the other command groups never need them.


def _stdout_console() -> Console:
    from rich.console import Console

    return Console()


def _setup_console() -> Console:
    """First-run messages: stdout is the command's output."""
    from rich.console import Console

    return Console(stderr=True)


@click.group()
def org() -> None:
    """Generate, check and inspect local orgs."""


@org.command()
@click.option("--seed", type=int, default=1, show_default=True, help="Random seed.")
@click.option(
    "--scale",
    type=click.FloatRange(min=0.01, max=1000),
    default=1.0,
    show_default=True,
    help="Size relative to CRMArena's org.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=None,
    help="Org file to write (default: the local default org).",
)
@click.option("--force", is_flag=True, help="Replace an existing file.")
@click.option(
    "--kind",
    type=click.Choice(["b2c", "b2b"]),
    default="b2c",
    show_default=True,
    help="b2c: the service org; b2b: the service org plus leads, opportunities, quotes, "
    "contracts, territories, sales calls and activities.",
)
def generate(seed: int, scale: float, out: Path | None, force: bool, kind: str) -> None:
    """Generate a synthetic org (deterministic for a seed)."""
    from crm_tui.org.generate.build_file import generate as run_generator

    out = out or paths.default_org_path()
    result = _with_progress(
        lambda progress: run_generator(
            out, seed=seed, scale=scale, force=force, progress=progress, kind=kind
        )
    )
    click.echo(f"wrote {out} ({result.total_rows:,} records, {result.seconds:.1f} s)")
    click.echo(f"content hash {result.content_hash}")


@org.command()
@org_path_option
@click.option(
    "--realism",
    is_flag=True,
    help="Also print the realism measures; they never fail the check.",
)
def check(org_path: Path | None, realism: bool) -> None:
    """Verify integrity: lookups, required and unique fields, Ids, case history."""
    from crm_tui.org.store.check import check_org
    from crm_tui.org.store.orgstore import OrgStore

    path = org_path or default_org()
    with OrgStore.open(path) as store:
        refuse_damaged(store)
        with store.reading("checking the org"):
            report = check_org(store)
            measures = _realism_measures(store) if realism else []
    for line in report.lines():
        click.echo(line)
    if measures:
        table = realism_table(measures, title=f"Realism measures of {path}")
        print_table(table, _stdout_console())
    if not report.ok:
        raise click.exceptions.Exit(1)


def refuse_damaged(store: OrgStore) -> None:
    """One line naming what is damaged (a corrupt page, a date that is not one), before a
    command reads the org: a count over a corrupt page can look right, and a check
    reading one fails half-way. A fraction of a second at CRMArena's size."""
    from crm_tui.org.store.check import find_damage
    from crm_tui.org.store.orgstore import OrgError

    damage = find_damage(store)
    if damage is not None:
        raise OrgError(f"{store.path} is damaged ({damage})")


def _realism_measures(store: OrgStore) -> list[Measure]:
    from crm_tui.org.realism_measures import measure_realism

    return measure_realism(store)


def realism_table(measures: list[Measure], title: str) -> Table:
    """The measures as a table: value, bar, and whether the value meets it."""
    from rich.table import Table

    table = Table(title=title)
    table.add_column("Measure")
    table.add_column("Value", justify="right")
    table.add_column("Bar", justify="right")
    table.add_column("Meets")
    for m in measures:
        meets = {None: "", True: "yes", False: "no"}[m.meets]
        table.add_row(m.label, m.shown(), m.bar, meets)
    return table


@org.command()
@org_path_option
def stats(org_path: Path | None) -> None:
    """Print the number of records per object."""
    print_stats(org_path or default_org())


def print_stats(path: Path) -> None:
    from rich.table import Table

    from crm_tui.org.schema.catalogue import get_object
    from crm_tui.org.store.orgstore import OrgStore

    with OrgStore.open(path) as store:
        refuse_damaged(store)
        with store.reading("counting records"):
            counts = store.counts()
            fingerprint = store.fingerprint
    table = Table(title=f"{path}  ({fingerprint})")
    table.add_column("Object")
    table.add_column("Label")
    table.add_column("Records", justify="right")
    for name, n in counts.items():
        table.add_row(name, get_object(name).label_plural, f"{n:,}")
    table.add_row("", "[b]total[/b]", f"[b]{sum(counts.values()):,}[/b]")
    print_table(table, _stdout_console())


def ensure_first_run() -> None:
    """Make the default org, task set and practice study if missing, with a progress bar."""
    if all(
        p.exists()
        for p in (
            paths.default_org_path(),
            paths.default_taskset_path(),
            paths.default_study_path(),
        )
    ):
        return
    from crm_tui.study.coordination import ensure_defaults

    setup_console = _setup_console()
    setup_console.print(f"Setting up crm-tui in {paths.data_home()} (first run only) ...")
    made = _with_progress(
        lambda progress: ensure_defaults(
            paths.default_org_path(),
            paths.default_taskset_path(),
            paths.default_study_path(),
            progress=progress,
        ),
        setup_console,
    )
    for what in made:
        setup_console.print(f"  made {what}")


_T = TypeVar("_T")


def _with_progress(
    job: Callable[[Callable[[float, str], None]], _T], on: Console | None = None
) -> _T:
    """Run `job(progress)` under a transient progress bar (on stdout unless `on` says)."""
    from rich.progress import Progress

    with Progress(transient=True, console=on or _stdout_console()) as bar:
        task = bar.add_task("generating", total=1.0)

        def progress(fraction: float, label: str) -> None:
            bar.update(task, completed=fraction, description=label)

        return job(progress)


org.add_command(serve)
org.add_command(report)
