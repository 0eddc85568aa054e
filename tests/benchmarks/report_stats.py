"""The results with every statistic at full size: 40 people answering all 1,170 CRMArena
items (46,800 answers) and 10 agents with 10 trials each (117,000 records).

Answers are simulated from a Rasch model (each person, agent and item drawn at random),
so the intervals, paired tests, agreement and suspects have something to find. Times:
building the report from the study file (the statistics alone on a line of their own),
rendering it as Markdown, CSV and JSON, and writing the figures as SVG and PNG.

Run: python -m tests.benchmarks.report_stats [--resamples 2000] [--figures DIR] [--smoke]
(`--smoke`: 4 people, 2 agents with 3 trials, 2 items per family).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from sqlalchemy import insert
from sqlmodel import select

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import import_agent_results
from crm_tui.study.results.analysis import analyse
from crm_tui.study.results.figures import write_figures
from crm_tui.study.results.inference import BootstrapOptions
from crm_tui.study.results.render import to_csv, to_json, to_markdown
from crm_tui.study.results.summary import ReportOptions, _outcomes, build_report
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    RealismRating,
    StudyItem,
)
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, with_overrides
from crm_tui.tasks.taskset import CRMARENA, TaskSet
from tests.benchmarks import smoke

TARGETS = ("org", "Account", "Contact", "Case", "Order", "Product2", "Knowledge__kav")
NOW = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
WRONG = ("None", "005Ws000009zzzzIAA", "005Ws000009yyyyIAA")  # wrong answers people give


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--figures", type=Path, default=None, help="keep the figures here")
    args = smoke.parse(parser, argv, people=4, agents=2, trials=3, resamples=200)
    taskset = smoke.crmarena_taskset(args.smoke)
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as folder:
        study_path = Path(folder) / "study.sqlite"
        make_study(study_path, taskset, args.people, args.agents, args.trials, rng, Path(folder))
        print(measure(study_path, args.resamples, args.figures or Path(folder) / "figures"))


def make_study(
    path: Path,
    taskset: TaskSet,
    people: int,
    agents: int,
    trials: int,
    rng: np.random.Generator,
    folder: Path,
) -> None:
    """Simulated answers straight into the tables (not timed)."""
    instances = taskset.instances
    difficulty = dict(zip((i.idx for i in instances), rng.normal(0, 1.2, len(instances))))
    with StudyStore.open(path) as store:
        files = []
        for n in range(agents):
            ability = rng.normal(0.3, 0.8)
            files += agent_files(folder / f"agent{n}", instances, difficulty, ability, trials, rng)
        import_agent_results(store, [read_agent_results(p) for p in files], taskset)
        preset, preset_path = load_preset("paper-expert-study")
        preset = with_overrides(preset, distinct_families=False, annotators_per_item=people)
        study = create_study(
            store,
            "bench",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=CRMARENA,
        )
        gold = {i.idx: i.answer for i in instances}
        with store.transaction() as session:
            persons = [
                Annotator(name=f"p{n}", role="Agent", crm_years=3, created_at=NOW)
                for n in range(people)
            ]
            session.add_all(persons)
            session.flush()
            items = session.exec(select(StudyItem).where(StudyItem.study_id == study.id)).all()
            assignments, attempts = [], []
            for person in persons:
                ability = rng.normal(0.8, 0.8)
                for position, item in enumerate(items):
                    key = len(assignments) + 1
                    assignments.append(
                        {
                            "id": key,
                            "study_id": study.id,
                            "annotator_id": person.id,
                            "item_id": item.id,
                            "position": position,
                        }
                    )
                    right = rng.random() < 1 / (1 + np.exp(difficulty[item.idx] - ability))
                    answer = str(gold[item.idx]) if right else str(rng.choice(WRONG))
                    attempts.append(
                        {
                            "assignment_id": key,
                            "study_id": study.id,
                            "annotator_id": person.id,
                            "item_id": item.id,
                            "status": "submitted",
                            "started_at": NOW,
                            "active_ms": int(rng.integers(30_000, 600_000)),
                            "answer_raw": answer,
                            "answer_normalised": answer,
                            "score": float(right),
                        }
                    )
            session.execute(insert(Assignment), assignments)
            session.execute(insert(Attempt), attempts)
            session.add_all(
                RealismRating(
                    study_id=study.id,
                    annotator_id=person.id,
                    target=target,
                    level=int(rng.choice([0, 2, 3, 4, 4, 5, 5])),
                    record_ids_json="[]",
                    rated_at=NOW,
                )
                for person in persons
                for target in TARGETS
            )


def agent_files(folder, instances, difficulty, ability, trials, rng) -> list[Path]:
    """One CRMArena result file per trial of one agent (a model of its own name)."""
    paths = []
    for trial in range(1, trials + 1):
        records = []
        for inst in instances:
            right = rng.random() < 1 / (1 + np.exp(difficulty[inst.idx] - ability))
            answer = inst.answer if right else "None"
            records.append(
                {
                    "task_id": inst.idx,
                    "task_type": inst.task,
                    "gt_answer": inst.answer,
                    "reward": int(right),
                    "agent_info": {
                        "end_reason": {
                            "source": "agent",
                            "message": "Submit action",
                            "content": answer,
                        }
                    },
                    "traj": [],
                }
            )
        path = folder / f"trial{trial}" / f"results_{folder.name}_react_all.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(records))
        paths.append(path)
    return paths


def measure(study_path: Path, resamples: int, figures: Path) -> str:
    """Each step's wall time (`perf_counter`) and this process's CPU time (`process_time`):
    on a shared, loaded machine the CPU time is the steadier figure."""
    options = ReportOptions(resamples=resamples, seed=0)
    with StudyStore.open(study_path) as store, store.transaction() as session:
        from crm_tui.study.work.studies import list_studies

        (study,) = list_studies(store)
        with timed() as build:
            report = build_report(session, study, options)
        # the statistics alone, from the outcomes the report was built from
        outcomes = outcomes_of(session, study)
        with timed() as statistics:
            analyse(outcomes, BootstrapOptions(resamples=resamples, seed=0))
    with timed() as render:
        to_markdown(report), to_csv(report), to_json(report)
    with timed() as drawing:
        written = write_figures(report, figures)
    total = [sum(step[n] for step in (build, render, drawing)) for n in (0, 1)]
    people = len({p.person for p in outcomes.humans})
    agents = len({r.agent for r in outcomes.agents})
    rows = [
        f"| build the report ({len(outcomes.humans):,} answers of {people} people, "
        f"{len(outcomes.agents):,} records of {agents} agents, {resamples} resamples) "
        f"| {build[0]:.2f} s | {build[1]:.2f} s |",
        f"| of which the statistics section | {statistics[0]:.2f} s | {statistics[1]:.2f} s |",
        f"| render it as Markdown, CSV and JSON | {render[0]:.2f} s | {render[1]:.2f} s |",
        f"| write {len(written)} figures (SVG and PNG) | {drawing[0]:.2f} s | {drawing[1]:.2f} s |",
        f"| **the full report with intervals and figures** | **{total[0]:.2f} s** "
        f"| **{total[1]:.2f} s** |",
    ]
    return "| step | wall | CPU |\n|---|---:|---:|\n" + "\n".join(rows)


@contextmanager
def timed() -> Iterator[list[float]]:
    """[wall seconds, CPU seconds] of the block, filled in when it ends."""
    times = [0.0, 0.0]
    wall, cpu = time.perf_counter(), time.process_time()
    yield times
    times[:] = [time.perf_counter() - wall, time.process_time() - cpu]


def outcomes_of(session, study):
    from sqlmodel import select as sql_select

    from crm_tui.study.results.report_rows import agent_answer_rows, answered_attempts

    items = list(session.exec(sql_select(StudyItem).where(StudyItem.study_id == study.id)))
    answered = answered_attempts(session, study.id)
    runs = agent_answer_rows(session, study.task_set_hash)
    ratings = list(
        session.exec(sql_select(RealismRating).where(RealismRating.study_id == study.id))
    )
    return _outcomes(study, items, answered, runs, ratings)


if __name__ == "__main__":
    main()
