"""Read-only commands read a study file without writing to it or beside it.

`study status`, `report`, `study invitations` and `study export` open the file read-only,
so a read-only file, or a study in a read-only folder, is read like any other and left
byte for byte as it was, with no -wal or -shm beside it. Root writes read-only files, so
as root the commands run in a user namespace of their own (`unshare --user`), which keeps
root's uid but not its power over other files: the permission bits hold there as for
anyone else. CI runs as root, so this runs there too.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from crm_tui.cli import main
from crm_tui.study.store.db import StudyStore
from tests.helpers.cli import snapshot
from tests.helpers.paths import CRMARENA_TASKS

READ_ONLY_COMMANDS = {
    "status": ["study", "status"],
    "status one study": ["study", "status", "--study", "s"],
    "results": ["results"],
    "invitations": ["study", "invitations"],
}


def _unprivileged_prefix() -> list[str]:
    """What runs a command under the permission bits: nothing for a user; for root, a user
    namespace of its own (skip, saying why, where the system forbids one)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("unshare") is None:
        pytest.skip("running as root without `unshare` to drop root's power over files")
    probe = subprocess.run(["unshare", "--user", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip(f"running as root and `unshare --user` is refused: {probe.stderr!r}")
    return ["unshare", "--user"]


def run_unprivileged(argv: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _unprivileged_prefix()
        + [sys.executable, "-c", "from crm_tui.cli import main; main()"]
        + [str(a) for a in argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CRM_TUI_HOME": str(home)},
    )


@pytest.fixture
def study_file(tmp_path) -> Path:
    folder = tmp_path / "studies"
    folder.mkdir()
    db = folder / "study.sqlite"
    main(["study", "create", "s", "--tasks", str(CRMARENA_TASKS), "--db", str(db)])
    assert snapshot(folder).keys() == {"study.sqlite"}
    return db


@pytest.mark.parametrize("argv", list(READ_ONLY_COMMANDS.values()), ids=list(READ_ONLY_COMMANDS))
def test_read_only_commands_leave_the_study_file_byte_identical(study_file, capsys, argv):
    before = snapshot(study_file.parent)
    main([*argv, "--db", str(study_file)])
    assert capsys.readouterr().out
    assert snapshot(study_file.parent) == before  # the same bytes, no -wal or -shm made


def test_a_store_opened_read_only_cannot_write(study_file):
    before = study_file.read_bytes()
    with StudyStore.open_read_only(study_file) as store:
        assert (study_file.parent / "study.sqlite-shm").exists()  # read through mode=ro
        with pytest.raises(Exception, match="readonly|read-only"):
            with store.transaction() as session:
                session.connection().exec_driver_sql("UPDATE study SET name = 'x'")
    assert study_file.read_bytes() == before
    assert snapshot(study_file.parent).keys() == {"study.sqlite"}  # tidied after


def test_a_read_only_open_sees_a_live_writers_commits_and_leaves_its_files(study_file, capsys):
    """With a writer at work (its -wal beside the file), a read goes through its -shm."""
    writer = sqlite3.connect(study_file)
    try:
        writer.execute("UPDATE study SET name = 'renamed'")
        writer.commit()
        assert Path(f"{study_file}-wal").exists()
        main(["study", "status", "--db", str(study_file)])
        assert "renamed" in capsys.readouterr().out
        assert Path(f"{study_file}-wal").exists()  # the writer's, still in use
    finally:
        writer.close()
    assert snapshot(study_file.parent).keys() == {"study.sqlite"}


@pytest.mark.parametrize("argv", list(READ_ONLY_COMMANDS.values()), ids=list(READ_ONLY_COMMANDS))
def test_a_read_only_study_file_is_read_and_left_as_it_was(study_file, tmp_path, argv):
    study_file.chmod(stat.S_IRUSR)
    try:
        before = snapshot(study_file.parent)
        done = run_unprivileged([*argv, "--db", study_file], tmp_path / "home")
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        assert done.stdout.strip()
        assert snapshot(study_file.parent) == before
    finally:
        study_file.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.parametrize("argv", list(READ_ONLY_COMMANDS.values()), ids=list(READ_ONLY_COMMANDS))
def test_a_study_in_a_read_only_folder_is_read_saying_so(study_file, tmp_path, argv):
    folder = study_file.parent
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        before = snapshot(folder)
        done = run_unprivileged([*argv, "--db", study_file], tmp_path / "home")
        assert done.returncode == 0, done.stderr
        assert "not a crm-tui study file" not in done.stderr
        assert done.stderr.strip() == (
            f"note: {folder} is read-only: reading study.sqlite as it is on disk, without "
            "making a -wal or -shm beside it (changes made meanwhile are not seen)"
        )
        assert done.stdout.strip()
        assert snapshot(folder) == before
    finally:
        folder.chmod(stat.S_IRWXU)


def test_a_read_only_command_makes_no_tables_in_an_empty_file(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(SystemExit) as caught:
        main(["study", "status", "--db", str(empty)])
    assert caught.value.code == 1
    assert "No study in" in capsys.readouterr().err
    assert empty.read_bytes() == b"" and snapshot(tmp_path).keys() == {"empty.sqlite"}


def test_a_write_to_a_study_in_a_read_only_folder_says_the_folder_is_read_only(
    study_file, tmp_path
):
    folder = study_file.parent
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        before = snapshot(folder)
        done = run_unprivileged(
            ["study", "invite", "Rae Kim", "--role", "annotator", "--db", study_file],
            tmp_path / "home",
        )
        assert snapshot(folder) == before
    finally:
        folder.chmod(stat.S_IRWXU)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not a crm-tui study file" not in done.stderr
    assert f"its folder {folder} is read-only" in done.stderr, done.stderr


def test_a_write_to_a_read_only_study_file_says_the_file_is_read_only(study_file, tmp_path):
    study_file.chmod(stat.S_IRUSR)
    try:
        before = study_file.read_bytes()
        done = run_unprivileged(
            ["study", "invite", "Rae Kim", "--role", "annotator", "--db", study_file],
            tmp_path / "home",
        )
        assert study_file.read_bytes() == before
    finally:
        study_file.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "OperationalError" not in done.stderr and "not a crm-tui study file" not in done.stderr
    assert "the file is read-only" in done.stderr, done.stderr
