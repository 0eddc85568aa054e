"""Blinding and audit mode: gold answers only on an auditor's screen, and the app's start."""

from __future__ import annotations

import json

from sqlmodel import select
from textual.widgets import Static

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import AuditFlag, StudyItem
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.audit_screen import AuditScreen
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.study_app import StudyApp
from crm_tui.tui.study.study_help import StudyHelpScreen, _screens_with_keys
from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.pilot import settle


def screen_text(screen) -> str:
    return "\n".join(str(w.render()) for w in screen.query(Static))


def golds(study_path, clock) -> set[str]:
    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        return {json.loads(i.gold_json) for i in session.exec(select(StudyItem))}


async def test_annotator_never_sees_gold_and_has_no_audit(make_app, study_path, clock):
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Dana", "Customer Service Associate", 6)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("a")  # hidden for annotators: nothing happens
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("s")
        await settle(pilot)
        shown = screen_text(app.screen)
        assert app.screen.view.item.query in shown
        assert not any(gold in shown for gold in golds(study_path, clock))


async def test_auditor_sees_gold_and_flags(make_app, study_path, clock):
    code = invite_to(study_path, clock, "Ari", "auditor", job_role="QA Lead", crm_years=10)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await enter_code(pilot, code)  # an auditor is reached through a code only
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        table = app.screen.query_one("#audit-items")
        assert {table.get_row_at(i)[2] for i in range(table.row_count)} == golds(study_path, clock)
        await pilot.press("down", "f")
        await settle(pilot)
        await pilot.press("enter", "down", "down", "down", "enter")  # 3rd: unanswerable
        await pilot.press("tab", "x", "enter", "enter")
        await settle(pilot)
        assert isinstance(app.screen, AuditScreen)
        assert table.get_row_at(1)[5] == "1"
    with StudyStore.open(study_path, clock) as store, store.transaction() as session:
        flag = session.exec(select(AuditFlag)).one()
        assert (flag.category, flag.comment, flag.suggested_answer) == ("unanswerable", "x", None)


async def test_create_app_with_a_study_starts_on_profiles(small_org_path, study_path):
    app = create_app(Launch(org_path=small_org_path, study=study_path))
    assert isinstance(app, StudyApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, StudyHelpScreen)
        assert {
            "Profiles",
            "Home",
            "Solve a query",
            "Paused",
            "Submit",
            "Flag this query",
            "Rate realism",
            "Audit",
        } <= {s.HELP_TITLE for s in _screens_with_keys()}
        await pilot.press("escape", "ctrl+b")  # the browser stays one key away
        await settle(pilot)
        assert type(app.screen).__name__ == "ObjectListScreen"
        await pilot.press("f2")
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
