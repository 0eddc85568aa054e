"""Reaching a profile the way a person does in a multi-person study: an invitation code
typed on the app's first screen."""

from __future__ import annotations

from pathlib import Path

from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import Clock
from crm_tui.study.work.invitations import invite
from tests.helpers.pilot import settle


def invite_to(study_path: Path, clock: Clock | None, name: str, mode: str, **options) -> str:
    """Invite `name` as `mode` into the study file; the code, as the CLI prints it."""
    with StudyStore.open(study_path, clock) as store:
        return invite(store, name, mode, **options).code


async def enter_code(pilot, code: str) -> None:
    """Type `code` into the code screen's one field and press Enter."""
    await settle(pilot)
    field = pilot.app.screen.query_one("#invitation-code")
    field.focus()
    field.value = code
    await pilot.press("enter")
    await settle(pilot)
