"""`crm-tui agents import ...` and `crm-tui results`: agent results next to human results."""

from __future__ import annotations

import io
from pathlib import Path

import click

from crm_tui import paths
from crm_tui.atomic import check_output_path, write_text_atomically
from crm_tui.cli.defaults import default_taskset
from crm_tui.cli.options import study_db_option
from crm_tui.cli.output import say_how_read

FORMATS = ("table", "csv", "json", "md")


@click.group()
def agents() -> None:
    """Import LLM-agent results to compare with human answers."""


@agents.command("import")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--model", default=None, help="Model name (default: from the file name).")
@click.option(
    "--strategy", default=None, help="act, react, tool_call, ... (default: from the file name)."
)
@click.option("--task-category", default=None, help="Task category (default: from the file name).")
@click.option(
    "--task-set",
    "--tasks",
    "taskset_path",
    type=click.Path(path_type=Path),
    default=None,
    help="The task set the agent answered (default: the local task set).",
)
@study_db_option
def import_(
    files: tuple[Path, ...],
    model: str | None,
    strategy: str | None,
    task_category: str | None,
    taskset_path: Path | None,
    db_path: Path | None,
) -> None:
    """Import CRMArena run_tasks.py result files (results_{model}_{strategy}_{task}.json)
    or JSONL files of {"idx", "agent", "trial", "answer"}; re-score every answer."""
    from crm_tui.study.coordination import StudyFile, check_agent_files
    from crm_tui.study.results.agent_files import read_agent_results
    from crm_tui.tasks.taskset import load_taskset

    parsed = [  # first: a file that is no result file is refused before anything is set up
        read_agent_results(path, model=model, strategy=strategy, task_category=task_category)
        for path in files
    ]
    taskset = load_taskset(taskset_path or default_taskset())
    check_agent_files(parsed, taskset)  # before the study file is opened (or made)
    with StudyFile.open(db_path or paths.default_study_path()) as study_file:
        summary = study_file.import_agent_results(parsed, taskset)
    click.echo(
        f"imported {summary.answers} answers in {summary.runs} runs "
        f"(task set {taskset.content_hash[:12]})"
    )
    for note in summary.notes:  # files skipped (already imported) or replaced, and why
        click.echo(note)


@click.command("results")
@click.option(
    "--study", "study_name", default=None, help="Study name (default: the newest in the file)."
)
@click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="table", show_default=True
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of the terminal.",
)
@click.option("--force", is_flag=True, help="Replace an existing --out file.")
@click.option(
    "--confidence",
    type=click.FloatRange(0.5, 1.0, min_open=False, max_open=True),
    default=0.95,
    show_default=True,
    help="Level of every interval.",
)
@click.option(
    "--resamples",
    type=click.IntRange(100, 100_000),
    default=2000,
    show_default=True,
    help="Bootstrap resamples (of items) per interval.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Bootstrap seed (default: the study's seed, so the same study gives the same report).",
)
@click.option(
    "--figures",
    "figures_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Also write the figures, as SVG and PNG, into this folder.",
)
@click.option(
    "--with-excluded",
    is_flag=True,
    help="Keep the people and attempts a coordinator excluded in every figure.",
)
@study_db_option
def results(
    study_name: str | None,
    output_format: str,
    out: Path | None,
    force: bool,
    confidence: float,
    resamples: int,
    seed: int | None,
    figures_dir: Path | None,
    with_excluded: bool,
    db_path: Path | None,
) -> None:
    """Humans next to agents per task family with intervals and paired tests, agreement,
    item difficulty, realism ratings and audit flags."""
    from rich.console import Console

    from crm_tui.study.results.render import print_report, to_csv, to_json, to_markdown
    from crm_tui.study.results.summary import ReportOptions
    from crm_tui.study.service import StudyService

    if out is not None:
        check_output_path(out, force=force, what="the results")
    # The app's rule for which study, without an org: any study in the file counts.
    study_path = db_path or paths.default_study_path()
    options = ReportOptions(
        confidence=confidence, resamples=resamples, seed=seed, with_excluded=with_excluded
    )
    with StudyService.open(study_path, name=study_name, read_only=True) as service:
        say_how_read(service.note)
        result = service.report(options)
    if figures_dir is not None:
        from crm_tui.study.results.figures import write_figures  # matplotlib: only here

        for path in write_figures(result, figures_dir):
            click.echo(f"wrote {path}", err=out is None and output_format != "table")
    if output_format == "table" and out is None:
        print_report(result, Console())
        return
    if output_format == "table":
        console = Console(record=True, width=200, file=io.StringIO())
        print_report(result, console)
        text = console.export_text()
    else:
        text = {"csv": to_csv, "json": to_json, "md": to_markdown}[output_format](result)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text_atomically(out, text, private=True)  # gold answers: for coordinators
        click.echo(f"wrote {out}")
