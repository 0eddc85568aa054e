"""Where a solve went wrong: per attempt and per agent run, a label and the process measures.

Labels (`Sight`): *right*; *saw it, chose otherwise* (the gold record's Id, or the gold
value for month/state answers, was shown at some step but the answer was another); *never
saw the answer* (it never was). A gold that cannot be seen (the None answer of
non-answerable queries, knowledge QA's free text) leaves a wrong answer *unjudged*, and so
does an agent record without a trajectory (a plain-answer file, an import before v7).
Measures: steps, distinct records touched, queries (SOQL/SOSL, searches, lookups), time
(people: active ms; agents: turns, tokens, cost when the file has them) and the step at
which the gold first appeared. Traces reveal gold answers: coordinators and auditors only,
like the rest of the report.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from sqlmodel import Session

from crm_tui.study.results.report_rows import AgentPair, attempt_events
from crm_tui.study.results.steps import (
    Step,
    StepKind,
    human_steps,
    ids_in,
    same_id,
    steps_from_json,
)
from crm_tui.study.store.models import AttemptStatus, StudyItem, row_id
from crm_tui.tasks.pro_families import all_families
from crm_tui.tasks.scoring import NO_SUBMISSION, gold_text, is_right, is_submission

ALL = "ALL"
HUMANS = "humans"
_QUERYING = {StepKind.QUERY, StepKind.SEARCH, StepKind.LOOKUP, StepKind.FILTER}


class Sight(StrEnum):
    RIGHT = "right"
    CHOSE_OTHERWISE = "saw_chose_otherwise"
    NEVER_SAW = "never_saw"
    UNJUDGED = "unjudged"


SIGHT_LABELS = {
    Sight.RIGHT: "right",
    Sight.CHOSE_OTHERWISE: "saw it, chose otherwise",
    Sight.NEVER_SAW: "never saw the answer",
    Sight.UNJUDGED: "wrong, not judged",
}


@dataclass(frozen=True)
class Trace:
    """One attempt (people) or one agent record, in the report's long-format rows."""

    solver: str  # "humans" or the agent's label
    family: str
    idx: int
    who: str  # annotator id, or "trial N"
    label: str  # a Sight value
    steps: int
    records: int  # distinct record Ids touched (opened or returned)
    queries: int  # queries, searches, lookups, filters and reports run
    time: int | None  # people: active ms; agents: turns
    first_sight_step: int | None  # 1-based step at which the gold was first shown
    first_sight_time: int | None  # its time: active ms (people) or turn (agents)
    tokens: int | None = None
    cost: float | None = None


@dataclass(frozen=True)
class ProcessSummary:
    family: str
    solver: str
    traces: int
    median_steps: float | None
    median_records: float | None
    median_queries: float | None
    shares: dict[str, float]  # Sight value -> share of traces
    median_first_sight: float | None  # people: active ms; agents: turn
    time_unit: str  # "ms" or "turn"


@dataclass(frozen=True)
class Process:
    summaries: list[ProcessSummary]
    traces: list[Trace]


def gold_shown(step: Step, gold: str) -> bool:
    """An Id gold: that record among the step's records; a value gold: among its values.
    A gold of several values (a list gold, `gold_text`) is shown where one of them is."""
    return any(_part_shown(step, part.strip()) for part in gold.split(","))


def _part_shown(step: Step, gold: str) -> bool:
    if ids_in(gold) == (gold,):
        return any(same_id(gold, shown) for shown in step.record_ids)
    wanted = gold.casefold()
    return any(value.strip().casefold() == wanted for value in step.values)


def seeable_gold(task: str, gold: Any) -> str | None:
    """The gold as something that can be on screen; None for None and free-text golds."""
    if gold is None or all_families()[task].metric != "exact_match":
        return None
    text = gold_text(gold).strip()
    return None if not text or text == "None" else text


def trace(
    *,
    solver: str,
    task: str,
    idx: int,
    who: str,
    steps: Sequence[Step],
    answer: str | None,
    points: float,
    gold: Any,
    time: int | None,
    tokens: int | None = None,
    cost: float | None = None,
    traced: bool = True,
) -> Trace:
    """The label and measures of one solve. `points` is the task layer's score of `answer`;
    `traced` False: no trajectory was kept (a plain-answer file, an import before schema
    version 7), so a wrong answer cannot be told "never saw" from "chose otherwise"."""
    seeable = seeable_gold(task, gold) if traced else None
    first = None
    if seeable is not None and steps:
        first = next(
            (
                n
                for n, step in enumerate(steps)
                if step.kind != StepKind.ANSWER and gold_shown(step, seeable)
            ),
            None,
        )
    if is_submission(answer) and is_right(points):
        label = Sight.RIGHT
    elif seeable is None:
        label = Sight.UNJUDGED
    else:
        label = Sight.NEVER_SAW if first is None else Sight.CHOSE_OTHERWISE
    return Trace(
        solver=solver,
        family=all_families()[task].abbrev,
        idx=idx,
        who=who,
        label=label,
        steps=len(steps),
        records=len({rid[:15] for step in steps for rid in step.record_ids}) if steps else 0,
        queries=sum(step.kind in _QUERYING for step in steps) if steps else 0,
        time=time,
        first_sight_step=None if first is None else first + 1,
        first_sight_time=None if first is None else steps[first].at,
        tokens=tokens,
        cost=cost,
    )


def summarise(traces: Sequence[Trace], family_order: Sequence[str]) -> list[ProcessSummary]:
    """Per family (in `family_order`) and ALL: humans first, then each agent by label."""
    grouped: dict[tuple[str, str], list[Trace]] = defaultdict(list)
    for one in traces:
        grouped[one.family, one.solver].append(one)
        grouped[ALL, one.solver].append(one)
    solvers = sorted({t.solver for t in traces}, key=lambda s: (s != HUMANS, s))
    summaries = []
    for family in [*family_order, ALL]:
        for solver in solvers:
            group = grouped.get((family, solver))
            if group:
                summaries.append(_summary(family, solver, group))
    return summaries


def _summary(family: str, solver: str, group: list[Trace]) -> ProcessSummary:
    labels = Counter(str(t.label) for t in group)  # one pass, not one per label
    return ProcessSummary(
        family=family,
        solver=solver,
        traces=len(group),
        median_steps=_median([t.steps for t in group]),
        median_records=_median([t.records for t in group]),
        median_queries=_median([t.queries for t in group]),
        shares={s.value: labels[s.value] / len(group) for s in Sight},
        median_first_sight=_median(
            [t.first_sight_time for t in group if t.first_sight_time is not None]
        ),
        time_unit="ms" if solver == HUMANS else "turn",
    )


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


class AnsweredAttempt(Protocol):
    """What the traces read of an attempt: an `Attempt` row, or `report_rows.AttemptRow`."""

    @property
    def id(self) -> int | None: ...
    @property
    def item_id(self) -> int: ...
    @property
    def annotator_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def answer_raw(self) -> str | None: ...
    @property
    def score(self) -> float | None: ...
    @property
    def active_ms(self) -> int | None: ...


def build_process(
    session: Session,
    items: Sequence[StudyItem],
    attempts: Sequence[AnsweredAttempt],
    runs: Sequence[AgentPair],
    agent_label: Any,
    family_order: Sequence[str],
) -> Process:
    """Every answered attempt and every agent record on the study's items, as traces."""
    # each item's task, idx and gold read once (not once per answer to it)
    by_id = {row_id(item): (item.task, item.idx, json.loads(item.gold_json)) for item in items}
    by_idx = {idx: (task, idx, gold) for task, idx, gold in by_id.values()}
    attempt_ids = [row_id(a) for a in attempts]
    events = attempt_events(session, attempt_ids)
    traces = []
    for attempt, key in zip(attempts, attempt_ids, strict=True):
        task, idx, gold = by_id[attempt.item_id]
        submitted = attempt.status == AttemptStatus.SUBMITTED
        answer = attempt.answer_raw if submitted else NO_SUBMISSION
        traces.append(
            trace(
                solver=HUMANS,
                task=task,
                idx=idx,
                who=f"annotator {attempt.annotator_id}",
                steps=human_steps(events.get(key, ())),
                answer=answer,
                points=(attempt.score or 0.0) if is_submission(answer) else 0.0,
                gold=gold,
                time=attempt.active_ms,
            )
        )
    # steps are immutable: records with the same trajectory text (an empty one, most
    # often) share one parse
    parsed: dict[str | None, tuple[Step, ...]] = {}
    for run, record in runs:
        task, idx, gold = by_idx[record.idx]
        steps = parsed.get(record.steps_json)
        if steps is None:
            steps = steps_from_json(record.steps_json, f"agent answer {record.id}")
            parsed[record.steps_json] = steps
        traces.append(
            trace(
                solver=agent_label(run.model, run.strategy),
                task=task,
                idx=idx,
                who=f"trial {run.trial}",
                steps=steps,
                answer=record.answer,
                points=record.score,
                gold=gold,
                time=record.turns,
                tokens=record.tokens,
                cost=record.cost,
                traced=record.steps_json is not None,
            )
        )
    traces.sort(key=lambda t: (t.solver != HUMANS, t.solver, t.idx, t.who))
    return Process(summaries=summarise(traces, family_order), traces=traces)
