"""Steps and labels of the process report on CRMArena-shaped trajectories (CRMArena's results file format):
Act/ReAct text turns and function-calling `tool_calls`, both read into one step model."""

from __future__ import annotations

import json

import pytest

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.process import Sight, summarise, trace
from crm_tui.study.results.steps import StepKind, agent_steps, steps_from_json, steps_to_json
from tests.helpers.crmarena_records import (
    NCR,
    call,
    fc_traj,
    record,
    submitted,
    text_traj,
    tool_output,
)
from tests.helpers.paths import AGENTS

GOLD = "005Ws000001xadBIAQ"
OTHER = "005Ws000001xZvdIAE"
USERS = f"Salesforce instance output: [{{'Id': '{GOLD}', 'Name': 'Ann'}}, {{'Id': '{OTHER}'}}]"
CASES = "Salesforce instance output: [{'Id': '500Ws000001ABCDIA2', 'Subject': 'Late'}]"


def react(observation: str, answer: str) -> list[dict]:
    traj = text_traj("<execute>SELECT Id, Name FROM User</execute>", f"<submit>{answer}</submit>")
    traj[3] = {"role": "user", "content": observation}  # the output of the <execute>
    return traj


def function_calling(output: str, answer: str) -> list[dict]:
    return fc_traj(
        call("get_agents", json.dumps({"case_id": "500Ws000001ABCDIA2"}), 1),
        tool_output("get_agents", output, 1),
        call("submit", json.dumps({"content": answer}), 2),
    )


def label(traj: list[dict], answer: str, gold: str = GOLD, task: str = NCR) -> tuple:
    steps = agent_steps(traj)
    one = trace(
        solver="agent",
        task=task,
        idx=390,
        who="trial 1",
        steps=steps,
        answer=answer,
        points=float(answer == gold),
        gold=gold,
        time=len(steps),
    )
    return one.label, one.first_sight_step, one.records, one.queries


@pytest.mark.parametrize("shape", [react, function_calling])
def test_saw_the_gold_in_an_observation_then_chose_another(shape):
    assert label(shape(USERS, OTHER), OTHER) == (Sight.CHOSE_OTHERWISE, 1, 2, 1)


@pytest.mark.parametrize("shape", [react, function_calling])
def test_never_queried_the_right_object_never_saw(shape):
    assert label(shape(CASES, OTHER), OTHER) == (Sight.NEVER_SAW, None, 1, 1)


@pytest.mark.parametrize("shape", [react, function_calling])
def test_right_answer_is_right_and_records_when_it_was_first_seen(shape):
    assert label(shape(USERS, GOLD), GOLD) == (Sight.RIGHT, 1, 2, 1)


def test_a_15_character_id_in_the_observation_is_the_gold_record():
    observation = f"Salesforce instance output: [{{'OwnerId': '{GOLD[:15]}'}}]"
    assert label(react(observation, OTHER), OTHER)[0] == Sight.CHOSE_OTHERWISE


def test_a_state_gold_is_seen_as_a_value_not_a_key():
    bri = "best_region_identification"
    seen = "Salesforce instance output: [{'ShippingState': 'NY', 'n': 4}, {'ShippingState': 'CA'}]"
    assert label(react(seen, "NY"), "NY", gold="CA", task=bri)[0] == Sight.CHOSE_OTHERWISE
    keys_only = "Salesforce instance output: [{'CA': 4}]"  # 'CA' as a key is not shown data
    assert label(react(keys_only, "NY"), "NY", gold="CA", task=bri)[0] == Sight.NEVER_SAW


def test_a_none_gold_leaves_a_wrong_answer_unjudged():
    assert label(react(USERS, OTHER), OTHER, gold="None")[0] == Sight.UNJUDGED


def test_steps_of_both_shapes_and_their_stored_form():
    text = agent_steps(react(USERS, OTHER))
    assert [s.kind for s in text] == [StepKind.QUERY, StepKind.ANSWER]
    assert text[0].object_name == "User" and text[0].rows == 2 and text[0].values == ("Ann",)
    assert text[1].detail == OTHER and [s.at for s in text] == [1, 2]
    fc = agent_steps(function_calling(USERS, OTHER))
    assert [s.kind for s in fc] == [StepKind.LOOKUP, StepKind.ANSWER]
    assert fc[0].record_ids == (GOLD, OTHER) and fc[0].detail.startswith("get_agents(")
    assert steps_from_json(steps_to_json(text)) == text


def test_a_result_file_keeps_the_trajectory_turns_tokens_and_cost(tmp_path):
    path = tmp_path / "results_gpt-4o_react_case_routing.json"
    rows = [record(390, NCR, GOLD, 0, react(USERS, OTHER), submitted(OTHER))]
    rows[0]["agent_info"]["usage"] = {"total_tokens": [900, 1000]}
    path.write_text(json.dumps(rows))
    (answer,) = read_agent_results(path).runs[0].answers
    assert answer.answer == OTHER
    assert [s.kind for s in answer.steps] == [StepKind.QUERY, StepKind.ANSWER]
    assert (answer.turns, answer.tokens, answer.cost) == (3, 1900, 0.01)


def test_summaries_per_family_and_all_humans_first():
    traces = [
        trace(
            solver=solver,
            task=NCR,
            idx=idx,
            who="x",
            steps=agent_steps(react(obs, ans)),
            answer=ans,
            points=float(ans == GOLD),
            gold=GOLD,
            time=2,
        )
        for solver, idx, obs, ans in [
            ("zeta", 1, USERS, OTHER),
            ("humans", 1, USERS, GOLD),
            ("humans", 2, CASES, OTHER),
        ]
    ]
    summaries = summarise(traces, ["NCR"])
    assert [(s.family, s.solver) for s in summaries] == [
        ("NCR", "humans"),
        ("NCR", "zeta"),
        ("ALL", "humans"),
        ("ALL", "zeta"),
    ]
    humans = summaries[0]
    assert humans.shares[Sight.RIGHT] == 0.5 and humans.shares[Sight.NEVER_SAW] == 0.5
    assert humans.median_steps == 2 and humans.median_first_sight == 1
    assert summaries[1].shares[Sight.CHOSE_OTHERWISE] == 1


def test_a_record_without_a_trajectory_is_not_judged(tmp_path):
    plain = read_agent_results(AGENTS / "plain_answers.jsonl")
    assert not any(a.traced for run in plain.runs for a in run.answers)
    one = trace(
        solver="agent",
        task=NCR,
        idx=391,
        who="trial 1",
        steps=(),
        answer=OTHER,
        points=0.0,
        gold=GOLD,
        time=None,
        traced=False,
    )
    assert one.label == Sight.UNJUDGED
