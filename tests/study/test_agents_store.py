"""Agent runs in a real study file: trials, re-scoring, re-import, all-or-nothing errors."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from crm_tui.bench.taskset import load_taskset
from crm_tui.errors import CrmTuiError
from crm_tui.study.agent_results import read_agent_results
from crm_tui.study.agents_store import (
    AgentAnswer,
    AgentRun,
    agent_answers,
    import_agent_results,
)
from crm_tui.study.db import StudyStore
from tests.helpers.paths import AGENTS as DATA
from tests.helpers.paths import CRMARENA_TASKS

GPT_TRIALS = [DATA / f"trial{n}" / "results_gpt-4o_react_all.json" for n in (1, 2, 3)]
CLAUDE_FC = DATA / "results_claude-3.5-sonnet_tool_call_case_routing.json"


@pytest.fixture(scope="module")
def crmarena_tasks():
    return load_taskset(CRMARENA_TASKS)


@pytest.fixture
def store(tmp_path):
    with StudyStore.open(tmp_path / "study.sqlite") as opened:
        yield opened


def rows(store, taskset):
    with store.transaction() as session:
        return [
            (
                run.model,
                run.strategy,
                run.trial,
                answer.idx,
                answer.answer,
                answer.crmarena_reward,
                answer.score,
            )
            for run, answer in agent_answers(session, taskset.content_hash)
        ]


def test_three_files_of_one_agent_are_trials_one_to_three_and_are_rescored(store, crmarena_tasks):
    files = [read_agent_results(path) for path in GPT_TRIALS]
    summary = import_agent_results(store, files, crmarena_tasks)
    assert (summary.runs, summary.answers, summary.skipped_files) == (3, 13, ())
    table = {
        (trial, idx): (answer, reward, ours)
        for _, _, trial, idx, answer, reward, ours in rows(store, crmarena_tasks)
    }
    # knowledge QA: F1 of "advanced sole technology" against the 6-token gold = 2·1·½/1½
    assert table[1, 0] == ("advanced sole technology", pytest.approx(2 / 3), pytest.approx(2 / 3))
    # a 15-character Id: CRMArena's raw equality says 0, our scorer (spec 14.9) says 1
    assert table[1, 391] == ("005Ws000001xZvd", 0.0, 1.0)
    assert table[1, 651] == (None, 0.0, 0.0)  # the error record
    assert table[1, 653] == ("None", 1.0, 1.0)  # gold null, answer "None"
    assert table[2, 391] == ("005Ws000009zzzzIAA", 0.0, 0.0)
    assert table[3, 653] == ("005Ws000001xSR9IAM", 0.0, 0.0)
    assert sorted({trial for trial, _ in table}) == [1, 2, 3]


def test_another_familys_file_joins_an_existing_trial(store, crmarena_tasks, tmp_path):
    import_agent_results(store, [read_agent_results(GPT_TRIALS[1])], crmarena_tasks)
    kqa_only = tmp_path / "results_gpt-4o_react_knowledge_qa.json"
    kqa_only.write_text(json.dumps([json.loads(GPT_TRIALS[0].read_text())[0]]))
    import_agent_results(store, [read_agent_results(kqa_only)], crmarena_tasks)
    trials = {idx: trial for _, _, trial, idx, *_ in rows(store, crmarena_tasks)}
    assert trials[0] == 1 and trials[390] == 1  # task 0 was not answered in trial 1 yet


def test_reimporting_a_file_adds_nothing(store, crmarena_tasks, tmp_path):
    import_agent_results(store, [read_agent_results(CLAUDE_FC)], crmarena_tasks)
    before = rows(store, crmarena_tasks)
    copy = tmp_path / CLAUDE_FC.name  # same bytes under another path
    copy.write_bytes(CLAUDE_FC.read_bytes())
    summary = import_agent_results(store, [read_agent_results(copy)], crmarena_tasks)
    assert (summary.runs, summary.answers, summary.skipped_files) == (0, 0, (str(copy),))
    assert rows(store, crmarena_tasks) == before


def test_jsonl_answers_keep_their_trials_and_a_clash_is_refused(store, crmarena_tasks, tmp_path):
    import_agent_results(store, [read_agent_results(DATA / "plain_answers.jsonl")], crmarena_tasks)
    assert [(m, s, t, i, a, r, o) for m, s, t, i, a, r, o in rows(store, crmarena_tasks)] == [
        ("my-agent", "custom", 1, 390, "005Ws000001xadBIAQ", None, 1.0),
        ("my-agent", "custom", 1, 391, None, None, 0.0),
        ("my-agent", "custom", 2, 390, "005Ws000001xadBIAQ", None, 1.0),
    ]
    clash = tmp_path / "more.jsonl"
    clash.write_text('{"idx": 391, "agent": "my-agent", "trial": 1, "answer": "x"}\n')
    with pytest.raises(CrmTuiError, match="trial 1 already has an answer for task 391"):
        import_agent_results(store, [read_agent_results(clash)], crmarena_tasks)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda r: r.update(task_id=99999), "record 1: task 99999 is not in"),
        (lambda r: r.update(gt_answer="005Ws000001xSR9IAM"), "record 1: the file's gold answer"),
        (lambda r: r.update(task_type="handle_time"), "record 1: task 390 is 'handle_time'"),
    ],
)
def test_a_file_that_does_not_fit_the_task_set_imports_nothing(
    store, crmarena_tasks, tmp_path, change, message
):
    records = json.loads(GPT_TRIALS[0].read_text())
    change(records[1])
    bad = tmp_path / "results_gpt-4o_react_all.json"
    bad.write_text(json.dumps(records))
    good = read_agent_results(CLAUDE_FC)
    with pytest.raises(CrmTuiError, match=f"{bad}: {message}"):
        import_agent_results(store, [good, read_agent_results(bad)], crmarena_tasks)
    with store.transaction() as session:
        assert session.exec(select(AgentRun)).all() == []  # not even the good file


def test_the_agent_tables_match_their_migration(store):
    with store.engine.connect() as conn:
        for model in (AgentRun, AgentAnswer):
            migrated = [
                row[1] for row in conn.exec_driver_sql(f"PRAGMA table_info({model.__tablename__})")
            ]
            assert migrated == [column.name for column in model.__table__.columns]
