"""The customer role: a participant plays the customer of multi-turn solving for another.

In a study whose solve part has `simulated_user = "person"`, nobody simulates the
customer: a profile with the `customer` role sees each conversation that waits for a
customer (one not yet opened, or one it opened itself), with the hidden query, the
persona and the rules the simulated customer follows, and types the customer's turns.
The first customer turn pairs the conversation with that customer (its turns' source is
`person:<profile id>`); no other customer may write in it. The customer speaks when it
is the customer's turn (before anything is said, or after the solver's reply), and ends
the conversation with Stop once answered: the solver's last reply is then submitted as
the answer, scored as its family scores. The customer is held to the solve part's
`max_user_turns`, as the simulated customers are: the solver's reply to its last turn
ends the conversation (the customer gives up, and that reply is the answer). Every turn
is stored with its time.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, ConversationTurn, StudyItem
from crm_tui.study.work import attempts
from crm_tui.study.work.conversations import (
    add_turn,
    is_interactive_attempt,
    item_instance,
    persona_of,
    played_by_person,
    turn_rows,
    user_turn_limit,
)
from crm_tui.study.work.modes import Mode
from crm_tui.study.work.profiles import require_mode
from crm_tui.study.work.studies import get_study
from crm_tui.tasks.simulated_user import (
    AGENT,
    CUSTOMER,
    STOP,
    USER_PROMPT,
    ChatTurn,
    customer_turns,
)

# What the customer is told to do: the simulated customer's rules, as the LLM reads them.
RULES = USER_PROMPT.split("Rules:\n", 1)[1].format(stop="Stop (Ctrl+E)").strip()


@dataclass(frozen=True)
class CustomerView:
    """One conversation as its customer sees it."""

    attempt_id: int
    query: str  # hidden from the solver
    persona: str
    rules: str
    turns: tuple[ChatTurn, ...]
    customers_turn: bool  # nothing said yet, or the solver replied last
    done: bool
    max_user_turns: int  # the customer's turns at most, as for a simulated customer
    turns_left: int  # of those, not yet said; at 0 the solver's next reply ends it


def _source(customer_id: int) -> str:
    return f"person:{customer_id}"


def _owner(rows: list[ConversationTurn]) -> str | None:
    return next((row.source for row in rows if row.role == CUSTOMER), None)


def _view(session: Session, attempt: Attempt, rows: list[ConversationTurn]) -> CustomerView:
    study = get_study(session, attempt.study_id)
    item = session.get(StudyItem, attempt.item_id)
    if item is None:
        raise CrmTuiError(f"no study item with id {attempt.item_id}")
    instance = item_instance(item)
    turns = tuple(ChatTurn(row.role, row.text) for row in rows)
    limit = user_turn_limit(study)
    return CustomerView(
        attempt_id=attempt.id or 0,
        query=item.query,
        persona=persona_of(instance, study),
        rules=RULES,
        turns=turns,
        customers_turn=not turns or turns[-1].role == AGENT,
        done=attempt.status != AttemptStatus.IN_PROGRESS,
        max_user_turns=limit,
        turns_left=max(0, limit - customer_turns(turns)),
    )


def customer_conversations(
    store: StudyStore, study_id: int, customer_id: int
) -> list[CustomerView]:
    """The open conversations this customer may write in: its own, then those nobody has
    opened yet, oldest first."""
    with store.transaction() as session:
        require_mode(session, customer_id, Mode.CUSTOMER)
        study = get_study(session, study_id)
        if not played_by_person(study):
            return []
        open_attempts = session.exec(
            select(Attempt)
            .where(Attempt.study_id == study_id, Attempt.status == AttemptStatus.IN_PROGRESS)
            .order_by(col(Attempt.id))
        ).all()
        mine, free = [], []
        for attempt in open_attempts:
            if not is_interactive_attempt(session, study, attempt):
                continue
            rows = turn_rows(session, attempt.id or 0)
            owner = _owner(rows)
            if owner == _source(customer_id):
                mine.append(_view(session, attempt, rows))
            elif owner is None:
                free.append(_view(session, attempt, rows))
        return mine + free


def customer_says(
    store: StudyStore, attempt_id: int, customer_id: int, text: str, *, stop: bool = False
) -> CustomerView:
    """The customer's turn, stored with its time; `stop` ends the conversation and submits
    the solver's last reply as the answer."""
    text = text.strip()
    if not text and not stop:
        raise CrmTuiError("Write a message first")
    with store.transaction() as session:
        require_mode(session, customer_id, Mode.CUSTOMER)
        attempt = session.get(Attempt, attempt_id)
        if attempt is None:
            raise CrmTuiError(f"no attempt with id {attempt_id}")
        study = get_study(session, attempt.study_id)
        if not played_by_person(study) or not is_interactive_attempt(session, study, attempt):
            raise CrmTuiError("This query is not solved with a customer played by a person")
        if attempt.status != AttemptStatus.IN_PROGRESS:
            raise CrmTuiError("This conversation has ended")
        rows = turn_rows(session, attempt_id)
        owner = _owner(rows)
        if owner is not None and owner != _source(customer_id):
            raise CrmTuiError("Another customer is in this conversation")
        if rows and rows[-1].role != AGENT:
            raise CrmTuiError("Wait for the agent's reply")
        answer = next((row.text for row in reversed(rows) if row.role == AGENT), None)
        if stop and answer is None:
            raise CrmTuiError("The agent has not replied yet: there is no answer to end on")
        limit = user_turn_limit(study)
        if customer_turns(tuple(ChatTurn(row.role, row.text) for row in rows)) >= limit:
            raise CrmTuiError(f"You have had your {limit} turns: the conversation has ended")
        said = f"{text} {STOP}".strip() if stop else text
        add_turn(
            session, store, attempt_id, len(rows), ChatTurn(CUSTOMER, said), _source(customer_id)
        )
    if stop and answer is not None:
        attempts.submit(store, attempt_id, answer, note="multi-turn")
    with store.transaction() as session:
        attempt = session.get(Attempt, attempt_id)
        assert attempt is not None
        return _view(session, attempt, turn_rows(session, attempt_id))
