"""Time a newcomer must not lose: active time up to a kill at any moment, and a
time limit that warns before it ends and keeps what was typed with the expired attempt."""

from __future__ import annotations

import asyncio

import pytest

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Mode
from crm_tui.study.work.audit import audit_items
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import (
    create_crafted_study,
    event_kinds,
    type_text,
)

SIZE = (120, 40)


async def wait_for(pilot, condition, seconds: float = 3.0) -> bool:
    """Until `condition()` holds (the solve screen's clock ticks once a second)."""
    for _ in range(round(seconds / 0.1)):
        if condition():
            return True
        await pilot.pause(0.1)
    return condition()


async def at_home(pilot) -> HomeScreen:
    await settle(pilot)
    await pilot.press("enter")  # the only profile
    await settle(pilot)
    assert isinstance(pilot.app.screen, HomeScreen)
    return pilot.app.screen


@pytest.mark.usefixtures("dana")
@pytest.mark.parametrize("browsing", [False, True], ids=["on the query", "in the browser"])
async def test_a_kill_seconds_after_opening_keeps_the_active_time(
    make_app, study_path, clock, browsing
):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        attempt = app.screen.view.attempt_id
        if browsing:
            await pilot.press("f2")
            await settle(pilot)
        clock.advance(7)

        def beat() -> bool:
            with StudyStore.open(study_path, clock) as store:
                return "heartbeat" in event_kinds(store, attempt)

        await wait_for(pilot, beat)
        # Killed here: the app writes nothing more (no `closed`, no last heartbeat).
    with StudyStore.open(study_path, clock) as store:
        assert "closed" not in event_kinds(store, attempt)

    clock.advance(600)  # the person restarts the app later
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("r")
        await settle(pilot)
        solve = again.screen
        assert isinstance(solve, SolveScreen)
        assert solve.view.active_ms == 7_000


@pytest.fixture
def limited_path(tmp_path, small_org_path, clock):
    """The paper study with a 2-minute limit per query, and an annotator and an auditor."""
    path = tmp_path / "limited.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(
            store, org, "limited", change=lambda p: p.model_copy(update={"time_limit_minutes": 2})
        )
        create_profile(store, "Dana", "Customer Service Associate", 6)
        create_profile(store, "Ada", "Auditor", 9, mode=Mode.AUDITOR)
    return path


async def test_time_limit_warns_then_keeps_the_typed_answer_unscored(
    limited_path, small_org_path, clock
):
    app = create_app(Launch(org_path=small_org_path, study=limited_path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        await type_text(pilot, "005Lc")
        await settle(pilot)

        def warned(text: str):
            return lambda: any(text in n.message for n in app._notifications)

        clock.advance(61)  # 59 s left
        assert await wait_for(pilot, warned("1 minute")), [n.message for n in app._notifications]
        clock.advance(50)  # 9 s left
        assert await wait_for(pilot, warned("10 seconds"))
        assert app.screen is solve  # warned, not closed
        clock.advance(10)
        assert await wait_for(pilot, lambda: isinstance(app.screen, HomeScreen))
        item_id = solve.view.item.item_id
        await asyncio.sleep(0)

    with StudyStore.open(limited_path, clock) as store:
        study_id = 1
        auditor = 2
        item = next(i for i in audit_items(store, study_id, auditor) if i.item_id == item_id)
    (answer,) = item.answers
    assert answer.status == "expired"
    assert answer.typed == "005Lc"  # kept for coordinators
    assert answer.answer_raw is None and answer.score is None  # never scored as an answer
