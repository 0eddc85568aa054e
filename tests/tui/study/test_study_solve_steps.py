"""The solve screen's last steps: skipping asks once (it cannot be undone), and work done
beside the browser (the SOQL console) is kept in the attempt's events."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, Event
from crm_tui.tui.study.dialogs import SkipDialog
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.widgets.history_input import HistoryInput
from tests.helpers.pilot import settle

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


def statuses(study_path, clock) -> list[str]:
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        return [a.status for a in db.exec(select(Attempt))]


async def test_skip_asks_first_then_skips(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        await pilot.press("f7")
        await settle(pilot)
        assert isinstance(app.screen, SkipDialog)
        await pilot.press("escape")  # changed my mind
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        assert statuses(study_path, clock) == ["in_progress"]
        await pilot.press("f7", "enter")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    assert statuses(study_path, clock) == ["skipped"]


async def test_a_soql_query_while_solving_is_an_event_of_the_attempt(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s", "f8")
        await settle(pilot)
        app.screen.query_one(HistoryInput).value = "SELECT Id FROM Issue__c"
        await pilot.press("enter")
        await settle(pilot)
        app.screen.query_one(HistoryInput).value = "SELECT Nope FROM Case"
        await pilot.press("enter")
        await settle(pilot)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        runs = [json.loads(e.payload_json) for e in db.exec(select(Event)) if e.kind == "soql_run"]
        attempt = db.exec(select(Attempt)).one()
    # what was on screen is kept (the process report looks for the gold in it)
    shown = runs[0].pop("shown")
    assert len(shown) == 10 and all(value.startswith("a1M") for value in shown)
    assert runs == [
        {"query": "SELECT Id FROM Issue__c", "rows": 10, "error": None},
        {"query": "SELECT Nope FROM Case", "rows": None, "error": "INVALID_FIELD", "shown": []},
    ]
    assert attempt.status == "in_progress"
