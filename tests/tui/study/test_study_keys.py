"""Keys on the study screens, as a person meets them: what the footer shows, what a stray
key does, and that a dialog (the pause above all) keeps the browser shut."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.study.answer import AnswerEntry
from crm_tui.tui.study.dialogs import PauseDialog
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.realism import RealismScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import first_two_ids, type_text

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


async def at_home(pilot) -> HomeScreen:
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, HomeScreen)
    return pilot.app.screen


def footer_keys(app) -> list[str]:
    """The keys the footer shows, line by line and left to right, with those cut off at the
    right edge left out (a key is visible when its whole label is inside the terminal)."""
    width = app.size.width
    keys = sorted(app.screen.query(FooterKey), key=lambda k: (k.region.y, k.region.x))  # lines
    return [k.key for k in keys if not k.has_class("-command-palette") and k.region.right <= width]


async def test_home_footer_shows_every_step_in_order_at_120_columns(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        shown = footer_keys(app)
        # The browser's single keys (o, back, forward) are off on study screens; "r" shows
        # only when a query is waiting; the steps come in the protocol's order.
        assert shown == ["f1", "e", "s", "t", "b", "p", "slash"]
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("escape")  # the query stays open
        await settle(pilot)
        assert footer_keys(app) == ["f1", "e", "r", "s", "t", "b", "p", "slash"]


async def test_stray_browser_keys_do_not_leave_a_study_screen(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("b")  # the home screen's own key opens the browser
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        for key in ("o", "backspace", "alt+left", "alt+right"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, HomeScreen), key
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, RealismScreen)
        # Typing a rationale before focusing its field: "o" used to open Objects.
        await type_text(pilot, "Looks good")
        await settle(pilot)
        assert isinstance(app.screen, RealismScreen)


async def test_f2_back_to_study_shows_in_the_browser_footer_at_80_columns(
    make_app, study_path, clock
):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(ListLocation("Case"))
        await settle(pilot)
        assert isinstance(app.screen, ListViewScreen)
        shown = footer_keys(app)
        assert shown[:2] == ["enter", "f2"]  # right after the table's Open
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)


async def test_record_page_offers_f2_and_u_first_at_80_columns(
    make_app, study_path, clock, small_org_path
):
    """The study app's keys on a browser screen come first (the plain browser, which has
    neither, never shows them)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(first_two_ids(small_org_path, "Case")[0]))
        await settle(pilot)
        assert footer_keys(app)[:4] == ["enter", "tab", "f2", "u"]  # tab: Screen's own slot


async def test_solve_footer_shows_every_key_of_the_query_at_120_columns(
    make_app, study_path, clock
):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert footer_keys(app) == [
            "f1",
            "ctrl+s",
            "f2",
            "f3",
            "f4",
            "f5",
            "f6",
            "f7",
            "ctrl+r",
            "escape",
        ]  # no "/ Search": "/" types into the answer field, which has focus


async def test_palette_cannot_open_the_browser_while_paused(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(app.screen, PauseDialog)
        stack = list(app.screen_stack)
        await pilot.press("ctrl+p")
        await type_text(pilot, "Cases")
        await settle(pilot)  # the palette's search is a worker
        await pilot.press("enter")  # no "Open Cases" over the pause: nothing to run
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen_stack == stack  # no browser screen opened over the pause
        await pilot.press("enter")  # resume
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)


async def test_use_as_answer_on_the_wrong_object_says_only_no(
    make_app, study_path, clock, small_org_path
):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        wanted = solve.family.answer_object
        other = "Case" if wanted != "Case" else "Account"
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(first_two_ids(small_org_path, other)[0]))
        await settle(pilot)
        app._notifications.clear()
        await pilot.press("u")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and "asks for a" in messages[0], messages
        assert not any("is your answer" in m for m in messages)
        assert solve.query_one("#answer-text", Input).value == ""


async def test_answer_label_uses_an_before_a_vowel(make_app, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        entry = app.screen.query_one(AnswerEntry)
        for obj, label in (
            ("Issue__c", "an Issue"),
            ("User", "a User"),
            ("Knowledge__kav", "a Knowledge"),
        ):
            entry.answer_type, entry.answer_object = "record_id", obj
            assert f"the Id of {label} record" in entry._label()
