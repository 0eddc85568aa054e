"""Agent import and report timings at CRMArena's full size.

Ten trials of one agent over all 1,170 CRMArena instances (ten result files, 11,700
answers) are parsed, re-scored and imported; then a report is built for a study over the
whole task set with 3 answers per item (3,510 attempts), realism ratings from 10 people
over 17 targets, and the default 1,000-sample alpha bootstrap.

Run: python -m tests.benchmarks.agents_report [--smoke]  (prints a Markdown table for the
documentation; `--smoke`: one trial over 2 instances of each family).
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import select

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import import_agent_results
from crm_tui.study.results.render import to_csv, to_markdown
from crm_tui.study.results.summary import Report, build_report
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
from tests.benchmarks.smoke import crmarena_taskset, smoke_only

TRIALS = 10
RATERS = 10


def write_trial_files(
    folder: Path, instances, rng: random.Random, trials: int = TRIALS
) -> list[Path]:
    paths = []
    for trial in range(1, trials + 1):
        records = []
        for inst in instances:
            answer = inst.answer if rng.random() < 0.5 else "None"
            records.append(
                {
                    "task_id": inst.idx,
                    "task_type": inst.task,
                    "gt_answer": inst.answer,
                    "reward": int(answer == inst.answer),
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
        path = folder / f"trial{trial}" / "results_gpt-4o_react_all.json"
        path.parent.mkdir()
        path.write_text(json.dumps(records))
        paths.append(path)
    return paths


def fill_study(store: StudyStore, study_id: int, rng: random.Random) -> None:
    """Rows straight into the tables: the report reads them, how they got there is not timed."""
    now = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    with store.transaction() as session:
        people = [
            Annotator(name=f"p{n}", role="Agent", crm_years=3, created_at=now)
            for n in range(RATERS)
        ]
        session.add_all(people)
        session.flush()
        item_ids = session.exec(select(StudyItem.id).where(StudyItem.study_id == study_id)).all()
        for position, item_id in enumerate(item_ids):
            for person in rng.sample(people, 3):
                assignment = Assignment(
                    study_id=study_id, annotator_id=person.id, item_id=item_id, position=position
                )
                session.add(assignment)
                session.flush()
                score = float(rng.random() < 0.6)
                session.add(
                    Attempt(
                        assignment_id=assignment.id,
                        study_id=study_id,
                        annotator_id=person.id,
                        item_id=item_id,
                        status="submitted",
                        started_at=now,
                        active_ms=rng.randint(30_000, 600_000),
                        answer_raw="x",
                        answer_normalised="x",
                        score=score,
                    )
                )
        for person in people:
            for target in [
                "org",
                "User",
                "Account",
                "Contact",
                "Case",
                "Knowledge__kav",
                "ProductCategory",
                "Product2",
                "ProductCategoryProduct",
                "Pricebook2",
                "PricebookEntry",
                "Order",
                "OrderItem",
                "EmailMessage",
                "LiveChatTranscript",
                "Issue__c",
                "CaseHistory__c",
            ]:
                session.add(
                    RealismRating(
                        study_id=study_id,
                        annotator_id=person.id,
                        target=target,
                        level=rng.choice([2, 3, 4, 4, 5, 5]),
                        record_ids_json="[]",
                        rated_at=now,
                    )
                )


def main(argv: list[str] | None = None) -> None:
    smoke = smoke_only(__doc__, argv)
    with tempfile.TemporaryDirectory() as folder:
        print(measure(Path(folder), crmarena_taskset(smoke), 1 if smoke else TRIALS))


def measure(folder: Path, taskset: TaskSet, trials: int) -> str:
    rng = random.Random(0)
    files = write_trial_files(folder, taskset.instances, rng, trials)
    timed = import_and_report(folder / "study.sqlite", files, taskset, rng)
    rows = [
        f"| parse {trials} result files ({trials * len(taskset):,} records) "
        f"| {timed.parse_s:.2f} s |",
        f"| re-score and import them (one transaction) | {timed.import_s:.2f} s |",
        f"| build the report ({3 * len(taskset):,} attempts, {trials} trials, alpha bootstrap) "
        f"| {timed.build_s:.2f} s |",
        f"| render it as Markdown and CSV | {timed.render_s * 1000:.0f} ms |",
    ]
    return "| step | time |\n|---|---:|\n" + "\n".join(rows)


@dataclass
class ImportAndReport:
    """Seconds of each step of `import_and_report`, and the report built."""

    parse_s: float
    import_s: float
    build_s: float
    render_s: float
    report: Report


def import_and_report(
    study_path: Path, files: list[Path], taskset: TaskSet, rng: random.Random
) -> ImportAndReport:
    """What a coordinator does with agent runs, timed step by step: parse the result files,
    re-score and import them, make a study of the task set with three people per item
    (filled by `fill_study`), build its report and render it."""
    with StudyStore.open(study_path) as store:
        started = time.perf_counter()
        parsed = [read_agent_results(path) for path in files]
        parse_s = time.perf_counter() - started
        started = time.perf_counter()
        import_agent_results(store, parsed, taskset)
        import_s = time.perf_counter() - started
        preset, preset_path = load_preset("paper-expert-study")
        preset = with_overrides(preset, distinct_families=False, annotators_per_item=3)
        study = create_study(
            store,
            "bench",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=CRMARENA,
        )
        fill_study(store, study.id, rng)
        started = time.perf_counter()
        with store.transaction() as session:
            report = build_report(session, study)
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        to_markdown(report), to_csv(report)
        render_s = time.perf_counter() - started
    return ImportAndReport(parse_s, import_s, build_s, render_s, report)


if __name__ == "__main__":
    main()
