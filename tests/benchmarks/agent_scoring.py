"""Figures for the documentation's scoring section: agent runs scored as CRMArena scores them.

1. An agent that crashes on every one of CRMArena's 1,170 instances (one exception record
   each, as run_tasks.py writes it), imported and re-scored: ALL and the pooled score,
   and what the same records scored when no submission counted as the answer None.
2. The CRMArena-shaped records of the import tests (tests/helpers/crmarena_records.py):
   on how many the re-score equals the reward CRMArena stored, and the rules that make
   the others differ.

Run: python -m tests.benchmarks.agent_scoring  (prints Markdown for the documentation; `--smoke`
runs the same, as the full run takes a second).
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from pathlib import Path

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import agent_answers, import_agent_results
from crm_tui.study.store.db import StudyStore
from crm_tui.tasks.scoring import all_score, score
from tests.benchmarks.smoke import crmarena_taskset, smoke_only
from tests.helpers.crmarena_records import FC_CASES, TEXT_CASES, crashed


def _all(scores: dict[str, list[float]]) -> float:
    return all_score({task: sum(values) / len(values) for task, values in scores.items()})


def main(argv: list[str] | None = None) -> None:
    smoke_only(__doc__, argv)  # the full run is already small enough for a smoke test
    taskset = crmarena_taskset(smoke=False)
    gold = {inst.idx: inst.answer for inst in taskset.instances}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        crash = root / "results_crashing_react_all.json"
        crash.write_text(
            json.dumps([crashed(i.idx, i.task, i.answer, []) for i in taskset.instances])
        )
        cases = []
        for strategy, batch in (("react", TEXT_CASES), ("tool_call", FC_CASES)):
            path = root / f"results_scripted_{strategy}_all.json"
            path.write_text(json.dumps([case.record for case in batch]))
            cases.append(read_agent_results(path))
        with StudyStore.open(root / "study.sqlite") as store:
            import_agent_results(store, [read_agent_results(crash), *cases], taskset)
            with store.transaction() as session:
                answers = agent_answers(session, taskset.content_hash)
    now: dict[str, list[float]] = defaultdict(list)
    before: dict[str, list[float]] = defaultdict(list)
    for run, answer in answers:
        if run.model != "crashing":
            continue
        now[answer.task].append(answer.score)
        # the old rule: no submission was the answer None, which matches a None gold
        before[answer.task].append(score(answer.task, "None", gold[answer.idx]))
    total = sum(len(v) for v in now.values())
    nones = sum(value is None for value in gold.values())
    print("| an agent that crashes on every instance | ALL | pooled |")
    print("|---|---:|---:|")
    for name, scores in (("no submission scores 0 (now)", now), ("as the answer None", before)):
        pooled = sum(sum(v) for v in scores.values()) / total
        print(f"| {name} | {_all(scores) * 100:.1f}% | {pooled * 100:.1f}% |")
    print(f"\n{total} records, {nones} None golds.\n")
    records = [(run, answer) for run, answer in answers if run.model == "scripted"]
    equal = sum(abs(a.score - (a.crmarena_reward or 0.0)) < 1e-9 for _, a in records)
    decisions = sorted({case.decision for case in TEXT_CASES + FC_CASES if case.decision})
    print(
        f"CRMArena-shaped test records: re-score = CRMArena's reward on {equal} of "
        f"{len(records)}; the others differ by: {', '.join(decisions)}."
    )


if __name__ == "__main__":
    main()
