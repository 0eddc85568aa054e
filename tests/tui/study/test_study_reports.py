"""Reports in a study: `u` on a report's group fills the answer, and each run is an
attempt event with its definition, its row count and its time."""

from __future__ import annotations

import json

from sqlmodel import select
from textual.widgets import Input

from crm_tui.org.reports import Grouping, ReportDefinition, SummarySort
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event
from crm_tui.tui.browser.history import ReportBuilderLocation
from crm_tui.tui.browser.screens.report_result import ReportScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_profile_via_form

SIZE = (120, 40)


def answer_report(answer_object: str) -> ReportDefinition:
    """A report whose first group is a record of the answer's object."""
    if answer_object == "User":
        return ReportDefinition(
            "Case", groupings=(Grouping("OwnerId"),), sort=SummarySort("COUNT()"), top_n=3
        )
    return ReportDefinition(answer_object, columns=("Id",))


async def test_u_on_a_report_group_fills_the_answer(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await create_profile_via_form(pilot, "Dana", "Customer Service Associate", "6")
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        definition = answer_report(solve.family.answer_object)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        clock.advance(3)
        await pilot.press("ctrl+r")
        await settle(pilot)
        report = app.screen
        assert isinstance(report, ReportScreen)
        candidate = report.answer_candidate()
        assert candidate is not None and candidate.record_id
        await pilot.press("u")
        await settle(pilot)
        assert app.screen is solve
        assert solve.query_one("#answer-text", Input).value == candidate.record_id
    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        runs = list(session.exec(select(Event).where(Event.kind == "report_run")))
        assert len(runs) == 1 and runs[0].attempt_id is not None
        payload = json.loads(runs[0].payload_json or "{}")
        assert payload["definition"]["object"] == definition.object_name
        assert payload["rows"] > 0 and payload["error"] is None and "ms" in payload


async def test_a_report_run_records_what_its_groups_showed(make_app, study_path, clock):
    """The process view counts the records and values a report's groups put on screen: an
    answer taken from a group was seen there (it showed Records 0, first sight "—")."""
    from crm_tui.study.results.process import gold_shown
    from crm_tui.study.results.steps import human_steps

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await create_profile_via_form(pilot, "Dana", "Customer Service Associate", "6")
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        definition = answer_report(solve.family.answer_object)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(ReportBuilderLocation(definition))
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        candidate = app.screen.answer_candidate()
        assert candidate is not None and candidate.record_id
        await pilot.press("u")
        await settle(pilot)
        attempt_id = solve.view.attempt_id
    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        events = list(
            session.exec(select(Event).where(Event.attempt_id == attempt_id).order_by(Event.id))
        )
    steps = human_steps(events)
    report = next(step for step in steps if step.detail == "report")
    assert report.record_ids
    assert gold_shown(report, candidate.record_id)
