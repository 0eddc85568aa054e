"""The customer role: a person types the customer's side for another person solving in
conversation. The customer sees the hidden query, the persona and the rules; speaks in
turn; is paired with the conversation by its first turn; ends it with Stop, which
submits the solver's last reply as the answer. Both sides' turns are stored with times."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, ConversationTurn
from crm_tui.study.work.clock import FakeClock, as_utc
from crm_tui.study.work.profiles import create_profile
from crm_tui.tasks.simulated_user import GIVE_UP
from tests.helpers.turn_modes_study import FILL, GOLD, WRONG, one_conversation


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def study(tmp_path, clock):
    path = tmp_path / "study.sqlite"
    attempt_id = one_conversation(path, clock, customer="person")
    with StudyStore.open(path, clock=clock) as store:
        cleo = create_profile(store, "Cleo", "Customer", 2, mode="customer").id
        finn = create_profile(store, "Finn", "Customer", 2, mode="customer").id
    return path, attempt_id, cleo, finn


def test_a_person_plays_the_customer_to_the_end(study, clock):
    path, attempt_id, cleo, finn = study
    with StudyService.open(path, clock=clock) as service:
        assert service.open_conversation(attempt_id).turns == ()  # the customer opens
        (view,) = service.customer_conversations(cleo)
        assert FILL["period"] in view.query and view.persona and "one detail" in view.rules
        assert view.customers_turn and not view.done
        clock.advance(5)
        service.customer_says(cleo, attempt_id, "Hi, I need an agent by handle time.")
        with pytest.raises(CrmTuiError, match="Wait for the agent's reply"):
            service.customer_says(cleo, attempt_id, "Hello?")
        assert service.customer_conversations(finn) == []  # Cleo's now
        with pytest.raises(CrmTuiError, match="Another customer"):
            service.customer_says(finn, attempt_id, "Me too")
        clock.advance(5)
        service.reply_to_customer(attempt_id, "Which period?")
        clock.advance(5)
        service.customer_says(cleo, attempt_id, "The second quarter of 2023.")
        clock.advance(5)
        assert not service.reply_to_customer(attempt_id, GOLD).done
        clock.advance(5)
        view = service.customer_says(cleo, attempt_id, "Thanks", stop=True)
        assert view.done
        assert service.conversation(attempt_id).done
    with StudyStore.open(path, clock=clock) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
        turns = session.exec(select(ConversationTurn).order_by(ConversationTurn.position)).all()  # type: ignore[arg-type]
    assert (attempt.status, attempt.answer_raw, attempt.score) == (
        AttemptStatus.SUBMITTED,
        GOLD,
        1.0,
    )
    assert [(t.role, t.source) for t in turns] == [
        ("customer", f"person:{cleo}"),
        ("agent", "person"),
        ("customer", f"person:{cleo}"),
        ("agent", "person"),
        ("customer", f"person:{cleo}"),
    ]
    assert turns[-1].text == "Thanks ###STOP###"
    times = [as_utc(t.at) for t in turns]
    assert [(b - a).total_seconds() for a, b in zip(times, times[1:])] == [5, 5, 5, 5]


def test_no_stop_before_the_solver_replied_and_only_customers_play(study, clock):
    path, attempt_id, cleo, _ = study
    with StudyService.open(path, clock=clock) as service:
        with pytest.raises(CrmTuiError, match="has not replied yet"):
            service.customer_says(cleo, attempt_id, "", stop=True)
        with pytest.raises(CrmTuiError, match="customer role"):
            service.customer_conversations(1)  # Dana, an annotator


def test_a_person_is_held_to_the_turn_limit_as_the_simulated_customers_are(tmp_path, clock):
    """With three customer turns, the solver's reply to the third ends the conversation
    as it ends with the scripted customer: the customer gives up (stored), the reply is
    submitted and scored. The customer sees the turns left at each step."""
    path = tmp_path / "study.sqlite"
    attempt_id = one_conversation(path, clock, customer="person", max_user_turns=3)
    with StudyStore.open(path, clock=clock) as store:
        cleo = create_profile(store, "Cleo", "Customer", 2, mode="customer").id
    with StudyService.open(path, clock=clock) as service:
        service.open_conversation(attempt_id)
        (view,) = service.customer_conversations(cleo)
        assert (view.max_user_turns, view.turns_left) == (3, 3)
        for k, answer in enumerate((WRONG, WRONG, GOLD)):
            view = service.customer_says(cleo, attempt_id, f"Detail {k}")
            assert view.turns_left == 2 - k
            conversation = service.reply_to_customer(attempt_id, answer)
            assert conversation.done == (k == 2)
        assert conversation.submitted is not None
        with pytest.raises(CrmTuiError, match="has ended"):
            service.customer_says(cleo, attempt_id, "One more thing")
        assert service.customer_conversations(cleo) == []
    with StudyStore.open(path, clock=clock) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
        turns = session.exec(select(ConversationTurn).order_by(ConversationTurn.position)).all()  # type: ignore[arg-type]
    assert (attempt.status, attempt.answer_raw, attempt.score) == (
        AttemptStatus.SUBMITTED,
        GOLD,
        1.0,
    )
    assert [t.role for t in turns] == ["customer", "agent"] * 3 + ["customer"]
    assert (turns[-1].text, turns[-1].source) == (GIVE_UP, f"person:{cleo}")
