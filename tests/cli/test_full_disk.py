"""A study on a full disk: the commands say the disk is full, in one line, and leave the
study as it was (not "not a crm-tui study file", which sends a person looking for damage).

The disk is a small tmpfs mounted in a user and mount namespace of the test's own
(`unshare -rm`), so no privilege and no real disk is needed; where the system forbids
such namespaces the tests skip, saying why.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crm_tui.cli import main
from tests.helpers.paths import CRMARENA_TASKS

CLI = f"{shlex.quote(sys.executable)} -c 'from crm_tui.cli import main; main()'"


def on_a_small_disk(disk: Path, kilobytes: int, script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` in a shell that sees a tmpfs of `kilobytes` at `disk`."""
    if shutil.which("unshare") is None:
        pytest.skip("no `unshare` to mount a small disk of the test's own")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip(f"user and mount namespaces are refused here: {probe.stderr!r}")
    disk.mkdir()
    mount = f"mount -t tmpfs -o size={kilobytes}k none {shlex.quote(str(disk))}"
    return subprocess.run(
        ["unshare", "-rm", "sh", "-c", f"{mount} && {script}"],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def study_file(tmp_path) -> Path:
    db = tmp_path / "study.sqlite"
    main(["study", "create", "s", "--tasks", str(CRMARENA_TASKS), "--db", str(db)])
    return db


def test_creating_a_study_on_a_full_disk_says_so_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("CRM_TUI_HOME", str(tmp_path / "home"))
    disk = tmp_path / "disk"
    target = shlex.quote(str(disk / "study.sqlite"))
    done = on_a_small_disk(
        disk,
        64,
        f"{CLI} study create s --tasks {shlex.quote(str(CRMARENA_TASKS))} --db {target}; "
        f"echo exit=$?; ls -A {shlex.quote(str(disk))}",
    )
    assert "exit=1" in done.stdout, done.stdout + done.stderr
    assert done.stdout.strip().endswith("exit=1"), done.stdout  # no file left on the disk
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1 and "disk is full" in line, done.stderr
    assert "not a crm-tui study file" not in line


def test_a_write_on_a_full_disk_says_so_and_keeps_the_study(study_file, tmp_path, monkeypatch):
    monkeypatch.setenv("CRM_TUI_HOME", str(tmp_path / "home"))
    disk = tmp_path / "disk"
    copy = disk / "study.sqlite"
    quoted = shlex.quote(str(copy))
    kilobytes = study_file.stat().st_size // 1024 + 256
    done = on_a_small_disk(
        disk,
        kilobytes,
        f"cp {shlex.quote(str(study_file))} {quoted} && "
        f"(dd if=/dev/zero of={shlex.quote(str(disk / 'filler'))} bs=4k 2>/dev/null; true) && "
        f"{CLI} study invite 'Rae Kim' --role annotator --db {quoted}; echo exit=$?; "
        f"rm {shlex.quote(str(disk / 'filler'))} && {CLI} study invitations --db {quoted}",
    )
    assert "exit=1" in done.stdout, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "disk is full" in lines[0], done.stderr
    assert "not a crm-tui study file" not in lines[0] and "Traceback" not in done.stderr
    assert "Rae Kim" not in done.stdout  # the invitation was not half made
