"""Bad task sets, agent result files and study files give one
line naming the file, a non-zero exit and leave every file as it was."""

from __future__ import annotations

import gc
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from crm_tui.cli import main
from crm_tui.study.store.db import StudyStore
from tests.helpers.cli import AGENT_FILE, fails, snapshot
from tests.helpers.paths import CRMARENA_TASKS


def task_rows(n: int = 3) -> list[dict]:
    return json.loads(CRMARENA_TASKS.read_text(encoding="utf-8"))[:n]


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


# ----------------------------------------------------------------- 9. task sets
def _task_set_texts() -> dict[str, str]:
    rows = task_rows()
    variants = {
        "deep": deep(100_000),
        "deep-in-a-row": json.dumps(rows)[:-1] + ", " + deep(5_000) + "]",
        "5000-digits": "[" + "9" * 5000 + "]",
        "idx-10^30": json.dumps([{**rows[0], "idx": 10**30}]),
        "lone-surrogate": json.dumps([{**rows[0], "query": "why \ud800?"}]),
    }
    changes: list[tuple[str, dict[str, object]]] = [
        ("task-list", {"task": ["a"]}),
        ("task-dict", {"task": {"a": 1}}),
        ("ours-list", {"crm_tui": ["x"]}),
        ("hash-list", {"crm_tui": {"taskset_hash": ["x"]}}),
        ("hash-dict", {"crm_tui": {"taskset_hash": {"x": 1}}}),
        ("org-list", {"crm_tui": {"org": ["x"]}}),
    ]
    for name, value in changes:
        variants[name] = json.dumps([{**rows[0], **value}, *rows[1:]])
    return variants


# Named here, built in the test: collecting must not read CRMArena's file (a bare clone
# skips these tests, see tests/conftest.py).
BAD_TASK_SETS = (
    "deep",
    "deep-in-a-row",
    "5000-digits",
    "idx-10^30",
    "lone-surrogate",
    "task-list",
    "task-dict",
    "ours-list",
    "hash-list",
    "hash-dict",
    "org-list",
)


@pytest.mark.parametrize("name", BAD_TASK_SETS)
def test_bad_task_sets_give_one_line_and_import_nothing(tmp_path, capsys, name):
    path = tmp_path / "tasks.json"
    path.write_bytes(_task_set_texts()[name].encode("utf-8", "surrogatepass"))
    before = snapshot(tmp_path)
    for argv in (
        ["tasks", "stats", path],
        ["tasks", "import", path, "--out", tmp_path / "out.json"],
        ["study", "create", "s", "--tasks", path, "--db", tmp_path / "study.sqlite"],
    ):
        line = fails(capsys, *argv)
        assert str(path) in line
    assert snapshot(tmp_path) == before


def test_only_regular_files_are_read_as_task_sets(tmp_path, capsys):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    done: list[str] = []

    def run() -> None:
        done.append(fails(capsys, "tasks", "stats", fifo))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=10)
    if thread.is_alive():  # unblock the reader we are testing for, then fail
        with open(fifo, "w"):
            pass
        pytest.fail("reading a FIFO as a task set hangs")
    assert "not a regular file" in done[0]
    line = fails(capsys, "tasks", "stats", "/dev/zero")
    assert "/dev/zero" in line and "not a regular file" in line


def test_a_task_set_past_the_size_bound_is_refused_unread(tmp_path, capsys, monkeypatch):
    from crm_tui.tasks import input_files

    monkeypatch.setattr(input_files, "MAX_INPUT_BYTES", 1000)
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(task_rows()), encoding="utf-8")
    line = fails(capsys, "tasks", "stats", path)
    assert str(path) in line and "larger than" in line


# ----------------------------------------------------------------- 9, 16. agent results
def _agent_texts() -> dict[str, str]:
    records = json.loads(AGENT_FILE.read_text(encoding="utf-8"))
    return {
        "deep": deep(100_000),
        "5000-digits": "[" + "9" * 5000 + "]",
        "task-id-10^30": json.dumps([{**records[0], "task_id": 10**30}]),
        "lone-surrogate": json.dumps([{**records[0], "task_type": "\ud800"}]),
        "task-type-list": json.dumps([{**records[0], "task_type": ["a"]}]),
        "jsonl-trial-10^30": json.dumps({"idx": 0, "agent": "a", "trial": 10**30, "answer": "x"}),
        "jsonl-idx-10^30": json.dumps({"idx": 10**30, "agent": "a", "answer": "x"}),
    }


@pytest.mark.parametrize("name", list(_agent_texts()))
def test_bad_agent_result_files_give_one_line_and_make_no_study_file(tmp_path, capsys, name):
    suffix = ".jsonl" if name.startswith("jsonl") else ".json"
    path = tmp_path / f"results_gpt-4o_react_all{suffix}"
    path.write_bytes(_agent_texts()[name].encode("utf-8", "surrogatepass"))
    before = snapshot(tmp_path)
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "agents", "import", path, "--task-set", CRMARENA_TASKS, "--db", db)
    assert str(path) in line
    assert snapshot(tmp_path) == before and not db.exists()


def test_a_trajectory_of_many_submit_tags_reads_in_linear_time(tmp_path):
    from crm_tui.study.results.agent_files import read_agent_results

    records = json.loads(AGENT_FILE.read_text(encoding="utf-8"))[:1]
    records[0]["agent_info"].pop("end_reason", None)
    records[0]["traj"] = [
        {
            "role": "assistant",
            "content": "<submit>" * 40_000 + "Action: submit Action Input: {" * 5_000,
        }
    ]
    path = tmp_path / "results_gpt-4o_react_all.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    start = time.perf_counter()
    parsed = read_agent_results(path)
    assert time.perf_counter() - start < 2.0
    assert parsed.runs[0].answers[0].answer is None  # no closed tag: no submission


# ----------------------------------------------------------------- 10. nothing made on failure
def test_a_failed_study_create_makes_no_study_file(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    line = fails(capsys, "study", "create", "  ", "--tasks", CRMARENA_TASKS, "--db", db)
    assert "name" in line
    line = fails(
        capsys, "study", "create", "s", "--tasks", CRMARENA_TASKS, "--db", db, "--items", "0"
    )
    assert not db.exists() and list(tmp_path.iterdir()) == []


# ----------------------------------------------------------------- 11, 12. study files
@pytest.fixture
def study_file(tmp_path) -> Path:
    db = tmp_path / "study.sqlite"
    main(["study", "create", "s", "--tasks", str(CRMARENA_TASKS), "--db", str(db)])
    assert not Path(f"{db}-wal").exists()  # closed: one file, no -wal or -shm beside it
    return db


def test_a_damaged_study_file_is_refused_in_one_line_and_not_written(study_file, capsys):
    size = study_file.stat().st_size
    with open(study_file, "r+b") as f:
        f.seek(size // 2)
        f.write(os.urandom(8192))
    before = snapshot(study_file.parent)
    for argv in (
        ["study", "status", "--db", study_file],
        ["study", "create", "t", "--tasks", CRMARENA_TASKS, "--db", study_file],
        ["results", "--db", study_file],
        ["agents", "import", AGENT_FILE, "--task-set", CRMARENA_TASKS, "--db", study_file],
    ):
        line = fails(capsys, *argv)
        assert str(study_file) in line and "damaged" in line
    assert snapshot(study_file.parent) == before


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        ("'x' || protocol_json", "study.protocol_json of row 1"),  # no longer JSON
        ("'{\"parts\": 5}'", "protocol is damaged"),  # JSON, but no protocol
    ],
    ids=["not-json", "not-a-protocol"],
)
def test_a_damaged_protocol_is_refused_and_leaves_no_file_open(study_file, capsys, damage, named):
    """A study whose stored protocol no longer reads (found by the fuzz test): refused in
    one line; the study file was left open, and its -wal and -shm stayed beside it."""
    with sqlite3.connect(study_file) as conn:
        conn.execute(f"UPDATE study SET protocol_json = {damage}")
    conn.close()
    before = snapshot(study_file.parent)
    for argv in (["study", "status", "--db", study_file], ["results", "--db", study_file]):
        line = fails(capsys, *argv)
        assert named in line
        gc.collect()  # a connection only a traceback held would be closed now
        assert snapshot(study_file.parent) == before


@pytest.mark.parametrize("kind", ["schema-version-table", "views-only"])
def test_another_apps_database_is_refused_unchanged(tmp_path, capsys, kind):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        if kind == "views-only":
            conn.execute("CREATE VIEW v AS SELECT 1 AS x")
        else:
            conn.execute("CREATE TABLE schema_version (version INTEGER, note TEXT)")
            conn.execute("INSERT INTO schema_version VALUES (7, 'theirs')")
            conn.execute("CREATE TABLE invoices (id INTEGER)")
    before = snapshot(tmp_path)
    for argv in (
        ["study", "status", "--db", db],
        ["study", "create", "s", "--tasks", CRMARENA_TASKS, "--db", db],
    ):
        line = fails(capsys, *argv)
        assert "not a crm-tui study file" in line
    assert snapshot(tmp_path) == before


def test_study_status_opens_read_only_and_leaves_no_journal(study_file, capsys):
    with StudyStore.open(study_file):
        pass
    before = snapshot(study_file.parent)
    main(["study", "status", "--db", str(study_file)])
    assert snapshot(study_file.parent) == before


def test_the_study_checks_run_as_a_process_too(study_file, tmp_path):
    """The same refusal from the installed entry point, as a real exit code."""
    shutil.copy(study_file, tmp_path / "copy.sqlite")
    with open(tmp_path / "copy.sqlite", "r+b") as f:
        f.seek(4096)
        f.write(b"\xff" * 4096)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from crm_tui.cli import main; main()",
            "study",
            "status",
            "--db",
            str(tmp_path / "copy.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr


# ----------------------------------------------------------------- 14. damaged org files
@pytest.mark.parametrize("damage", ["dropped-table", "garbage-date", "corrupt-pages"])
def test_a_damaged_org_file_gives_one_line_in_tasks_generate(
    tmp_path, capsys, small_org_path, damage
):
    org = tmp_path / "org.sqlite"
    shutil.copy(small_org_path, org)
    if damage == "corrupt-pages":
        data = bytearray(org.read_bytes())
        middle = len(data) // 2
        data[middle : middle + 65536] = b"\xff" * 65536
        org.write_bytes(bytes(data))
    else:
        conn = sqlite3.connect(org)
        if damage == "dropped-table":
            conn.execute('DROP TABLE "Case"')
        else:
            conn.execute("UPDATE \"Case\" SET CreatedDate = 'garbage' WHERE rowid < 5")
        conn.commit()
        conn.close()
    line = fails(capsys, "tasks", "generate", "--org", org, "--out", tmp_path / "t.json")
    # The file, and what is wrong with it: never "cannot fill the task set" from bad rows.
    assert line.startswith(f"crm-tui: {org} is damaged")
    assert {
        "dropped-table": "its table 'Case' is missing",
        "garbage-date": "Case.CreatedDate of 500",
        "corrupt-pages": "(SQLite integrity check: ",
    }[damage] in line
    assert not (tmp_path / "t.json").exists()


def _with_corrupt_pages(small_org_path: Path, org: Path, where: float) -> None:
    shutil.copy(small_org_path, org)
    data = bytearray(org.read_bytes())
    start = int(len(data) * where) // 4096 * 4096
    data[start : start + 65536] = b"\xff" * 65536
    org.write_bytes(bytes(data))


@pytest.mark.parametrize("command", ["check", "stats"])
@pytest.mark.parametrize("where", [0.2, 0.5, 0.8])
def test_org_check_and_stats_name_corrupt_pages_in_one_line(
    tmp_path, capsys, small_org_path, command, where
):
    org = tmp_path / "org.sqlite"
    _with_corrupt_pages(small_org_path, org, where)
    line = fails(capsys, "org", command, "--org", org)
    assert line.startswith(f"crm-tui: {org} is damaged"), line
    assert "unexpected" not in line


def test_every_bad_task_set_is_named():
    assert tuple(_task_set_texts()) == BAD_TASK_SETS
