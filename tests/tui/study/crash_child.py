"""Run by the SIGKILL test in its own process: the app, headless, opens the first query of
profile 'Kim', writes a pause, a resume, half an answer and a focus loss on a FakeClock,
prints READY and waits to be killed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from textual import events

from crm_tui.org.backends.local import LocalBackend
from crm_tui.study.work.clock import FakeClock
from crm_tui.tui.launch import Launch
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pilot import settle

DRAFT = "005Lc"


async def main(org_path: str, study_path: str) -> None:
    clock = FakeClock()
    app = StudyApp(LocalBackend(org_path), Launch(study=Path(study_path), study_clock=clock))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")  # the only profile; start the first query
        await settle(pilot)
        for seconds, step in ((7, "f5"), (3, "enter"), (4, None)):
            clock.advance(seconds)
            if step:
                await pilot.press(step)
            await settle(pilot)
        await pilot.press(*DRAFT)  # half an answer, kept as a draft
        await settle(pilot)
        app.post_message(events.AppBlur())  # the last event: 7 + 4 = 11 s active so far
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        print("READY", solve.view.attempt_id, flush=True)
        await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
