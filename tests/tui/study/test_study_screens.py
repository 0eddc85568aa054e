"""The paper preset end to end through the screens, checked row by row against a FakeClock."""

from __future__ import annotations

import json

from sqlmodel import select
from textual import events
from textual.widgets import Input

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Annotator, Attempt, AuditFlag, Event, RealismRating
from crm_tui.study.work.progress import annotator_progress
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.study.answer import us_states
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.realism import RealismScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_profile_via_form, first_two_ids, type_text

SIZE = (120, 40)


def answer_object(app) -> str:
    return app.screen.family.answer_object


async def test_paper_preset_end_to_end(make_app, study_path, small_org_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await create_profile_via_form(pilot, "Dana", "Customer Service Associate", "6")
        assert isinstance(app.screen, HomeScreen)

        # Part 1: explore the org for a minute, come back with F2, say it was enough (d).
        await pilot.press("e")
        await settle(pilot)
        clock.advance(60)
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("d")
        await settle(pilot)

        # Query 1: the answer taken from the browser with "use as my answer".
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        first_item = solve.view.item.item_id
        wrong_1, gold_1 = first_two_ids(small_org_path, answer_object(app))
        clock.advance(10)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(gold_1))
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        clock.advance(5)
        await pilot.press("u")
        await settle(pilot)
        assert app.screen is solve
        assert solve.query_one("#answer-text", Input).value == gold_1
        clock.advance(5)
        await pilot.press("f5")  # pause: 100 s not counted
        await settle(pilot)
        clock.advance(100)
        await pilot.press("enter")
        await settle(pilot)
        clock.advance(5)
        app.post_message(events.AppBlur())  # the terminal loses focus: 50 s not counted
        await settle(pilot)
        clock.advance(50)
        app.post_message(events.AppFocus())
        await settle(pilot)
        clock.advance(5)
        assert solve.active_ms() == 30_000  # what the timer shows at its next tick
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)

        # Query 2: typed (a wrong Id of the right object), then flagged.
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        second_item = solve.view.item.item_id
        wrong_2, gold_2 = first_two_ids(small_org_path, answer_object(app))
        clock.advance(20)
        await type_text(pilot, wrong_2)
        await pilot.press("f4")
        await settle(pilot)
        await pilot.press("enter", "down", "down", "enter")  # category: 2nd = ambiguous
        await pilot.press("tab")
        await type_text(pilot, "two readings")
        await pilot.press("enter")
        await type_text(pilot, gold_2)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is solve
        clock.advance(7)
        await pilot.press("enter")  # Enter in the answer field submits too
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)

        # Part 3: rate the org and two objects.
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, RealismScreen)
        await pilot.press("4", "tab")
        await type_text(pilot, "looks real")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen.target == "User"
        await pilot.press("0", "ctrl+s")
        await settle(pilot)
        assert app.screen.target == "Account"
        await pilot.press("5", "ctrl+s")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.query_one("#parts").get_row("solve")[2] == "2 of 5"

    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        dana = session.exec(select(Annotator)).one()
        assert (dana.name, dana.role, dana.crm_years, dana.mode) == (
            "Dana",
            "Customer Service Associate",
            6.0,
            "annotator",
        )
        first, second = session.exec(select(Attempt).order_by(Attempt.id)).all()
        assert (
            first.item_id,
            first.status,
            first.answer_raw,
            first.answer_normalised,
            first.score,
            first.confidence,
        ) == (first_item, "submitted", gold_1, gold_1, 1.0, 4)
        assert (first.wall_ms, first.active_ms) == (180_000, 30_000)
        assert (second.item_id, second.answer_raw, second.score, second.confidence) == (
            second_item,
            wrong_2,
            0.0,
            2,
        )
        assert (second.wall_ms, second.active_ms) == (27_000, 27_000)
        kinds = [
            e.kind
            for e in session.exec(  # heartbeats come with the real 1 s tick
                select(Event).where(Event.attempt_id == first.id).order_by(Event.id)
            )
            if e.kind != "heartbeat"
        ]
        assert kinds == [
            "opened",
            "record_viewed",
            "answer_used",
            "paused",
            "resumed",
            "focus_lost",
            "focus_regained",
            "answer_submitted",
        ]
        study_kinds = [
            e.kind
            for e in session.exec(
                select(Event).where(Event.attempt_id.is_(None)).order_by(Event.id)
            )
        ]
        assert study_kinds == [
            "explore_started",
            "explore_finished",
            "explore_finished",  # d: "done exploring", after a minute of it
            "flagged",
            "realism_rated",
            "realism_rated",
            "realism_rated",
        ]
        flag = session.exec(select(AuditFlag)).one()
        assert (flag.item_id, flag.category, flag.comment, flag.suggested_answer) == (
            second_item,
            "ambiguous_query",
            "two readings",
            gold_2,
        )
        ratings = {r.target: r for r in session.exec(select(RealismRating))}
        assert {t: (r.level, r.rationale) for t, r in ratings.items()} == {
            "org": (4, "looks real"),
            "User": (0, None),
            "Account": (5, None),
        }
        assert len(json.loads(ratings["User"].record_ids_json)) == 5
        assert json.loads(ratings["org"].record_ids_json) == []
    with StudyStore.open(study_path, clock) as store:
        progress = {p.kind: (p.done, p.total) for p in annotator_progress(store, 1, dana.id)}
        assert progress == {"explore": (1, 1), "solve": (2, 5), "rate": (3, 17)}


def test_state_list_is_fifty_states_and_dc():
    states = dict(us_states())
    assert len(states) == 51
    assert (states["DC"], states["IA"], states["ME"], states["WY"]) == (
        "District of Columbia",
        "Iowa",
        "Maine",
        "Wyoming",
    )
