"""Refusing a request on the solve screens: Ctrl+R asks for a reason; on a single-turn
query the refusal (`REFUSED: reason`) is confirmed and submitted as the answer, in
conversation it is the reply sent to the customer."""

from __future__ import annotations

from sqlmodel import select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, ConversationTurn
from crm_tui.tui.study.chat_solve import ChatSolveScreen
from crm_tui.tui.study.dialogs import RefuseDialog, SubmitDialog
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import type_text
from tests.tui.study.test_multi_turn import SIZE, make_study, solving_in_conversation

REASON = "another customer's details"


async def refuse(pilot) -> None:
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RefuseDialog))
    await wait_for(
        pilot, lambda: pilot.app.focused is not None and pilot.app.focused.id == "refuse-reason"
    )
    await type_text(pilot, REASON)
    await pilot.press("enter")
    await settle(pilot)


async def test_a_refusal_is_submitted_as_the_answer(make_app, dana, study_path, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        shown = {key: b.binding for key, b in app.screen.active_bindings.items() if b.binding.show}
        assert shown["ctrl+r"].description == "Refuse"
        await refuse(pilot)
        assert isinstance(app.screen, SubmitDialog)
        assert app.screen.answer == f"REFUSED: {REASON}"
        await pilot.press("3")
        await settle(pilot)
        assert not isinstance(app.screen, SolveScreen)
    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
    assert (attempt.status, attempt.answer_raw) == (AttemptStatus.SUBMITTED, f"REFUSED: {REASON}")


async def test_going_back_from_the_refusal_keeps_the_answer_typed(make_app, dana):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        await type_text(pilot, "005")
        await refuse(pilot)
        await pilot.press("escape")  # not this way after all
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        assert app.screen.refusal is None
        assert app.screen.query_one("#answer").answer == "005"


async def test_in_conversation_the_refusal_is_the_reply(tmp_path, small_org_path, clock):
    path = tmp_path / "study.sqlite"
    make_study(path, small_org_path, clock)
    async with solving_in_conversation(path, small_org_path, clock) as (app, pilot):
        await refuse(pilot)
        assert isinstance(app.screen, ChatSolveScreen)
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        said = session.exec(
            select(ConversationTurn.text).where(ConversationTurn.role == "agent")
        ).all()
    assert said == [f"REFUSED: {REASON}"]
