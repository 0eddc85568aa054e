"""A study file damaged where SQLite's own integrity check cannot see it (a dropped table,
text where a number belongs, garbage where JSON belongs) is refused when it opens, in one
line naming the table and the field, and left as it was: never read half-way into a
traceback or a report built on garbage."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import find_study
from tests.cli.test_study_exchange import new_study
from tests.helpers.cli import fails, snapshot

DAMAGE = {  # what is done to the file -> what the one line names
    "DROP TABLE attempt": "its table 'attempt' is missing",
    "DROP TABLE event": "its table 'event' is missing",
    "ALTER TABLE attempt DROP COLUMN active_ms": "attempt has no column 'active_ms'",
    "UPDATE attempt SET active_ms = 'lots'": "attempt.active_ms",
    "UPDATE study_item SET gold_json = '{not json'": "study_item.gold_json",
    "UPDATE annotator SET crm_years = 'many'": "annotator.crm_years",
    "UPDATE attempt SET started_at = 'yesterday'": "attempt.started_at",
}


@pytest.fixture(scope="module")
def answered(tmp_path_factory) -> Path:
    """A study with an answered attempt and one still open."""
    db = tmp_path_factory.mktemp("answered") / "study.sqlite"
    new_study(db)
    clock = FakeClock()
    with StudyStore.open(db, clock) as store:
        study_id = row_id(find_study(store, "pilot"))
        dana = create_profile(store, "Dana", "Customer Service Associate", 6)
        view = attempts.open_next(store, study_id, row_id(dana))
        assert view is not None
        clock.advance(seconds=30)
        attempts.submit(store, view.attempt_id, "005Ws000001xadBIAQ")
        assert attempts.open_next(store, study_id, row_id(dana)) is not None
    return db


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
@pytest.mark.parametrize("command", [["study", "status"], ["results"]], ids=" ".join)
def test_a_study_file_damaged_inside_its_rows_is_refused_in_one_line(
    answered, tmp_path, capsys, damage, command
):
    db = tmp_path / "study.sqlite"
    db.write_bytes(answered.read_bytes())
    conn = sqlite3.connect(db)
    conn.execute(damage)
    conn.commit()
    conn.close()
    before = snapshot(tmp_path)
    line = fails(capsys, *command, "--db", db)
    assert line.startswith(f"crm-tui: {db} is damaged"), line
    assert DAMAGE[damage] in line, line
    assert snapshot(tmp_path) == before


def test_an_undamaged_study_file_with_attempts_passes(answered, capsys):
    from crm_tui.cli import main

    main(["study", "status", "--db", str(answered)])
    assert "pilot" in capsys.readouterr().out
