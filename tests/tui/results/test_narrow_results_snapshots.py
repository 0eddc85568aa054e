"""SVG snapshot at 80x24, the smallest supported size, of the results screen (the study of
conftest.py, as its coordinator sees it)."""

from __future__ import annotations

from crm_tui.tui.study.results import ResultsScreen
from tests.helpers.narrow import NARROW
from tests.helpers.pilot import settle


def test_narrow_results(make_app, results, snap_compare):
    async def side_by_side(pilot):
        await settle(pilot)
        pilot.app.push_screen(ResultsScreen(*results))
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=NARROW, run_before=side_by_side)
