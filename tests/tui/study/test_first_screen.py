"""The profile screen shows before the study has opened (the study store loads SQLAlchemy,
which was half the app's start), and nothing done meanwhile is lost: typed text stays
where it went, and a profile picked goes on once the study is open."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest
from textual import events
from textual.widgets import Input, OptionList

from crm_tui.study import service as study_service
from crm_tui.study.first_look import first_look
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.invitations import invite
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for

SIZE = (120, 40)


@pytest.fixture
def held_open(monkeypatch):
    """The study opens only when the test sets the returned event."""
    gate = threading.Event()
    real_open = study_service.StudyService.open.__func__

    def held(cls, *args, **kwargs):
        assert gate.wait(30), "the test never let the study open"
        return real_open(cls, *args, **kwargs)

    monkeypatch.setattr(study_service.StudyService, "open", classmethod(held))
    yield gate
    gate.set()  # a failed test must not leave the worker waiting


def listed(screen) -> list[str]:
    options = screen.query_one("#profiles", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_profiles_show_before_the_study_opens_and_typing_stays(make_app, dana, held_open):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen)
        assert app.service is None  # the study is still opening
        assert listed(app.screen) == ["Dana — Customer Service Associate, 6 years using a CRM"]
        assert app.screen.focused is app.screen.query_one("#profiles", OptionList)
        await pilot.press("ctrl+n", *"Kim")  # to the name field, and a name
        held_open.set()
        await settle(pilot)
        assert app.service is not None
        screen = app.screen
        assert isinstance(screen, ProfileScreen)
        name = screen.query_one("#profile-name", Input)
        assert (name.value, screen.focused) == ("Kim", name)
        assert listed(screen) == ["Dana — Customer Service Associate, 6 years using a CRM"]


async def test_a_profile_picked_before_the_study_opens_goes_on_once_it_has(
    make_app, dana, held_open
):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen) and app.service is None
        # As a person types them: Enter (Dana is highlighted), then `s` for a query.
        for key in ("enter", "s"):
            app.post_message(events.Key(key, key if len(key) == 1 else None))
            await asyncio.sleep(0.2)
        assert isinstance(app.screen, ProfileScreen)  # waiting for the study
        held_open.set()
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        assert app.screen.person.name == "Dana"


async def test_a_study_that_then_fails_to_open_leaves_the_org_and_says_why(make_app, study_path):
    """The first look cannot know every refusal of the store (here: a file of a newer
    crm-tui): the profile screen goes, and the notice says why, as without a first look."""
    with sqlite3.connect(study_path) as connection:
        connection.execute("INSERT INTO schema_version VALUES (999, '2030-01-01 00:00:00')")
    connection.close()
    app = make_app()
    assert first_look(study_path, None, app.backend.fingerprint) is not None  # shown first
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.service is None
        assert not any(isinstance(s, ProfileScreen) for s in app.screen_stack)
        assert isinstance(app.screen, BrowserScreen)
        notices = [n.message for n in app._notifications]
        assert any("newer than this crm-tui understands" in n for n in notices), notices


@pytest.mark.parametrize("require_code", [True, False], ids=["code required", "no code"])
async def test_nothing_of_the_org_shows_while_a_study_without_a_first_look_opens(
    small_org_path, study_path, clock, held_open, require_code
):
    """With no first look to show (a code first, a server, invitations) the app waited
    for the study on the org's object list: a person without a code saw the org. It now
    waits on a screen that says so, and goes on to the code (or profile) screen."""
    from crm_tui.tui.study.invitation_code import InvitationCodeScreen
    from crm_tui.tui.study.opening import StudyOpeningScreen

    app = create_app(
        Launch(
            org_path=small_org_path, study=study_path, study_clock=clock, require_code=require_code
        )
    )
    if not require_code:  # a file with invitations asks for a code as well
        with StudyStore.open(study_path, clock) as store:
            invite(store, "Dana", "annotator")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.id != "_default")  # the first screen
        assert isinstance(app.screen, StudyOpeningScreen), app.screen_stack
        assert "Opening the study" in str(app.screen.query_one("#study-opening").render())
        await pilot.press("o", "slash", "f8", "r")  # the org's keys: not before a code
        await pilot.pause()
        assert isinstance(app.screen, StudyOpeningScreen), app.screen_stack
        held_open.set()
        await settle(pilot)
        assert isinstance(app.screen, InvitationCodeScreen), app.screen_stack
        assert not any(isinstance(s, StudyOpeningScreen) for s in app.screen_stack)
