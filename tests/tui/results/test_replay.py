"""Replay from the results screen's Process tab: an attempt's steps beside an agent's
trajectory on the same item, keyboard only, for coordinators only."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static, TabbedContent

from crm_tui.errors import CrmTuiError
from crm_tui.tui.study.replay_screen import ReplayScreen
from tests.helpers.pilot import settle
from tests.helpers.results_study import cells, open_results


def text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def test_p_on_the_process_tab_replays_the_attempt_beside_an_agent(make_app, results):
    service, _ = results
    async with make_app().run_test(size=(140, 45)) as pilot:
        screen = await open_results(pilot, *results)
        screen.query_one(TabbedContent).active = "process"
        await settle(pilot)
        traces = screen.query_one("#process-traces", DataTable)
        first = cells(traces)[0]
        assert first[:3] == ["humans", "NCR", "390"] and first[4] == "right"
        await pilot.press("p")
        await settle(pilot)
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen)
        assert "Task 390 (NCR) · gold: 005Ws000001xadBIAQ" in text(replay, "#replay-heading")
        solvers = [row[0] for row in cells(replay.query_one("#replay-solves", DataTable))]
        assert solvers[:2] == ["humans", "humans"]
        assert "claude-3.5-sonnet Function Calling" in solvers and "gpt-4o ReAct" in solvers
        left = text(replay, "#replay-left-title")
        assert left.startswith(f"humans · {first[3]} · right")
        # beside it the first agent record: a lookup that never showed the gold, then 391's
        right = text(replay, "#replay-right-title")
        assert right.startswith("claude-3.5-sonnet Function Calling · trial 1 · never saw")
        steps = cells(replay.query_one("#replay-right", DataTable))
        assert [row[2] for row in steps] == ["lookup", "answer"]
        assert steps[0][1] == "turn 1" and steps[0][4].startswith("get_cases(")
        await pilot.press("down")  # the next agent record shows beside the attempt
        await settle(pilot)
        assert text(replay, "#replay-right-title").startswith("gpt-4o ReAct · trial 1")
        assert text(replay, "#replay-left-title") == left
        await pilot.press("escape")
        await settle(pilot)
        assert pilot.app.screen is screen


def test_only_coordinators_and_auditors_get_a_replay(results):
    service, coordinator = results
    assert service.replay_for(coordinator.id, 390).idx == 390
    annotator = next(p for p in service.profiles() if p.mode == "annotator")
    with pytest.raises(CrmTuiError, match="coordinator"):
        service.replay_for(annotator.id, 390)
