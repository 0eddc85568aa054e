"""`study merge` takes a work file as a person's work could be, nothing larger: each event
once, answers and names of a sane length, each JSON key once."""

from __future__ import annotations

import json

import pytest

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import find_study
from tests.cli.test_study_exchange import new_study, run
from tests.helpers.cli import fails


@pytest.fixture
def exported(tmp_path):
    """A coordinator's study file and a laptop's export of Dana's work (one submission)."""
    coordinator, laptop = tmp_path / "study.sqlite", tmp_path / "laptop.sqlite"
    new_study(coordinator)
    new_study(laptop)
    clock = FakeClock()
    with StudyStore.open(laptop, clock) as store:
        study_id = row_id(find_study(store, "pilot"))
        dana = create_profile(store, "Dana", "Customer Service Associate", 6)
        view = attempts.open_next(store, study_id, row_id(dana))
        assert view is not None
        clock.advance(45)
        attempts.submit(store, view.attempt_id, "None", confidence=3)
    out = tmp_path / "dana.json"
    assert run("study", "export", "--profile", "Dana", "--out", out, "--db", laptop)[0] == 0
    return coordinator, out


def _rewrite(path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _repeat_events(data) -> None:
    data["records"]["events"] = data["records"]["events"] * 3000


def _huge_answer(data) -> None:
    data["records"]["attempts"][0]["answer_raw"] = "x" * (30 << 20)


def _huge_name(data) -> None:
    data["profile"]["name"] = "D" * (5 << 20)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_repeat_events, "appears twice"),
        (_huge_answer, "at most"),
        (_huge_name, "at most"),
    ],
    ids=["repeated-events", "30-MB-answer", "5-MB-name"],
)
def test_merge_refuses_work_no_person_did(exported, capsys, change, words):
    coordinator, work = exported
    _rewrite(work, change)
    before = coordinator.read_bytes()
    line = fails(capsys, "study", "merge", work, "--db", coordinator)
    assert words in line and len(line) < 400, line[:400]
    assert coordinator.read_bytes() == before


def test_merge_refuses_duplicate_json_keys(exported, capsys):
    coordinator, work = exported
    text = work.read_text()
    work.write_text(text.replace('"name": "Dana"', '"name": "Dana", "name": "Root"', 1))
    line = fails(capsys, "study", "merge", work, "--db", coordinator)
    assert "twice" in line and "name" in line, line
