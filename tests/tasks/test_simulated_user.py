"""Simulated customers: the scripted one over a generated task set (its facts, opener,
answers, stop), a property test that it never states a fact the query does not hold, and
the LLM one on litellm's mock responses (no network, no key)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.pro_scoring import score_instance
from crm_tui.tasks.simulated_user import (
    AGENT,
    CUSTOMER,
    DONT_KNOW,
    FACT_WORDS,
    PERSONAS,
    STOP,
    ChatTurn,
    LlmUser,
    draw_persona,
    scripted_user,
)
from tests.helpers.fuzz import property_settings
from tests.helpers.llm import importorskip_litellm
from tests.helpers.task_org import random_org


@pytest.fixture(scope="module")
def taskset(tmp_path_factory):
    store = random_org(tmp_path_factory.mktemp("sim") / "random.sqlite")
    try:
        yield generate_taskset(store, per_task=6, seed=11)
    finally:
        store.close()


def user_of(inst, max_turns=10):
    return scripted_user(inst, lambda reply: score_instance(inst, reply) == 1.0, max_turns)


def first(taskset, task):
    return next(i for i in taskset.instances if i.task == task and i.answer is not None)


def test_asking_for_the_period_gets_it_then_the_answer_ends_the_conversation(taskset):
    inst = first(taskset, "handle_time")
    user = user_of(inst)
    opener = user.respond([])
    assert not opener.stop and "over some period" in opener.text.lower()
    assert user.facts["period"] in inst.query and user.facts["period"] not in opener.text
    dialogue = [ChatTurn(CUSTOMER, opener.text), ChatTurn(AGENT, "For which time period?")]
    told = user.respond(dialogue)
    assert told.fact == "period" and user.facts["period"] in told.text and not told.stop
    dialogue += [ChatTurn(CUSTOMER, told.text), ChatTurn(AGENT, "What is your favourite colour?")]
    assert user.respond(dialogue).text == DONT_KNOW
    dialogue += [ChatTurn(CUSTOMER, DONT_KNOW), ChatTurn(AGENT, inst.answer)]
    done = user.respond(dialogue)
    assert done.stop and STOP in done.text


def test_the_turn_limit_ends_the_conversation(taskset):
    user = user_of(first(taskset, "transfer_count"), max_turns=2)
    dialogue = [ChatTurn(CUSTOMER, user.respond([]).text), ChatTurn(AGENT, "Hm?")]
    dialogue += [ChatTurn(CUSTOMER, user.respond(dialogue).text), ChatTurn(AGENT, "Hm?")]
    assert user.respond(dialogue).stop


def test_every_generated_family_has_facts_or_a_plain_opener(taskset):
    for task, instances in taskset.by_task().items():
        user = user_of(instances[0])
        assert user.respond([]).text, task
        if task not in ("case_routing", "policy_violation_identification"):
            assert user.facts, task


@property_settings(max_examples=60)
@given(data=st.data())
def test_the_scripted_user_never_states_a_fact_the_query_does_not_hold(taskset, data):
    inst = data.draw(st.sampled_from(taskset.instances))
    user = user_of(inst)
    words = sorted({w for ws in FACT_WORDS.values() for w in ws})
    question = st.lists(st.sampled_from(words) | st.text(max_size=20), min_size=0, max_size=4).map(
        " ".join
    )
    dialogue = [ChatTurn(CUSTOMER, user.respond([]).text)]
    for _ in range(data.draw(st.integers(1, 8))):
        dialogue.append(ChatTurn(AGENT, data.draw(question)))
        message = user.respond(dialogue)
        if message.fact is not None:
            assert user.facts[message.fact] in inst.query
            assert user.facts[message.fact] in message.text
        else:
            assert message.text in (DONT_KNOW,) or message.stop
        dialogue.append(ChatTurn(CUSTOMER, message.text))
        if message.stop:
            break


def test_personas_are_drawn_the_same_per_item():
    assert draw_persona(3, 17) == draw_persona(3, 17) in PERSONAS


def test_the_llm_user_on_mock_responses():
    importorskip_litellm()
    user = LlmUser(
        "Which agent had the lowest handle time in Q2 2023?",
        PERSONAS[0],
        model="gpt-4o-mini",
        completion_options={"mock_response": "Hi, I need to know who handles cases fastest."},
    )
    opener = user.respond([])
    assert opener.text.startswith("Hi, I need") and not opener.stop
    messages = user.messages([ChatTurn(CUSTOMER, opener.text), ChatTurn(AGENT, "Which period?")])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "Q2 2023" in messages[0]["content"] and PERSONAS[0] in messages[0]["content"]
    user.completion_options["mock_response"] = f"Thanks! {STOP}"
    assert user.respond([ChatTurn(CUSTOMER, opener.text), ChatTurn(AGENT, "005...")]).stop
