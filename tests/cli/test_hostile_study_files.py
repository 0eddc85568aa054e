"""Study files made by someone else: triggers of theirs never run in our writes, and names
with terminal control sequences are printed escaped, never as sequences."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import find_study
from tests.cli.test_study_exchange import new_study
from tests.helpers.cli import fails

ESCAPES = "Eve\x1b]0;owned\x07\x1b[2J\x9b31m\u202e"


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_a_study_file_with_a_trigger_not_ours_is_refused(tmp_path, capsys):
    db = tmp_path / "study.sqlite"
    new_study(db)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "CREATE TRIGGER promote AFTER INSERT ON invitation BEGIN "
            "UPDATE invitation SET mode = 'coordinator' WHERE id = NEW.id; END"
        )
    conn.close()
    line = fails(capsys, "study", "invite", "Rae Kim", "--role", "annotator", "--db", db)
    assert "promote" in line and "trigger" in line, line
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM invitation").fetchone()[0] == 0
    conn.close()
    line = fails(capsys, "study", "status", "--db", db)
    assert "trigger" in line


def test_our_own_triggers_pass(tmp_path):
    db = tmp_path / "study.sqlite"
    new_study(db)
    code, text = run("study", "status", "--db", db)
    assert code == 0, text


def test_names_with_terminal_sequences_are_printed_escaped(tmp_path):
    db = tmp_path / "study.sqlite"
    new_study(db)
    clock = FakeClock()
    with StudyStore.open(db, clock) as store:
        study_id = row_id(find_study(store, "pilot"))
        eve = create_profile(store, ESCAPES, "Customer Service Associate", 2)
        attempts.open_next(store, study_id, row_id(eve))
    code, text = run("study", "status", "--db", db)
    assert code == 0, text
    assert "Eve" in text
    for control in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert control not in text, repr(text)
    assert "\\x1b" in text
