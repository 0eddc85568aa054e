"""SVG snapshots at 120x40 of the home, solve and realism screens (FakeClock, seeded org)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.profiles import create_profile
from tests.helpers.pilot import settle

SIZE = (120, 40)


@pytest.fixture
def app(make_app, study_path, clock):
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return make_app()


async def open_home(pilot) -> None:
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


def test_home(app, snap_compare):
    async def explored(pilot):
        await open_home(pilot)
        await pilot.press("e", "f2")  # explore, come back
        await settle(pilot)
        await pilot.press("d")  # "done exploring": part 1 done
        await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=explored)


def test_solve(app, snap_compare, clock):
    async def solving(pilot):
        await open_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        pilot.app.screen.query_one(Input).cursor_blink = False
        clock.advance(83)
        await pilot.press("f6")  # the explicit "None" answer
        await settle(pilot)
        pilot.app.screen._show_timer()  # the next tick's display, without waiting a second

    assert snap_compare(app, terminal_size=SIZE, run_before=solving)


def test_realism(app, snap_compare):
    async def rating_users(pilot):
        await open_home(pilot)
        await pilot.press("t", "ctrl+n")  # from the org to the first object: Users
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=rating_users)
