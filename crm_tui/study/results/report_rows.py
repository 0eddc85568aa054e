"""The report's inputs read as plain rows: the few columns it uses, no ORM objects.

A full-size study holds tens of thousands of attempts and a hundred thousand agent
records; building an ORM object for each cost most of the report's time. These loaders
read the same rows, in the same order, as tuples with the same attribute names
(`Attempt`, `AgentRun` + `AgentAnswer`, `Event`), so the report's code reads either.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import select
from sqlmodel import Session, col

from crm_tui.study.results.agent_runs import AgentAnswer, AgentRun
from crm_tui.study.store.models import Attempt, AttemptStatus, Event

_ANSWERED = (AttemptStatus.SUBMITTED, AttemptStatus.EXPIRED)


class AttemptRow(NamedTuple):
    """An attempt as the report reads it."""

    id: int
    item_id: int
    annotator_id: int
    assignment_id: int
    status: str
    answer_raw: str | None
    answer_normalised: str | None
    score: float | None
    active_ms: int | None


class RunRow(NamedTuple):
    """An agent run as the report reads it (one object per run, shared by its answers)."""

    model: str
    strategy: str
    trial: int


class AnswerRow(NamedTuple):
    """An agent answer as the report reads it (the dialogue for the process traces)."""

    id: int
    idx: int
    task: str
    answer: str | None
    crmarena_reward: float | None
    score: float
    steps_json: str | None
    turns: int | None
    tokens: int | None
    cost: float | None
    user_turns: int | None
    dialogue_json: str | None


AgentPair = tuple[RunRow, AnswerRow]


class EventRow(NamedTuple):
    """An event as steps read it (`steps.StepEvent`)."""

    kind: str
    wall: datetime
    monotonic_ms: int
    app_session: str | None
    payload_json: str | None


# Read through the session's connection: the same transaction, without the ORM's result
# processing (plain tuples are all these need).


def answered_attempts(session: Session, study_id: int) -> list[AttemptRow]:
    """The study's submitted and expired attempts (skipped and open ones are no answer)."""
    rows = session.connection().execute(
        select(
            col(Attempt.id),
            col(Attempt.item_id),
            col(Attempt.annotator_id),
            col(Attempt.assignment_id),
            col(Attempt.status),
            col(Attempt.answer_raw),
            col(Attempt.answer_normalised),
            col(Attempt.score),
            col(Attempt.active_ms),
        ).where(col(Attempt.study_id) == study_id)
    )
    return [AttemptRow._make(row) for row in rows if row[4] in _ANSWERED]


def agent_answer_rows(session: Session, task_set_hash: str) -> list[AgentPair]:
    """Every imported agent answer for a task set with its run, in `agent_answers`' order."""
    runs = {
        key: RunRow(model, strategy, trial)
        for key, model, strategy, trial in session.connection().execute(
            select(
                col(AgentRun.id),
                col(AgentRun.model),
                col(AgentRun.strategy),
                col(AgentRun.trial),
            ).where(col(AgentRun.task_set_hash) == task_set_hash)
        )
    }
    rows = session.connection().execute(
        select(
            col(AgentAnswer.run_id),
            col(AgentAnswer.id),
            col(AgentAnswer.idx),
            col(AgentAnswer.task),
            col(AgentAnswer.answer),
            col(AgentAnswer.crmarena_reward),
            col(AgentAnswer.score),
            col(AgentAnswer.steps_json),
            col(AgentAnswer.turns),
            col(AgentAnswer.tokens),
            col(AgentAnswer.cost),
            col(AgentAnswer.user_turns),
            col(AgentAnswer.dialogue_json),
        )
        .select_from(AgentRun)
        .join(AgentAnswer, col(AgentAnswer.run_id) == col(AgentRun.id))
        .where(col(AgentRun.task_set_hash) == task_set_hash)
        .order_by(
            col(AgentRun.model),
            col(AgentRun.strategy),
            col(AgentRun.trial),
            col(AgentAnswer.idx),
        )
    )
    return [(runs[row[0]], AnswerRow._make(row[1:])) for row in rows]


def attempt_events(session: Session, attempt_ids: Sequence[int]) -> dict[int, list[EventRow]]:
    """Each attempt's events in the order they were written."""
    events: dict[int, list[EventRow]] = {}
    for start in range(0, len(attempt_ids), 500):  # the IN list stays short
        for row in session.connection().execute(
            select(
                col(Event.attempt_id),
                col(Event.kind),
                col(Event.wall),
                col(Event.monotonic_ms),
                col(Event.app_session),
                col(Event.payload_json),
            )
            .where(col(Event.attempt_id).in_(attempt_ids[start : start + 500]))
            .order_by(col(Event.id))
        ):
            events.setdefault(row[0] or 0, []).append(EventRow._make(row[1:]))
    return events
