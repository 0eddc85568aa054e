"""The study at 80x24, the smallest supported size: every key of the
profile, home, solve and realism screens is in reach; the solve footer shows F6, F7, Esc."""

from __future__ import annotations

import pytest

from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.realism import RealismScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.narrow import NARROW, keys_out_of_reach
from tests.helpers.pilot import settle

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


async def test_every_study_key_is_in_reach(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        assert keys_out_of_reach(app) == [], "profiles"
        await pilot.press("enter")  # Dana
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert keys_out_of_reach(app) == [], "home"
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        assert keys_out_of_reach(app) == [], "solve"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, RealismScreen)
        assert keys_out_of_reach(app) == [], "realism"


async def test_the_solve_footer_offers_none_skip_and_home(make_app):
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        out = keys_out_of_reach(app)
        assert not {"f6", "f7", "escape"} & set(out), out
