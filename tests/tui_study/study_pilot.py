"""Helpers for driving the study screens with Pilot."""

from __future__ import annotations

import asyncio

from sqlmodel import select

from crm_tui.study.db import StudyStore
from crm_tui.study.models import Event


async def settle(pilot, rounds: int = 4) -> None:
    """Wait until key handlers, workers and queued study writes have all finished."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
        if app.study is not None:  # the writer runs calls in order: a no-op waits for all
            await asyncio.wrap_future(app.study._writer.submit(lambda: None))
        await pilot.pause()


async def type_text(pilot, text: str) -> None:
    await pilot.press(*[c if c != " " else "space" for c in text])


async def create_profile_via_form(pilot, name: str, role: str, years: str) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#profile-name").focus()
    for field_text in (name, role, years):
        await type_text(pilot, field_text)
        await pilot.press("enter")  # next field; in the last one, creates the profile
    await settle(pilot)


def event_kinds(store: StudyStore, attempt_id: int | None = None) -> list[str]:
    with store.transaction() as session:
        query = select(Event.kind).order_by(Event.id)
        if attempt_id is not None:
            query = query.where(Event.attempt_id == attempt_id)
        return list(session.exec(query))
