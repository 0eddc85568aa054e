"""`agents import` knows which task set a result file was made for.

Without `--task-set` the local task set scores the answers; a file made on CRMArena's
org (its gold answers and record Ids are CRMArena's) is refused, naming both sets,
instead of being scored against queries it never answered.
"""

from __future__ import annotations

import json

import pytest

from crm_tui.cli import main
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.taskset import write_taskset
from tests.helpers.cli import AGENT_FILE, fails
from tests.helpers.paths import AGENTS, CRMARENA_TASKS

PLAIN_ANSWERS = AGENTS / "plain_answers.jsonl"  # CRMArena Ids ("005Ws..."), no gold answers


@pytest.fixture(scope="module")
def local_tasks(small_org_path, tmp_path_factory):
    """A task set generated from a local org, numbered as CRMArena's (390: case_routing)."""
    path = tmp_path_factory.mktemp("tasks") / "default.json"
    with OrgStore.open(small_org_path) as org:
        write_taskset(generate_taskset(org, per_task=130, seed=1, allow_short=True), path)
    return path


@pytest.fixture
def local_default(local_tasks, monkeypatch):
    monkeypatch.setenv("CRM_TUI_TASKS", str(local_tasks))
    return local_tasks


@pytest.mark.parametrize("made_for_crmarena", [PLAIN_ANSWERS, AGENT_FILE], ids=["jsonl", "json"])
def test_a_crmarena_file_is_not_scored_against_the_local_task_set(
    made_for_crmarena, local_default, tmp_path, capsys
):
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "agents", "import", made_for_crmarena, "--db", db)
    assert str(made_for_crmarena) in line and "CRMArena's task set" in line
    assert str(local_default) in line and "--task-set" in line
    assert not db.exists()


def test_a_file_made_on_the_local_org_imports_against_the_local_task_set(
    local_default, tmp_path, capsys
):
    rows = json.loads(local_default.read_text())
    routed = [r for r in rows if r["task"] == "case_routing"][:3]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps({"idx": r["idx"], "agent": "mine", "trial": 1, "answer": r["answer"]}) + "\n"
            for r in routed
        )
    )
    main(["agents", "import", str(answers), "--db", str(tmp_path / "study.sqlite")])
    assert "imported 3 answers in 1 runs" in capsys.readouterr().out


def test_a_local_file_is_not_scored_against_crmarenas_task_set(local_default, tmp_path, capsys):
    rows = json.loads(local_default.read_text())
    routed = [r for r in rows if r["task"] == "case_routing"][:3]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps({"idx": r["idx"], "agent": "mine", "trial": 1, "answer": r["answer"]}) + "\n"
            for r in routed
        )
    )
    line = fails(
        capsys, "agents", "import", answers, "--task-set", CRMARENA_TASKS, "--db", tmp_path / "s"
    )
    assert str(CRMARENA_TASKS) in line and "local org" in line


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_a_task_set_given_as_results_is_named_a_task_set(tmp_path, capsys, suffix):
    """A task set passed where result files go: one line saying so and where it goes,
    not a complaint about its file name or a missing task_id."""
    rows = json.loads(CRMARENA_TASKS.read_text())[:3]
    path = tmp_path / f"tasks{suffix}"
    if suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        path.write_text(json.dumps(rows))
    line = fails(capsys, "agents", "import", path, "--db", tmp_path / "study.sqlite")
    assert "task set" in line and "--tasks" in line
    assert "file name" not in line and "task_id" not in line
