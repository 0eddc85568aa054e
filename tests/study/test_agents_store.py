"""Agent runs in a real study file: trials, re-scoring, re-import, all-or-nothing errors."""

from __future__ import annotations

import json
import sqlite3

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import (
    AgentAnswer,
    AgentRun,
    agent_answers,
    import_agent_results,
)
from crm_tui.study.store.db import StudyStore
from crm_tui.tasks.taskset import load_taskset
from tests.helpers.crmarena_records import FC_CASES, TEXT_CASES, crashed
from tests.helpers.paths import AGENTS as DATA
from tests.helpers.paths import CRMARENA_TASKS, ROOT

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
    # a 15-character Id: CRMArena's raw equality says 0, our scorer says 1
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


# ----------------------------------------------------------------- scored as CRMArena scores
def import_cases(store, taskset, tmp_path):
    files = []
    for strategy, cases in (("react", TEXT_CASES), ("tool_call", FC_CASES)):
        path = tmp_path / f"results_scripted_{strategy}_all.json"
        path.write_text(json.dumps([case.record for case in cases], indent=1))
        files.append(read_agent_results(path))
    import_agent_results(store, files, taskset)
    with store.transaction() as session:
        return {
            (run.strategy, answer.idx): answer
            for run, answer in agent_answers(session, taskset.content_hash)
        }


def test_rescore_equals_crmarenas_reward_except_where_the_docs_name_the_decision(
    store, crmarena_tasks, tmp_path
):
    stored = import_cases(store, crmarena_tasks, tmp_path)
    scoring_page = (ROOT / "docs" / "site-src" / "tasks.md").read_text(encoding="utf-8")
    for strategy, cases in (("react", TEXT_CASES), ("tool_call", FC_CASES)):
        for case in cases:
            answer = stored[strategy, case.record["task_id"]]
            assert (answer.answer, answer.crmarena_reward) == (case.answer, case.reward), case
            assert answer.score == pytest.approx(case.score), case.name
            if case.decision:
                assert answer.score != case.reward and case.decision in scoring_page, case.name
            else:
                assert answer.score == pytest.approx(case.reward), case.name


def test_an_agent_that_crashes_on_every_task_scores_0_even_on_none_golds(
    store, crmarena_tasks, tmp_path
):
    records = [crashed(inst.idx, inst.task, inst.answer, []) for inst in crmarena_tasks.instances]
    path = tmp_path / "results_crashing_react_all.json"
    path.write_text(json.dumps(records))
    import_agent_results(store, [read_agent_results(path)], crmarena_tasks)
    scores = [row[-1] for row in rows(store, crmarena_tasks)]
    assert len(scores) == 1170 and sum(scores) == 0.0  # 195 golds are None


def write(tmp_path, name, records):
    path = tmp_path / name
    path.write_text(json.dumps(records, indent=2))  # as run_tasks.py writes it
    return path


def test_a_file_that_extends_an_imported_one_replaces_it(store, crmarena_tasks, tmp_path):
    records = [case.record for case in TEXT_CASES]
    (tmp_path / "mid-run").mkdir()
    checkpoint = write(tmp_path / "mid-run", "results_gpt-4o_react_all.json", records[:3])
    finished = write(tmp_path, "results_gpt-4o_react_all.json", records)
    import_agent_results(store, [read_agent_results(checkpoint)], crmarena_tasks)
    summary = import_agent_results(store, [read_agent_results(finished)], crmarena_tasks)
    assert (summary.runs, summary.answers) == (1, len(records))
    assert "replaces" in summary.notes[0] and "trial 1" in summary.notes[0]
    table = rows(store, crmarena_tasks)
    assert {trial for _, _, trial, *_ in table} == {1} and len(table) == len(records)
    # the checkpoint again: it is part of trial 1, not a trial 2
    summary = import_agent_results(store, [read_agent_results(checkpoint)], crmarena_tasks)
    assert (summary.runs, summary.skipped_files) == (0, (str(checkpoint),))
    assert "already imported" in summary.notes[0]
    assert rows(store, crmarena_tasks) == table


def test_records_equal_across_files_alone_do_not_make_a_checkpoint(store, crmarena_tasks, tmp_path):
    # an agent at temperature 0 may repeat some records exactly in another trial
    records = [case.record for case in TEXT_CASES]
    (tmp_path / "one").mkdir()
    first = write(tmp_path / "one", "results_scripted_react_all.json", records[:3])
    again = write(tmp_path, "results_scripted_react_all.json", records[2:6])
    for path in (first, again):
        summary = import_agent_results(store, [read_agent_results(path)], crmarena_tasks)
        assert summary.notes == ()
    trials = {(trial, idx) for _, _, trial, idx, *_ in rows(store, crmarena_tasks)}
    assert (1, 659) in trials and (2, 659) in trials and (2, 666) in trials


def test_a_rerun_of_the_same_tasks_is_still_a_new_trial(store, crmarena_tasks, tmp_path):
    records = [case.record for case in TEXT_CASES[:3]]
    again = json.loads(json.dumps(records))
    for record in again:
        record["agent_info"]["total_cost"] = 0.02  # another run: never byte-identical
    for name, batch in (("one", records), ("two", again)):
        (tmp_path / name).mkdir()
        path = write(tmp_path / name, "results_m_react_all.json", batch)
        import_agent_results(store, [read_agent_results(path)], crmarena_tasks)
    assert {trial for _, _, trial, *_ in rows(store, crmarena_tasks)} == {1, 2}


def test_migrating_a_version_4_file_zeroes_scores_of_no_submission(tmp_path):
    path = tmp_path / "v4.sqlite"
    StudyStore.open(path, target_version=4).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO agent_run VALUES (1, 'm', 'react', 1, 'h', 'f.json', 'x', NULL, "
            "'2025-01-01 00:00:00')"
        )
        conn.executemany(
            "INSERT INTO agent_answer VALUES (?, 1, ?, 'handle_time', ?, 0.0, ?, '')",
            [(1, 653, None, 1.0), (2, 659, "None", 1.0)],  # a crash was scored 1 on a None gold
        )
    with StudyStore.open(path) as store, store.transaction() as session:
        scores = {a.idx: a.score for a in session.exec(select(AgentAnswer))}
    assert scores == {653: 0.0, 659: 1.0}
