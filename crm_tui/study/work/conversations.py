"""Multi-turn solving: a person plays the agent against a simulated customer.

A study's solve part makes items interactive (`SolvePart.interactive`: "all", or
"alternate": every other item of a person's queue, the other half for the next person, so
the same items are solved both ways). An interactive attempt hides the query: the
simulated customer (`crm_tui.tasks.simulated_user`) opens, the person replies while
browsing and querying as usual, and every turn is stored (`ConversationTurn`) as it is
said. When the customer stops (answered, or its turn limit) the attempt is submitted with
the person's last reply as the answer, scored as its family scores. The customer's
persona comes from the task file, else is drawn per item from the study's seed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import (
    Assignment,
    Attempt,
    AttemptStatus,
    ConversationTurn,
    Study,
    StudyItem,
)
from crm_tui.study.work import attempts
from crm_tui.study.work.protocol import SolvePart
from crm_tui.study.work.studies import get_study, study_protocol
from crm_tui.tasks.pro_scoring import score_instance
from crm_tui.tasks.simulated_user import (
    AGENT,
    CUSTOMER,
    ChatTurn,
    LlmUser,
    SimulatedUser,
    draw_persona,
    scripted_user,
)
from crm_tui.tasks.taskset import Instance, gold_fields

PERSON = "person"  # the source of the person's own turns


@dataclass(frozen=True)
class Conversation:
    turns: tuple[ChatTurn, ...]
    done: bool  # the customer stopped; the attempt is submitted
    max_user_turns: int
    submitted: attempts.SubmitResult | None = None  # when this call ended it


def solve_part(study: Study) -> SolvePart | None:
    part = next((p for p in study_protocol(study).parts if p.kind == "solve"), None)
    return part if isinstance(part, SolvePart) else None


def is_interactive(store: StudyStore, attempt_id: int) -> bool:
    """Whether the attempt is solved in conversation with a simulated customer."""
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        return _interactive(session, get_study(session, attempt.study_id), attempt)


def _interactive(session: Session, study: Study, attempt: Attempt) -> bool:
    part = solve_part(study)
    if part is None or part.interactive == "off":
        return False
    if part.interactive == "all":
        return True
    assignment = session.get(Assignment, attempt.assignment_id)
    position = assignment.position if assignment is not None else 0
    return (position + attempt.annotator_id) % 2 == 0


def _attempt(session: Session, attempt_id: int) -> Attempt:
    attempt = session.get(Attempt, attempt_id)
    if attempt is None:
        raise CrmTuiError(f"no attempt with id {attempt_id}")
    return attempt


def item_instance(item: StudyItem) -> Instance:
    """The study item as the task instance it was copied from (gold included)."""
    metadata = json.loads(item.metadata_json)
    extra: dict[str, Any] = json.loads(item.extra_json) if item.extra_json else {}
    answer, answer_list = gold_fields(json.loads(item.gold_json))
    return Instance(
        item.idx,
        item.task,
        item.query,
        answer,
        metadata["required"],
        metadata.get("optional", ""),
        item.reward_metric,
        extra,
        answer_list,
    )


def persona_of(instance: Instance, study: Study) -> str:
    return instance.user_persona or draw_persona(study.seed, instance.idx)


def simulated_user_for(study: Study, instance: Instance) -> SimulatedUser:
    part = solve_part(study)
    turns = part.max_user_turns if part is not None else 10
    if part is not None and part.simulated_user == "llm":
        return LlmUser(instance.query, persona_of(instance, study), max_turns=turns)
    return scripted_user(instance, lambda reply: score_instance(instance, reply) >= 1.0, turns)


def _turns(session: Session, attempt_id: int) -> list[ConversationTurn]:
    return list(
        session.exec(
            select(ConversationTurn)
            .where(ConversationTurn.attempt_id == attempt_id)
            .order_by(col(ConversationTurn.position))
        )
    )


def _chat(rows: Sequence[ConversationTurn]) -> tuple[ChatTurn, ...]:
    return tuple(ChatTurn(row.role, row.text) for row in rows)


def _add(
    session: Session, store: StudyStore, attempt_id: int, position: int, turn: ChatTurn, source: str
) -> None:
    session.add(
        ConversationTurn(
            attempt_id=attempt_id,
            position=position,
            role=turn.role,
            text=turn.text,
            source=source,
            at=store.now()[0],
        )
    )


def open_conversation(
    store: StudyStore, attempt_id: int, user: SimulatedUser | None = None
) -> Conversation:
    """The conversation so far; the customer's opener is said (and stored) the first time."""
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        study = get_study(session, attempt.study_id)
        rows = _turns(session, attempt_id)
        part = solve_part(study)
        limit = part.max_user_turns if part is not None else 10
        done = attempt.status != AttemptStatus.IN_PROGRESS
        if rows or done:
            return Conversation(_chat(rows), done, limit)
        item = session.get(StudyItem, attempt.item_id)
        if item is None:
            raise CrmTuiError(f"no study item with id {attempt.item_id}")
        user = user or simulated_user_for(study, item_instance(item))
        opener = ChatTurn(CUSTOMER, user.respond(()).text)
        _add(session, store, attempt_id, 0, opener, user.source)
        return Conversation((opener,), False, limit)


def reply(
    store: StudyStore, attempt_id: int, text: str, user: SimulatedUser | None = None
) -> Conversation:
    """The person's reply, stored, and the customer's answer to it; when the customer stops,
    the attempt is submitted with this reply as the answer."""
    text = text.strip()
    if not text:
        raise CrmTuiError("Write a reply first")
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        if attempt.status != AttemptStatus.IN_PROGRESS:
            raise CrmTuiError("This conversation has ended")
        study = get_study(session, attempt.study_id)
        item = session.get(StudyItem, attempt.item_id)
        if item is None:
            raise CrmTuiError(f"no study item with id {attempt.item_id}")
        rows = _turns(session, attempt_id)
        said = ChatTurn(AGENT, text)
        _add(session, store, attempt_id, len(rows), said, PERSON)
        dialogue = (*_chat(rows), said)
        user = user or simulated_user_for(study, item_instance(item))
        message = user.respond(dialogue)
        answer_turn = ChatTurn(CUSTOMER, message.text)
        _add(session, store, attempt_id, len(rows) + 1, answer_turn, user.source)
        part = solve_part(study)
        limit = part.max_user_turns if part is not None else 10
    turns = (*dialogue, answer_turn)
    if not message.stop:
        return Conversation(turns, False, limit)
    result = attempts.submit(store, attempt_id, text, note="multi-turn")
    return Conversation(turns, True, limit, result)


def conversation_turns(store: StudyStore, attempt_id: int) -> tuple[ChatTurn, ...]:
    with store.transaction() as session:
        return _chat(_turns(session, attempt_id))


# ----------------------------------------------------------------- report
@dataclass(frozen=True)
class ModeRow:
    family: str
    single_answers: int
    single_accuracy: float | None
    multi_answers: int
    multi_accuracy: float | None
    mean_customer_turns: float | None  # multi-turn attempts only


@dataclass(frozen=True)
class ModeAnswer:
    """One submitted attempt as the single- vs multi-turn comparison reads it."""

    task: str
    multi: bool
    score: float
    customer_turns: int  # the customer's turns; 0 for a single-turn attempt


def mode_answers(session: Session, study: Study) -> list[ModeAnswer]:
    """The study's submitted attempts, each single- or multi-turn (`_interactive`'s rule),
    in a few queries however many attempts there are."""
    part = solve_part(study)
    interactive = "off" if part is None else part.interactive
    rows = session.execute(
        sa_select(
            col(Attempt.id),
            col(Attempt.annotator_id),
            col(Attempt.score),
            col(StudyItem.task),
            col(Assignment.position),
        )
        .join(StudyItem, col(StudyItem.id) == col(Attempt.item_id))
        .join(Assignment, col(Assignment.id) == col(Attempt.assignment_id), isouter=True)
        .where(col(Attempt.study_id) == study.id, col(Attempt.status) == AttemptStatus.SUBMITTED)
        .order_by(col(Attempt.id))
    ).all()
    customer: dict[int, int] = {}
    if interactive != "off":
        wanted = [key for key, *_ in rows if key is not None]
        for start in range(0, len(wanted), 500):  # the IN list stays short
            for key, turns in session.exec(
                select(ConversationTurn.attempt_id, func.count())
                .where(
                    col(ConversationTurn.attempt_id).in_(wanted[start : start + 500]),
                    ConversationTurn.role == CUSTOMER,
                )
                .group_by(col(ConversationTurn.attempt_id))
            ):
                customer[key] = turns
    answers = []
    for key, annotator_id, score, task, position in rows:
        multi = interactive == "all" or (
            interactive == "alternate" and ((position or 0) + annotator_id) % 2 == 0
        )
        turns = customer.get(key or 0, 0) if multi else 0
        answers.append(ModeAnswer(task, multi, score or 0.0, turns))
    return answers


def single_vs_multi(store: StudyStore, study_id: int) -> list[ModeRow]:
    """Per family: accuracy of submitted single-turn and multi-turn attempts, and the
    customer's turns per multi-turn attempt."""
    with store.transaction() as session:
        answers = mode_answers(session, get_study(session, study_id))
    stats: dict[str, dict[str, list[float]]] = {}
    for answer in answers:
        family = stats.setdefault(answer.task, {"single": [], "multi": [], "turns": []})
        family["multi" if answer.multi else "single"].append(answer.score)
        if answer.multi:
            family["turns"].append(float(answer.customer_turns))

    def mean(values: list[float]) -> float | None:
        return sum(values) / len(values) if values else None

    return [
        ModeRow(
            family,
            len(s["single"]),
            mean(s["single"]),
            len(s["multi"]),
            mean(s["multi"]),
            mean(s["turns"]),
        )
        for family, s in sorted(stats.items())
    ]
