"""Reading agent result files: CRMArena's run_tasks.py format and the plain JSONL form."""

from __future__ import annotations

import json
import re

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.agent_files import read_agent_results
from tests.helpers.crmarena_records import FC_CASES, TEXT_CASES, Case, record, submitted
from tests.helpers.paths import AGENTS as DATA

TRIAL1 = DATA / "trial1" / "results_gpt-4o_react_all.json"


def by_task(result_file):
    (run,) = result_file.runs
    return {answer.task_idx: answer for answer in run.answers}


def test_model_strategy_and_task_come_from_the_file_name():
    parsed = read_agent_results(TRIAL1)
    (run,) = parsed.runs
    assert (run.model, run.strategy, run.trial, parsed.task_category) == (
        "gpt-4o",
        "react",
        None,
        "all",
    )
    fc = read_agent_results(DATA / "results_claude-3.5-sonnet_tool_call_case_routing.json")
    assert (fc.runs[0].model, fc.runs[0].strategy, fc.task_category) == (
        "claude-3.5-sonnet",
        "tool_call",
        "case_routing",
    )


@pytest.mark.parametrize(
    "stem, expected",
    [
        ("results_gpt-4o_tool_call_flex_handle_time", ("gpt-4o", "tool_call_flex", "handle_time")),
        ("results_o1_act_knowledge_qa,case_routing", ("o1", "act", "knowledge_qa,case_routing")),
        ("results_my_model_react_all", ("my_model", "react", "all")),
    ],
)
def test_file_name_variants(tmp_path, stem, expected):
    path = tmp_path / f"{stem}.json"
    one = record(0, "handle_time", "005A", 1, [], submitted("005A"))  # an empty file is refused
    path.write_text(json.dumps([one]))
    parsed = read_agent_results(path)
    assert (parsed.runs[0].model, parsed.runs[0].strategy, parsed.task_category) == expected


def test_final_answers_exact_fuzzy_and_error_records():
    answers = by_task(read_agent_results(TRIAL1))
    assert answers[0].answer == "advanced sole technology"
    assert answers[0].crmarena_reward == pytest.approx(2 / 3)  # the fuzzy reward's F1
    assert answers[390].answer == "005Ws000001xadBIAQ"
    assert answers[390].crmarena_reward == 1.0
    assert answers[391].answer == "005Ws000001xZvd"
    assert answers[653].answer == "None" and answers[653].gold is None
    # an exception record: no answer even though the trajectory holds a submit
    assert answers[651].answer is None and answers[651].crmarena_reward == 0.0
    assert answers[651].end_reason.startswith("Error:")


def test_answer_falls_back_to_the_last_submit_in_the_trajectory():
    answers = by_task(read_agent_results(DATA / "trial2" / "results_gpt-4o_react_all.json"))
    assert answers[390].answer == "005Ws000001xadBIAQ"


def test_function_calling_answers_come_from_submit_and_respond_tool_calls():
    answers = by_task(
        read_agent_results(DATA / "results_claude-3.5-sonnet_tool_call_case_routing.json")
    )
    assert answers[390].answer == "005Ws000001xZvdIAE"  # the submit tool's content
    assert answers[391].answer == "005Ws000001xZvdIAE"  # respond tool (CRMArena's current code)


def test_options_override_the_file_name_and_are_needed_without_one(tmp_path):
    path = tmp_path / "run.json"
    path.write_bytes(TRIAL1.read_bytes())
    with pytest.raises(CrmTuiError, match="--model and --strategy"):
        read_agent_results(path)
    parsed = read_agent_results(path, model="m", strategy="act", task_category="x")
    run = parsed.runs[0]
    assert (run.model, run.strategy, parsed.task_category) == ("m", "act", "x")


def test_the_content_hash_is_of_the_bytes(tmp_path):
    copy = tmp_path / TRIAL1.name
    copy.write_bytes(TRIAL1.read_bytes())
    assert read_agent_results(copy).content_hash == read_agent_results(TRIAL1).content_hash
    copy.write_bytes(TRIAL1.read_bytes() + b"\n")
    assert read_agent_results(copy).content_hash != read_agent_results(TRIAL1).content_hash


def test_plain_jsonl_groups_answers_by_agent_and_trial():
    parsed = read_agent_results(DATA / "plain_answers.jsonl", strategy="react")
    runs = {(run.model, run.strategy, run.trial): run for run in parsed.runs}
    assert set(runs) == {("my-agent", "react", 1), ("my-agent", "react", 2)}
    first = {a.task_idx: a.answer for a in runs["my-agent", "react", 1].answers}
    assert first == {390: "005Ws000001xadBIAQ", 391: None}
    assert runs["my-agent", "react", 2].answers[0].answer == "005Ws000001xadBIAQ"
    assert runs["my-agent", "react", 1].answers[0].crmarena_reward is None


def _with_record(tmp_path, index, change):
    records = json.loads(TRIAL1.read_text())
    change(records[index])
    path = tmp_path / TRIAL1.name
    path.write_text(json.dumps(records))
    return path


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.pop("task_id"), "record 2: missing field 'task_id'"),
        (lambda r: r.update(task_id="391"), "record 2: task_id"),
        (lambda r: r.update(reward=3), "record 2: reward"),
        (lambda r: r.update(reward={"em": True}), "record 2: reward: a fuzzy-match reward"),
        (lambda r: r.update(agent_info=[]), "record 2: agent_info"),
        (lambda r: r["agent_info"].update(end_reason="Submit action"), "record 2: agent_info"),
        (lambda r: r.update(task_id=390), "record 2: task_id 390 appears twice"),
    ],
)
def test_a_bad_record_rejects_the_file_naming_file_and_index(tmp_path, change, message):
    path = _with_record(tmp_path, 2, change)
    with pytest.raises(CrmTuiError, match=re.escape(f"{path}: {message}")):
        read_agent_results(path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{broken", "invalid JSON"),
        ('{"task_id": 1}', "expected a JSON array"),
    ],
)
def test_a_file_that_is_not_a_result_array(tmp_path, text, message):
    path = tmp_path / "results_m_act_all.json"
    path.write_text(text)
    with pytest.raises(CrmTuiError, match=message):
        read_agent_results(path)


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"agent": "a", "trial": 1, "answer": "x"}', "line 2: missing field 'idx'"),
        ('{"idx": 1, "trial": 1, "answer": "x"}', "line 2: missing field 'agent'"),
        ('{"idx": 1, "agent": "a", "trial": 0, "answer": "x"}', "line 2: trial"),
        ('{"idx": 390, "agent": "a", "trial": 1, "answer": "y"}', "line 2: task 390 already"),
        ("not json", "line 2: invalid JSON"),
    ],
)
def test_a_bad_jsonl_line_rejects_the_file_naming_the_line(tmp_path, line, message):
    path = tmp_path / "answers.jsonl"
    path.write_text('{"idx": 390, "agent": "a", "trial": 1, "answer": "x"}\n' + line + "\n")
    with pytest.raises(CrmTuiError, match=message):
        read_agent_results(path)


# ----------------------------------------------------------------- what CRMArena counts
def write_records(tmp_path, name, records):
    path = tmp_path / name
    path.write_text(json.dumps(records, indent=1))
    return path


@pytest.mark.parametrize(
    "strategy, case",
    [("react", case) for case in TEXT_CASES] + [("tool_call", case) for case in FC_CASES],
    ids=lambda value: value.name if isinstance(value, Case) else value,
)
def test_only_what_crmarena_counts_as_a_submission_is_an_answer(tmp_path, strategy, case):
    path = write_records(tmp_path, f"results_scripted_{strategy}_all.json", [case.record])
    (answer,) = read_agent_results(path).runs[0].answers
    assert answer.answer == case.answer
    assert answer.crmarena_reward == case.reward
    if case.answer is None:
        assert answer.end_reason  # why there is no submission


def test_list_golds_are_read_as_the_scalar_they_hold(tmp_path):
    by_name = {case.name: case for case in TEXT_CASES}
    records = [
        by_name["list gold [null], current code's respond"].record,
        by_name["list gold, parsed answer"].record,
    ]
    answers = by_task(read_agent_results(write_records(tmp_path, TRIAL1.name, records)))
    assert (answers[520].gold, answers[520].has_gold) == (None, True)
    assert answers[650].gold == "005Ws000001xSR9IAM"


def test_without_an_end_reason_only_a_last_turn_crmarena_would_run_as_submit_counts(tmp_path):
    records = json.loads((DATA / "trial2" / "results_gpt-4o_react_all.json").read_text())
    (no_end,) = [r for r in records if "end_reason" not in r["agent_info"]]
    executes_too = json.loads(json.dumps(no_end))
    executes_too["task_id"] = 391
    executes_too["traj"][-1]["content"] = (
        "<execute>SELECT Id FROM Case</execute>\n<submit>005Ws000001xadBIAQ</submit>"
    )
    earlier = json.loads(json.dumps(no_end))
    earlier["task_id"] = 651
    earlier["traj"] += [{"role": "user", "content": "x"}, {"role": "assistant", "content": "Hm."}]
    answers = by_task(
        read_agent_results(write_records(tmp_path, TRIAL1.name, [no_end, executes_too, earlier]))
    )
    assert answers[390].answer == "005Ws000001xadBIAQ"
    assert answers[391].answer is None and answers[651].answer is None


def test_a_jsonl_null_answer_is_no_submission_and_none_is_text():
    runs = read_agent_results(DATA / "plain_answers.jsonl").runs
    first = {a.task_idx: a for a in runs[0].answers}
    assert first[391].answer is None and first[391].end_reason == "no submission"
