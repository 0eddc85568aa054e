"""`crm-tui study copy OUT`: a whole, consistent copy of a study file for offline work, even
while the file's latest writes are still in its -wal (a plain `cp` of the file misses
them); private, refused over another file without --force, and never over a device."""

from __future__ import annotations

import sqlite3
import stat

from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from tests.cli.test_study_exchange import new_study
from tests.helpers.cli import fails


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def names(path) -> list[str]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM annotator ORDER BY name")]


def test_a_copy_holds_what_is_still_in_the_wal(tmp_path):
    source, copy = tmp_path / "study.sqlite", tmp_path / "offline.sqlite"
    new_study(source)
    with StudyStore.open(source, FakeClock()) as store:  # open: the write stays in -wal
        create_profile(store, "Nia", "Customer Service Agent", 3)
        assert (tmp_path / "study.sqlite-wal").stat().st_size > 0
        code, out = run("study", "copy", copy, "--db", source)
        assert code == 0, out
    assert "Nia" in names(copy)
    assert not (tmp_path / "offline.sqlite-wal").exists()
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert str(copy) in out
    with StudyStore.open_existing(copy) as opened:  # a study file like any other
        assert opened.path == copy


def test_a_copy_is_refused_over_a_file_without_force_and_over_a_device(tmp_path, capsys):
    source, copy = tmp_path / "study.sqlite", tmp_path / "offline.sqlite"
    new_study(source)
    copy.write_text("mine")
    assert "--force" in fails(capsys, "study", "copy", copy, "--db", source)
    assert copy.read_text() == "mine"
    assert "regular file" in fails(capsys, "study", "copy", "/dev/null", "--db", source, "--force")
    assert "same file" in fails(capsys, "study", "copy", source, "--db", source, "--force")
    code, _out = run("study", "copy", copy, "--db", source, "--force")
    assert code == 0 and names(copy) == names(source)
