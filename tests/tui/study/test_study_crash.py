"""kill -9 in the middle of an attempt: the restarted app resumes it, events and time intact."""

from __future__ import annotations

import signal
import subprocess
import sys

from textual.widgets import Input

from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.paths import ROOT
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import event_kinds
from tests.tui.study.crash_child import DRAFT

CHILD = "tests.tui.study.crash_child"


def kinds_but_heartbeats(store: StudyStore, attempt_id: int) -> list[str]:
    return [kind for kind in event_kinds(store, attempt_id) if kind != "heartbeat"]


async def test_sigkill_mid_attempt_then_resume(make_app, study_path, small_org_path, clock):
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Kim", "Customer Service Agent", 3)
    child = subprocess.Popen(
        [sys.executable, "-m", CHILD, str(small_org_path), str(study_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        line = child.stdout.readline()
        assert line.startswith("READY"), line
        attempt_id = int(line.split()[1])
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    # Heartbeats come with the real one-second tick, in between: left out here.
    with StudyStore.open(study_path, clock) as store:
        assert kinds_but_heartbeats(store, attempt_id) == [
            "opened",
            "paused",
            "resumed",
            "focus_lost",
        ]

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # Kim
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen) and home.unfinished == attempt_id
        await pilot.press("r")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        assert (solve.view.attempt_id, solve.view.resumed) == (attempt_id, True)
        assert solve.view.active_ms == 11_000
        assert solve.query_one("#answer-text", Input).value == DRAFT  # nothing typed is lost
        clock.advance(2)
        assert solve.active_ms() == 13_000  # counting again from the restart

    with StudyStore.open(study_path, clock) as store:
        assert kinds_but_heartbeats(store, attempt_id)[:5] == [
            "opened",
            "paused",
            "resumed",
            "focus_lost",
            "opened",
        ]
