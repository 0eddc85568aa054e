"""Agent trajectories into the process report, at CRMArena's full size.

One ReAct run over all 1,170 CRMArena instances (nine families), each record with a
trajectory of three queries whose observations hold 20 records (the gold among them in
half the records), is parsed into steps, re-scored and imported; then the report, process
section included, is built for a study over the whole task set with 3 attempts per item.

Run: python -m tests.benchmarks.bench_traces [--smoke]  (prints a Markdown table for the
documentation, then the process table's ALL rows; `--smoke`: 2 instances of each family).
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from crm_tui.study.results.render import process_table
from crm_tui.tasks.taskset import Instance, TaskSet
from tests.benchmarks.agents_report import import_and_report
from tests.benchmarks.smoke import crmarena_taskset, smoke_only

QUERIES = 3  # per trajectory
ROWS = 20  # records per observation


def observation(rng: random.Random, gold: str | None, show_gold: bool) -> str:
    rows: list[dict[str, Any]] = [
        {"Id": f"500Ws{rng.randrange(10**10):010d}IAA", "Status": "Closed", "State": "CA"}
        for _ in range(ROWS)
    ]
    if show_gold and gold:
        rows[rng.randrange(ROWS)]["OwnerId"] = gold
    return f"Salesforce instance output: {rows!r}"


def record(inst: Instance, rng: random.Random) -> dict[str, Any]:
    show_gold = rng.random() < 0.5
    answer = inst.answer if show_gold and rng.random() < 0.7 else "None"
    traj: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an expert in Salesforce ..."},
        {"role": "user", "content": inst.query},
    ]
    for turn in range(QUERIES):
        traj.append(
            {
                "role": "assistant",
                "content": f"Thought: look.\n<execute>SELECT Id, Status FROM Case "
                f"LIMIT {ROWS + turn}</execute>",
            }
        )
        traj.append({"role": "user", "content": observation(rng, inst.answer, show_gold)})
    traj.append({"role": "assistant", "content": f"<submit>{answer}</submit>"})
    return {
        "task_id": inst.idx,
        "task_type": inst.task,
        "gt_answer": inst.answer,
        "reward": int(answer == inst.answer),
        "agent_info": {
            "end_reason": {"source": "agent", "message": "Submit action", "content": answer},
            "usage": {"total_tokens": [1000] * (QUERIES + 1)},
            "total_cost": 0.01,
            "num_turns": QUERIES + 1,
        },
        "traj": traj,
    }


def main(argv: list[str] | None = None) -> None:
    smoke = smoke_only(__doc__, argv)
    with tempfile.TemporaryDirectory() as folder:
        table, process = measure(Path(folder), crmarena_taskset(smoke))
    print(table)
    print()
    print(process)


def measure(folder: Path, taskset: TaskSet) -> tuple[str, str]:
    rng = random.Random(0)
    path = folder / "results_gpt-4o_react_all.json"
    path.write_text(json.dumps([record(inst, rng) for inst in taskset.instances]))
    size_mb = path.stat().st_size / 1e6
    timed = import_and_report(folder / "study.sqlite", [path], taskset, rng)
    report, parse_s, import_s = timed.report, timed.parse_s, timed.import_s
    build_s, render_s = timed.build_s, timed.render_s
    assert report.process is not None
    records = len(taskset)
    rows = [
        f"| parse one run's result file ({records:,} records with trajectories, "
        f"{size_mb:.1f} MB) into steps | {parse_s:.2f} s |",
        f"| re-score and import them with their steps | {import_s:.2f} s |",
        f"| build the report, process section included ({3 * records:,} attempts) "
        f"| {build_s:.2f} s |",
        f"| render it as Markdown and CSV (per-attempt rows) | {render_s:.2f} s |",
        f"| **total** | **{parse_s + import_s + build_s + render_s:.2f} s** |",
    ]
    view = process_table(report.process)
    sample = [row for row in view.rows if row[0] == "ALL"]
    process = "\n".join(
        ["| " + " | ".join(view.columns) + " |", "|" + "---|" * len(view.columns)]
        + ["| " + " | ".join(row) + " |" for row in sample]
    )
    return "| step | time |\n|---|---:|\n" + "\n".join(rows), process


if __name__ == "__main__":
    main()
