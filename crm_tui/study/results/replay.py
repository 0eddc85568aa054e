"""One study item's solves, step by step: every person's attempt and every agent record on it.

What the replay screen shows (coordinators and auditors only: steps reveal the gold): for
each solve its label (`process.Sight`), its answer and its steps (a multi-turn solve's
dialogue among them, in its places), each step marked when the gold was among what it
showed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.agent_runs import AgentAnswer, AgentRun
from crm_tui.study.results.dialogue import dialogue_from_json, with_agent_dialogue
from crm_tui.study.results.process import HUMANS, attempt_turns, gold_shown, seeable_gold, trace
from crm_tui.study.results.steps import (
    Step,
    StepKind,
    answer_edits,
    human_dialogue,
    human_steps,
    steps_from_json,
    with_dialogue,
)
from crm_tui.study.results.summary import agent_label
from crm_tui.study.store.events import attempt_events
from crm_tui.study.store.models import Attempt, AttemptStatus, Study, StudyItem, row_id
from crm_tui.study.work.quality import unmeasured_item_ids
from crm_tui.tasks.pro_families import all_families
from crm_tui.tasks.scoring import NO_SUBMISSION, gold_text, is_submission


@dataclass(frozen=True)
class Solve:
    solver: str  # "humans" or the agent's label
    who: str  # "annotator N" or "trial N"
    label: str  # a process.Sight value
    answer: str | None  # None: no submission
    time_unit: str  # "ms" (people: active time) or "turn" (agents)
    steps: tuple[Step, ...]
    gold_at: tuple[int, ...]  # positions of the steps that showed the gold
    # people: the answer as it was edited (`steps.answer_edits`), shown between the steps
    edits: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Replay:
    idx: int
    family: str
    query: str
    gold: str | None
    solves: list[Solve]


def replay_item(session: Session, study: Study, idx: int, *, measured_only: bool = False) -> Replay:
    """Every answered attempt on the item (people first), then each agent's records.
    `measured_only`: a practice or check item is refused as if the study had no such item."""
    item = session.exec(
        select(StudyItem).where(StudyItem.study_id == study.id, StudyItem.idx == idx)
    ).first()
    if item is not None and measured_only and row_id(item) in unmeasured_item_ids(session, study):
        item = None
    if item is None:
        raise CrmTuiError(f"task {idx} is not an item of study {study.name!r}")
    gold = json.loads(item.gold_json)
    seeable = seeable_gold(item.task, gold)
    solves = []
    attempts = session.exec(
        select(Attempt).where(Attempt.item_id == row_id(item)).order_by(col(Attempt.id))
    )
    for attempt in attempts:
        if attempt.status not in (AttemptStatus.SUBMITTED, AttemptStatus.EXPIRED):
            continue
        submitted = attempt.status == AttemptStatus.SUBMITTED
        answer = attempt.answer_raw if submitted else NO_SUBMISSION
        logged = attempt_events(session, row_id(attempt))
        said = attempt_turns(session, [row_id(attempt)]).get(row_id(attempt), [])
        steps = with_dialogue(human_steps(logged), human_dialogue(logged, said))
        one = trace(
            solver=HUMANS,
            task=item.task,
            idx=idx,
            who=f"annotator {attempt.annotator_id}",
            steps=steps,
            answer=answer,
            points=(attempt.score or 0.0) if is_submission(answer) else 0.0,
            gold=gold,
            time=attempt.active_ms,
        )
        solve = _solve(one.solver, one.who, one.label, answer, "ms", steps, seeable)
        solves.append(replace(solve, edits=answer_edits(logged)))
    runs = session.exec(
        select(AgentRun, AgentAnswer)
        .join(AgentAnswer, col(AgentAnswer.run_id) == col(AgentRun.id))
        .where(AgentRun.task_set_hash == study.task_set_hash, AgentAnswer.idx == idx)
        .order_by(col(AgentRun.model), col(AgentRun.strategy), col(AgentRun.trial))
    )
    for run, record in runs:
        steps = with_agent_dialogue(
            steps_from_json(record.steps_json, f"agent answer {record.id}"),
            dialogue_from_json(record.dialogue_json),
        )
        one = trace(
            solver=agent_label(run.model, run.strategy),
            task=item.task,
            idx=idx,
            who=f"trial {run.trial}",
            steps=steps,
            answer=record.answer,
            points=record.score,
            gold=gold,
            time=record.turns,
            traced=record.steps_json is not None,
        )
        solves.append(_solve(one.solver, one.who, one.label, record.answer, "turn", steps, seeable))
    return Replay(
        idx=idx,
        family=all_families()[item.task].abbrev,
        query=item.query,
        gold=None if gold is None else gold_text(gold),
        solves=solves,
    )


def _solve(
    solver: str,
    who: str,
    label: str,
    answer: str | None,
    unit: str,
    steps: tuple[Step, ...],
    seeable: str | None,
) -> Solve:
    gold_at = (
        ()
        if seeable is None
        else tuple(
            n
            for n, step in enumerate(steps)
            if step.kind != StepKind.ANSWER and gold_shown(step, seeable)
        )
    )
    return Solve(solver, who, label, answer, unit, steps, gold_at)
