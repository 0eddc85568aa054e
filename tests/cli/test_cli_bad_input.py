"""Bad input at the command line: one clear line naming the file, a non-zero exit, and
nothing written, replaced, created or converted (review pass over the non-TUI layers)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from crm_tui.atomic import check_output_path
from crm_tui.cli import main
from crm_tui.errors import CrmTuiError
from crm_tui.org.store import orgstore as store_module
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from tests.helpers.cli import AGENT_FILE, fails, snapshot
from tests.helpers.paths import CRMARENA_TASKS


@pytest.fixture
def foreign_db(tmp_path) -> Path:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    return path


@pytest.fixture
def empty_org(tmp_path) -> Path:
    path = tmp_path / "org.sqlite"
    with OrgStore.create(path) as org:
        org.finish()
    return path


# ----------------------------------------------------------------- output paths
def test_check_output_path_names_what_is_wrong(tmp_path):
    existing = tmp_path / "x.json"
    existing.write_text("{}")
    with pytest.raises(CrmTuiError, match="already exists .*--force"):
        check_output_path(existing, force=False)
    check_output_path(existing, force=True)
    with pytest.raises(CrmTuiError, match="it is a folder"):
        check_output_path(tmp_path, force=True)
    with pytest.raises(CrmTuiError, match="x.json is a file, not a folder"):
        check_output_path(existing / "sub" / "y.json", force=False)
    check_output_path(tmp_path / "new" / "deeper" / "y.json", force=False)


def test_tasks_generate_refuses_an_existing_output_without_force(tmp_path, capsys, empty_org):
    out = tmp_path / "tasks.json"
    out.write_text("keep me")
    line = fails(capsys, "tasks", "generate", "--org", empty_org, "--out", out)
    assert "already exists" in line and "--force" in line and str(out) in line
    assert out.read_text() == "keep me"


@pytest.mark.parametrize(
    "command", [["tasks", "generate", "--out"], ["tasks", "import", str(CRMARENA_TASKS), "--out"]]
)
def test_task_set_outputs_that_cannot_be_written_give_one_line(tmp_path, capsys, command):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    before = snapshot(tmp_path)
    line = fails(capsys, *command, blocker / "sub" / "tasks.json")
    assert str(blocker) in line and "not a folder" in line
    line = fails(capsys, *command, tmp_path)
    assert "it is a folder" in line
    assert snapshot(tmp_path) == before


def test_tasks_import_refuses_an_existing_output_without_force(tmp_path, capsys):
    out = tmp_path / "crmarena.json"
    out.write_text("keep me")
    line = fails(capsys, "tasks", "import", CRMARENA_TASKS, "--out", out)
    assert "already exists" in line and str(out) in line
    assert out.read_text() == "keep me"
    main(["tasks", "import", str(CRMARENA_TASKS), "--out", str(out), "--force"])
    assert len(json.loads(out.read_text())) == 1170


def test_tasks_import_of_a_binary_file_gives_one_line(tmp_path, capsys, foreign_db):
    line = fails(capsys, "tasks", "import", foreign_db)
    assert str(foreign_db) in line and "not UTF-8" in line


# ----------------------------------------------------------------- study files
def test_study_create_refuses_a_foreign_database_and_leaves_it_untouched(
    tmp_path, capsys, foreign_db, empty_org
):
    before = foreign_db.read_bytes()
    line = fails(capsys, "study", "create", "s1", "--tasks", CRMARENA_TASKS, "--db", foreign_db)
    assert str(foreign_db) in line and "not a crm-tui study file" in line
    assert foreign_db.read_bytes() == before  # no study tables, no switch to WAL
    with sqlite3.connect(foreign_db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["t"]


def test_an_org_file_is_never_used_as_a_study_file(tmp_path, capsys, empty_org):
    before = empty_org.read_bytes()
    for argv in (["study", "status"], ["results"]):
        line = fails(capsys, *argv, "--db", empty_org)
        assert "not a crm-tui study file" in line
    assert empty_org.read_bytes() == before
    assert not Path(f"{empty_org}-wal").exists()


def test_study_file_under_a_file_gives_one_line(tmp_path, capsys):
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    line = fails(
        capsys, "study", "create", "s1", "--tasks", CRMARENA_TASKS, "--db", blocker / "study.sqlite"
    )
    assert str(blocker) in line and "not a folder" in line
    line = fails(capsys, "study", "status", "--db", tmp_path)
    assert "is a folder" in line


def test_report_on_a_missing_study_file_creates_nothing(tmp_path, capsys):
    db = tmp_path / "missing.sqlite"
    line = fails(capsys, "results", "--db", db)
    assert "No study file at" in line and str(db) in line
    assert list(tmp_path.iterdir()) == []


def test_report_refuses_to_overwrite_without_force(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    StudyStore.open(db).close()
    out = tmp_path / "report.md"
    out.write_text("keep me")
    line = fails(capsys, "results", "--db", db, "--format", "md", "--out", out)
    assert "already exists" in line and "--force" in line
    assert out.read_text() == "keep me"


# ----------------------------------------------------------------- agent results
def test_agents_import_rejected_by_the_task_set_creates_no_study_file(tmp_path, capsys):
    wrong_tasks = tmp_path / "tasks.json"
    rows = json.loads(CRMARENA_TASKS.read_text(encoding="utf-8"))
    rows[0]["answer"] = "a different gold answer"
    wrong_tasks.write_text(json.dumps(rows), encoding="utf-8")
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "agents", "import", AGENT_FILE, "--task-set", wrong_tasks, "--db", db)
    assert "record 0" in line and "gold answer" in line
    assert not db.exists()


def test_agents_import_of_malformed_tool_calls_names_the_record(tmp_path, capsys):
    records = json.loads(AGENT_FILE.read_text(encoding="utf-8"))
    records[1]["agent_info"]["end_reason"] = {"source": "agent", "message": "Submit action"}
    records[1]["traj"] = [{"role": "assistant", "tool_calls": 5}]
    path = tmp_path / "results_gpt-4o_react_all.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    line = fails(
        capsys,
        "agents",
        "import",
        path,
        "--task-set",
        CRMARENA_TASKS,
        "--db",
        tmp_path / "study.sqlite",
    )
    assert "record 1" in line and "tool_calls" in line
    assert not (tmp_path / "study.sqlite").exists()


# ----------------------------------------------------------------- org files
def test_org_commands_on_a_folder_say_it_is_a_folder(tmp_path, capsys):
    for command in ("check", "stats"):
        line = fails(capsys, "org", command, "--org", tmp_path)
        assert str(tmp_path) in line and "is a folder" in line


def test_opening_a_non_org_file_closes_its_connection(tmp_path, monkeypatch, foreign_db):
    opened = []
    real_connect = store_module.connect

    def recording_connect(*args, **kwargs):
        opened.append(real_connect(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(store_module, "connect", recording_connect)
    with pytest.raises(CrmTuiError, match="not a crm-tui org file"):
        OrgStore.open(foreign_db)
    assert len(opened) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[0].execute("SELECT 1")
