"""SVG snapshots at 80x24, the smallest supported size, of the profile, home and solve
screens and the invitation-code screen (FakeClock, seeded org)."""

from __future__ import annotations

from textual.widgets import Input

from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.narrow import NARROW
from tests.helpers.pilot import settle


def test_narrow_profiles(make_app, dana, snap_compare):
    async def profiles(pilot):
        await settle(pilot)
        for box in pilot.app.screen.query(Input):
            box.cursor_blink = False

    assert snap_compare(make_app(), terminal_size=NARROW, run_before=profiles)


def test_narrow_home(make_app, dana, snap_compare):
    async def home(pilot):
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=NARROW, run_before=home)


def test_narrow_solve(make_app, dana, clock, snap_compare):
    async def solving(pilot):
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        pilot.app.screen.query_one(Input).cursor_blink = False
        clock.advance(83)
        pilot.app.screen._show_timer()  # the next tick's display, without waiting a second

    assert snap_compare(make_app(), terminal_size=NARROW, run_before=solving)


def test_narrow_invitation_code(make_app, study_path, clock, snap_compare):
    invite_to(study_path, clock, "Ana", "annotator")

    async def wrong_code(pilot):
        await enter_code(pilot, "2345-6789-abcd-efgh")
        pilot.app.screen.query_one("#invitation-code").cursor_blink = False

    assert snap_compare(make_app(), terminal_size=NARROW, run_before=wrong_code)
