"""A person's attempt driven with Pilot becomes steps and a process label: opening the gold
record and then submitting another record is "saw it, chose otherwise"."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.study.results.process import HUMANS, Sight, build_process
from crm_tui.study.results.steps import StepKind, human_steps
from crm_tui.study.results.summary import FAMILY_ORDER, agent_label
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import attempt_events
from crm_tui.study.store.models import Attempt, StudyItem, row_id
from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import first_two_ids, open_first_query, submit_with_confidence

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


def traces(study_path, clock):
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        items = list(db.exec(select(StudyItem)))
        attempts = [a for a in db.exec(select(Attempt)) if a.status == "submitted"]
        return build_process(db, items, attempts, [], agent_label, FAMILY_ORDER).traces


async def test_opening_the_gold_record_then_submitting_another_is_saw_it(
    make_app, study_path, small_org_path, clock
):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        solve = await open_first_query(pilot)
        wrong, gold = first_two_ids(small_org_path, solve.family.answer_object)
        clock.advance(10)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(gold))  # the gold record on screen...
        await settle(pilot)
        clock.advance(5)
        app.navigate(RecordLocation(wrong))
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        clock.advance(5)
        await pilot.press("u")  # ...but another one taken as the answer
        await settle(pilot)
        assert app.screen is solve
        await submit_with_confidence(pilot)
    (one,) = traces(study_path, clock)
    assert (one.solver, one.label) == (HUMANS, Sight.CHOSE_OTHERWISE)
    assert (one.first_sight_step, one.first_sight_time) == (1, 10_000)  # active ms
    assert one.records == 2 and one.queries == 0


async def test_never_opening_the_gold_record_is_never_saw(
    make_app, study_path, small_org_path, clock
):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        solve = await open_first_query(pilot)
        wrong, _gold = first_two_ids(small_org_path, solve.family.answer_object)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(wrong))
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        await submit_with_confidence(pilot)
    (one,) = traces(study_path, clock)
    assert one.label == Sight.NEVER_SAW and one.first_sight_step is None
    assert one.steps == 3  # read, "use as my answer", submitted


async def test_the_gold_among_a_list_s_rows_is_seen(make_app, study_path, small_org_path, clock):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        solve = await open_first_query(pilot)
        answer_object = solve.family.answer_object
        wrong, gold = first_two_ids(small_org_path, answer_object)
        await pilot.press("f2")
        await settle(pilot)
        clock.advance(3)
        app.navigate(ListLocation(answer_object))  # the list's first page holds both
        await settle(pilot)
        clock.advance(4)
        app.navigate(RecordLocation(wrong))
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        await submit_with_confidence(pilot)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        (attempt,) = db.exec(select(Attempt)).all()
        steps = human_steps(attempt_events(db, row_id(attempt)))
    assert [s.kind for s in steps][:2] == [StepKind.LOOKUP, StepKind.READ]
    assert steps[0].object_name == answer_object and gold in steps[0].record_ids
    assert steps[0].at == 3_000 and steps[1].at == 7_000
    (one,) = traces(study_path, clock)
    assert (one.label, one.first_sight_step) == (Sight.CHOSE_OTHERWISE, 1)


def test_a_record_opened_from_search_results_is_a_search_and_a_view():
    from crm_tui.tui.browser.history import SearchLocation
    from crm_tui.tui.study.study_app import browsing_events

    assert browsing_events(RecordLocation("001Ws000001xAbCIAQ"), SearchLocation("Ann")) == [
        ("search_run", {"text": "Ann"}),
        ("record_viewed", {"record_id": "001Ws000001xAbCIAQ"}),
    ]
    assert browsing_events(ListLocation("Case"), None) == []  # its rows come as rows_shown
