"""CRMArena-Pro result files, interactive runs included: dialogue, user turns, Pro's scoring."""

from __future__ import annotations

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import agent_answers, import_agent_results
from crm_tui.study.results.dialogue import AGENT, CUSTOMER, agent_dialogue, dialogue_from_json
from crm_tui.study.store.db import StudyStore
from crm_tui.tasks.taskset import imported, load_taskset
from tests.helpers.paths import AGENTS

PRO = AGENTS / "pro"


def test_an_interactive_pro_run_imports_with_its_dialogue_and_scores_by_pros_rules(tmp_path):
    taskset = imported(load_taskset(PRO / "pro_tasks.json"))
    parsed = read_agent_results(PRO / "results_gpt-4o_react_all.json")
    records = {a.task_idx: a for a in parsed.runs[0].answers}
    assert records[1].user_turns == 3  # num_turns[0]
    assert [t.role for t in records[1].dialogue] == [CUSTOMER, AGENT, CUSTOMER, AGENT, CUSTOMER]
    assert records[1].dialogue[2].text == "Opportunity 006Wt000003XYZaIAA."
    assert records[0].answer is None  # the user-turn limit: no submission
    with StudyStore.open(tmp_path / "study.sqlite") as store:
        summary = import_agent_results(store, [parsed], taskset)
        assert (summary.runs, summary.answers) == (1, 4)
        with store.transaction() as session:
            answers = {a.idx: a for _, a in agent_answers(session, taskset.content_hash)}
    assert {idx: a.score for idx, a in answers.items()} == {0: 0.0, 1: 1.0, 2: 1.0, 4: 1.0}
    assert answers[1].user_turns == 3
    assert dialogue_from_json(answers[1].dialogue_json) == records[1].dialogue


def test_a_single_turn_run_has_no_dialogue():
    traj = [
        {"role": "system", "content": "..."},
        {"role": "user", "content": "Which agent is fastest?"},
        {"role": "assistant", "content": "<execute>SELECT Id FROM Case</execute>"},
        {"role": "user", "content": "Salesforce instance output: []"},
        {"role": "assistant", "content": "<submit>None</submit>"},
    ]
    assert agent_dialogue(traj) == ()
