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
from collections.abc import Collection, Sequence
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
    GIVE_UP,
    MAX_TURNS,
    ChatTurn,
    LlmUser,
    SimulatedUser,
    UserMessage,
    customer_turns,
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
        return is_interactive_attempt(session, get_study(session, attempt.study_id), attempt)


def is_interactive_attempt(session: Session, study: Study, attempt: Attempt) -> bool:
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
    # No gold through an annotator's login: a customer played by an LLM never needs it.
    gold = None if item.gold_json is None else json.loads(item.gold_json)
    answer, answer_list = gold_fields(gold)
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


def played_by_person(study: Study) -> bool:
    """Whether a participant with the customer role types the customer's side."""
    part = solve_part(study)
    return part is not None and part.simulated_user == "person"


def simulated_user_for(study: Study, instance: Instance) -> SimulatedUser:
    part = solve_part(study)
    turns = part.max_user_turns if part is not None else MAX_TURNS
    if part is not None and part.simulated_user == "llm":
        return LlmUser(instance.query, persona_of(instance, study), max_turns=turns)
    return scripted_user(instance, lambda reply: score_instance(instance, reply) >= 1.0, turns)


def turn_rows(session: Session, attempt_id: int) -> list[ConversationTurn]:
    return list(
        session.exec(
            select(ConversationTurn)
            .where(ConversationTurn.attempt_id == attempt_id)
            .order_by(col(ConversationTurn.position))
        )
    )


def _chat(rows: Sequence[ConversationTurn]) -> tuple[ChatTurn, ...]:
    return tuple(ChatTurn(row.role, row.text) for row in rows)


def add_turn(
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


@dataclass(frozen=True)
class CustomerTurnDue:
    """The conversation waits for the customer: `dialogue` so far, the simulated user who
    answers it and, after a reply of the person, that reply (None before the opener).
    The customer is asked outside any transaction and off the service's writer: an LLM
    may take seconds, and the study file stays free for everyone meanwhile."""

    attempt_id: int
    dialogue: tuple[ChatTurn, ...]
    user: SimulatedUser
    max_user_turns: int
    reply: str | None

    def ask(self) -> UserMessage:
        return self.user.respond(self.dialogue)


def user_turn_limit(study: Study) -> int:
    """The customer's turns in a conversation at most (the solve part's `max_user_turns`)."""
    return _limit(study)


def _limit(study: Study) -> int:
    part = solve_part(study)
    return part.max_user_turns if part is not None else MAX_TURNS


def _simulated_user(session: Session, study: Study, attempt: Attempt) -> SimulatedUser:
    item = session.get(StudyItem, attempt.item_id)
    if item is None:
        raise CrmTuiError(f"no study item with id {attempt.item_id}")
    part = solve_part(study)
    if item.gold_json is None and (part is None or part.simulated_user == "scripted"):
        # An annotator's PostgreSQL login reads no gold (`store/db_logins.py`).
        raise CrmTuiError(
            "This query's customer checks your replies against the gold answer, which "
            "this study store's login cannot read: ask the study coordinator for a web "
            "address (crm-tui web) to solve it"
        )
    return simulated_user_for(study, item_instance(item))


def begin_conversation(
    store: StudyStore, attempt_id: int, user: SimulatedUser | None = None
) -> Conversation | CustomerTurnDue:
    """The conversation so far, or, before anything was said, the customer's opener due."""
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        study = get_study(session, attempt.study_id)
        rows = turn_rows(session, attempt_id)
        done = attempt.status != AttemptStatus.IN_PROGRESS
        if rows or done or (user is None and played_by_person(study)):
            return Conversation(_chat(rows), done, _limit(study))  # a person opens in time
        user = user or _simulated_user(session, study, attempt)
        return CustomerTurnDue(attempt_id, (), user, _limit(study), None)


def say_to_customer(
    store: StudyStore, attempt_id: int, text: str, user: SimulatedUser | None = None
) -> CustomerTurnDue | Conversation:
    """The person's reply, stored as said; the customer's answer to it is then due. The
    same reply sent again after the customer failed to answer is stored once. A customer
    played by a person who has had all `max_user_turns` turns gives up at once, as the
    simulated customers do, and the reply is submitted as the answer."""
    text = text.strip()
    if not text:
        raise CrmTuiError("Write a reply first")
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        if attempt.status != AttemptStatus.IN_PROGRESS:
            raise CrmTuiError("This conversation has ended")
        study = get_study(session, attempt.study_id)
        rows = turn_rows(session, attempt_id)
        dialogue = _chat(rows)
        said = ChatTurn(AGENT, text)
        if dialogue[-1:] != (said,):
            add_turn(session, store, attempt_id, len(dialogue), said, PERSON)
            dialogue = (*dialogue, said)
        limit = _limit(study)
        if user is None and played_by_person(study):
            if customer_turns(dialogue) < limit:
                return Conversation(dialogue, False, limit)  # the customer answers in time
            # The customer has had all its turns: it gives up, as a simulated one does.
            owner = next((row.source for row in rows if row.role == CUSTOMER), PERSON)
            add_turn(session, store, attempt_id, len(dialogue), ChatTurn(CUSTOMER, GIVE_UP), owner)
            dialogue = (*dialogue, ChatTurn(CUSTOMER, GIVE_UP))
        else:
            user = user or _simulated_user(session, study, attempt)
            return CustomerTurnDue(attempt_id, dialogue, user, limit, text)
    result = attempts.submit(store, attempt_id, text, note="multi-turn")
    return Conversation(dialogue, True, limit, result)


def customer_said(store: StudyStore, due: CustomerTurnDue, message: UserMessage) -> Conversation:
    """The customer's answer, stored after whatever was said meanwhile; when it stops the
    conversation, the attempt is submitted with the person's reply as the answer. An opener
    that another window of the same attempt stored first stands, and this one is dropped."""
    turn = ChatTurn(CUSTOMER, message.text)
    with store.transaction() as session:
        attempt = _attempt(session, due.attempt_id)
        rows = turn_rows(session, due.attempt_id)
        if due.reply is None and rows:
            done = attempt.status != AttemptStatus.IN_PROGRESS
            return Conversation(_chat(rows), done, due.max_user_turns)
        add_turn(session, store, due.attempt_id, len(rows), turn, due.user.source)
        open_still = attempt.status == AttemptStatus.IN_PROGRESS
    turns = (*_chat(rows), turn)
    if not (message.stop and open_still and due.reply is not None):
        return Conversation(turns, not open_still, due.max_user_turns)
    result = attempts.submit(store, due.attempt_id, due.reply, note="multi-turn")
    return Conversation(turns, True, due.max_user_turns, result)


def open_conversation(
    store: StudyStore, attempt_id: int, user: SimulatedUser | None = None
) -> Conversation:
    """The conversation so far; the customer's opener is said (and stored) the first time."""
    begun = begin_conversation(store, attempt_id, user)
    if isinstance(begun, Conversation):
        return begun
    return customer_said(store, begun, begun.ask())


def reply(
    store: StudyStore, attempt_id: int, text: str, user: SimulatedUser | None = None
) -> Conversation:
    """The person's reply, stored, and the customer's answer to it; when the customer stops,
    the attempt is submitted with this reply as the answer."""
    due = say_to_customer(store, attempt_id, text, user)
    if isinstance(due, Conversation):
        return due
    return customer_said(store, due, due.ask())


def current_conversation(store: StudyStore, attempt_id: int) -> Conversation:
    """The conversation as stored now, and whether it has ended."""
    with store.transaction() as session:
        attempt = _attempt(session, attempt_id)
        study = get_study(session, attempt.study_id)
        done = attempt.status != AttemptStatus.IN_PROGRESS
        return Conversation(_chat(turn_rows(session, attempt_id)), done, _limit(study))


def conversation_turns(store: StudyStore, attempt_id: int) -> tuple[ChatTurn, ...]:
    with store.transaction() as session:
        return _chat(turn_rows(session, attempt_id))


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


def mode_answers(
    session: Session, study: Study, counted: Collection[int] | None = None
) -> list[ModeAnswer]:
    """The study's submitted attempts (of those with an id in `counted`, when given), each
    single- or multi-turn (`is_interactive_attempt`'s rule), in a few queries however many
    attempts there are."""
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
    if counted is not None:
        rows = [row for row in rows if row[0] in counted]
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
