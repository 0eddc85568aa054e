"""A draft save never lands after the submit: an edit of the answer that arrives while the
submit is under way (a timer's save, a late change message) waits for it or is dropped as
already part of the answer, instead of saying "Not saved: ... already submitted"."""

from __future__ import annotations

import asyncio
import threading

from crm_tui.tui.study.answer import AnswerEntry
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_profile_via_form

SIZE = (120, 40)


async def test_an_edit_during_the_submit_is_not_refused_as_already_submitted(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await create_profile_via_form(pilot, "Dana", "Customer Service Associate", "6")
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        gate = threading.Event()
        solve.service.submit(gate.wait, 10)  # the writer busy: what comes next queues
        solve.unlogged_edit = None
        submitting = asyncio.create_task(solve._confirmed(4))
        for _ in range(5):
            await asyncio.sleep(0)  # the submit is queued on the writer
        editing = asyncio.create_task(solve.on_answer_entry_edited(AnswerEntry.Edited("x")))
        for _ in range(5):
            await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(submitting, editing)
        await settle(pilot)
        titles = [n.title for n in app._notifications]
        assert "Not saved" not in titles, [n.message for n in app._notifications]
        assert solve.finished
