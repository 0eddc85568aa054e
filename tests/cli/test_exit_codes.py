"""Every command exits 0 on success, 1 on a failure, 2 on a usage error,
as a real process (`crm-tui org check` used to exit 0 when it found problems)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import click
import pytest

from crm_tui.cli import main
from crm_tui.cli.main import cli

CLI = [sys.executable, "-c", "from crm_tui.cli import main; main()"]


def exit_codes(tmp_path, *argvs: list[str]) -> list[tuple[int, str]]:
    """Run each command line as its own process (in parallel): (exit code, stderr)."""
    env = {**os.environ, "CRM_TUI_HOME": str(tmp_path / "home")}
    procs = [
        subprocess.Popen([*CLI, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for argv in argvs
    ]
    answers = []
    for p in procs:
        _, err = p.communicate(timeout=120)
        answers.append((p.returncode, err.decode()))
    return answers


def test_org_check_exits_1_on_problems_0_when_clean_and_2_on_misuse(tmp_path, small_org_path):
    good = small_org_path
    bad = tmp_path / "bad.sqlite"
    shutil.copy(good, bad)
    with sqlite3.connect(bad) as conn:  # a case whose account does not exist
        conn.execute('UPDATE "Case" SET AccountId = ? WHERE rowid = 1', ("001Lc000000999999A",))
    codes = exit_codes(
        tmp_path,
        ["org", "check", "--org", str(good)],
        ["org", "check", "--org", str(bad)],
        ["org", "check", "--org", str(tmp_path / "missing.sqlite")],
        ["org", "check", "--no-such-option"],
        ["no-such-command"],
    )
    assert [code for code, _ in codes] == [0, 1, 1, 2, 2], codes
    for _code, err in codes[2:]:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def code_of(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as stop:
        return 0 if stop.code is None else int(stop.code)
    return 0


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        yield (*prefix, name)
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


@pytest.mark.parametrize("path", list(_commands(cli)), ids=" ".join)
def test_every_command_exits_0_on_help_and_2_on_a_bad_option(path, capsys):
    assert code_of([*path, "--help"]) == 0
    assert code_of([*path, "--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "No such option" in err
