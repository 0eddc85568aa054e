"""Where a solve went wrong: per attempt and per agent run, a label and the process measures.

Labels (`Sight`): *right*; *saw it, chose otherwise* (the gold record's Id, or the gold
value for month/state answers, was shown at some step but the answer was another); *never
saw the answer* (it never was). A gold that cannot be seen (the None answer of
non-answerable queries, knowledge QA's free text) leaves a wrong answer *unjudged*, and so
does an agent record without a trajectory (a plain-answer file, an import before v7).
Measures: steps, distinct records touched, queries (SOQL/SOSL, searches, lookups), time
(people: active ms; agents: turns, tokens, cost when the file has them), the step at
which the gold first appeared, and the time to the first useful query (a query, search,
lookup or filter that returned rows of an object the family reads). A multi-turn solve's
steps hold its dialogue too (the customer's turns, and a person's replies), in their
places by time; they are no steps of the search and count in none of those measures, but
in *details asked*: the customer's turns after its opener that gave something, neither
its end nor a "don't know". Traces reveal gold answers: coordinators and auditors only,
like the rest of the report.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from sqlmodel import Session, col, select

from crm_tui.study.results.dialogue import STOP, dialogue_from_json, with_agent_dialogue
from crm_tui.study.results.report_rows import AgentPair, attempt_events
from crm_tui.study.results.steps import (
    Step,
    StepKind,
    human_dialogue,
    human_steps,
    ids_in,
    same_id,
    search_steps,
    steps_from_json,
    with_dialogue,
)
from crm_tui.study.store.models import AttemptStatus, ConversationTurn, StudyItem, row_id
from crm_tui.tasks.pro_families import all_families, pro_families
from crm_tui.tasks.scoring import NO_SUBMISSION, gold_text, is_right, is_submission

ALL = "ALL"
HUMANS = "humans"
_QUERYING = {StepKind.QUERY, StepKind.SEARCH, StepKind.LOOKUP, StepKind.FILTER}
# A customer's turn that gives nothing: the scripted customer's "Sorry, I don't know
# anything more than that.", and the like from an LLM or a person.
_NOT_KNOWING = re.compile(r"\b(?:don'?t|do not|doesn'?t) know\b|\bnot sure\b|\bno idea\b", re.I)


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
    details_asked: int | None = None  # multi-turn only (see the module's description)
    first_useful_query: int | None = None  # its time: active ms (people) or turn (agents)


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


def details_asked(dialogue: Sequence[Step]) -> int | None:
    """The customer's turns after its opener that gave something; None without a dialogue."""
    said = [step.detail for step in dialogue if step.kind == StepKind.CUSTOMER]
    if not said:
        return None
    return sum(1 for text in said[1:] if STOP not in text and not _NOT_KNOWING.search(text))


def first_useful_query(task: str, steps: Sequence[Step]) -> Step | None:
    """The first query, search, lookup or filter that returned rows (or an unknown number)
    of an object the family reads (`pro_families`); any object for a family unknown there."""
    family = pro_families().get(task)
    reads = {name.lower() for name in family.objects} if family is not None else None
    for step in steps:
        if step.kind not in _QUERYING or step.rows == 0:
            continue
        if step.rows is None and not step.record_ids and step.object_name is None:
            continue  # an agent's query whose output was never seen
        if reads is None or (step.object_name or "").lower() in reads:
            return step
    return None


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
    version 7), so a wrong answer cannot be told "never saw" from "chose otherwise".
    `steps` may hold a dialogue's turns (`StepKind.CUSTOMER`, `REPLY`)."""
    dialogue = [step for step in steps if step.kind in (StepKind.CUSTOMER, StepKind.REPLY)]
    steps = search_steps(steps) if dialogue else steps
    useful = first_useful_query(task, steps)
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
        details_asked=details_asked(dialogue),
        first_useful_query=None if useful is None else useful.at,
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
    said = attempt_turns(session, attempt_ids)
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
                steps=with_dialogue(
                    human_steps(events.get(key, ())),
                    human_dialogue(events.get(key, ()), said.get(key, ())),
                ),
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
                steps=with_agent_dialogue(steps, dialogue_from_json(record.dialogue_json)),
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


def attempt_turns(
    session: Session, attempt_ids: Sequence[int]
) -> dict[int, list[ConversationTurn]]:
    """Each multi-turn attempt's conversation, in the order said."""
    turns: dict[int, list[ConversationTurn]] = defaultdict(list)
    for start in range(0, len(attempt_ids), 500):  # the IN list stays short
        for row in session.exec(
            select(ConversationTurn)
            .where(col(ConversationTurn.attempt_id).in_(attempt_ids[start : start + 500]))
            .order_by(col(ConversationTurn.attempt_id), col(ConversationTurn.position))
        ):
            turns[row.attempt_id].append(row)
    return turns
