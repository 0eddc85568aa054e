"""Nothing typed is lost on the realism screen: a rationale survives moving to another
target and back, and a restart of the app."""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from crm_tui.tui.study.realism import RealismScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import type_text

SIZE = (120, 40)


pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


async def open_realism(pilot) -> RealismScreen:
    await settle(pilot)
    await pilot.press("enter", "t")  # Dana, then rate realism
    await settle(pilot)
    assert isinstance(pilot.app.screen, RealismScreen)
    return pilot.app.screen


def rationale(screen) -> str:
    return screen.query_one("#rationale", TextArea).text


async def test_a_rationale_survives_moving_on_and_a_restart(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_realism(pilot)
        assert screen.target == "org"
        screen.query_one("#rationale", TextArea).focus()
        await type_text(pilot, "Cases read like real ones")
        await settle(pilot)
        await pilot.press("tab", "ctrl+n")  # on to the next target without submitting
        await settle(pilot)
        assert screen.target != "org" and rationale(screen) == ""
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert screen.target == "org" and rationale(screen) == "Cases read like real ones"

    again = make_app()  # a new process on the same study file
    async with again.run_test(size=SIZE) as pilot:
        screen = await open_realism(pilot)
        assert rationale(screen) == "Cases read like real ones"
        await pilot.press("4", "ctrl+s")  # submitted with the rating
        await settle(pilot)
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert screen.target == "org" and rationale(screen) == "Cases read like real ones"
