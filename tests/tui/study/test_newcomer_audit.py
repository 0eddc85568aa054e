"""The audit screen as an auditor meets 1,170 rows: search, sort, filter by
family, flagged only, humans who disagree with gold, a count; a skip is no answer."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from crm_tui.study.service import StudyService
from crm_tui.study.store.models import Mode
from crm_tui.tasks.families import get_family
from crm_tui.tui.study.audit_screen import AuditScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import first_two_ids, type_text

SIZE = (120, 40)


@pytest.fixture
def audited(study_path, small_org_path, clock):
    """Dana's queue: the first answered right, the second wrong, the third skipped, the
    fourth open; an auditor flagged the fifth. Returns (auditor, item ids in queue order)."""
    with StudyService.open(study_path, clock=clock) as service:
        dana = service.create_profile("Dana", "Customer Service Associate", 6)
        auditor = service.create_profile("Ari", "QA Lead", 10, Mode.AUDITOR)
        items = []
        for step in ("right", "wrong", "skip", "open"):
            view = service.open_next(dana.id)
            assert view is not None
            items.append(view.item.item_id)
            wrong, gold = first_two_ids(small_org_path, get_family(view.item.task).answer_object)
            if step == "right":
                service.submit_answer(view.attempt_id, gold, confidence=4)
            elif step == "wrong":
                service.submit_answer(view.attempt_id, wrong, confidence=2)
            elif step == "skip":
                service.skip(view.attempt_id)
    return auditor, items


def shown(table: DataTable) -> list[str]:
    return [str(key.value) for key in table.rows]


def plain(static: Static) -> str:
    console = Console(width=200, record=True)
    console.print(static.content)
    return console.export_text()


def count_text(screen) -> str:
    return plain(screen.query_one("#audit-count", Static))


async def test_audit_screen_filters_sorts_and_counts(make_app, study_path, clock, audited):
    auditor, (right, wrong, skipped, still_open) = audited
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        holder = StudyService.open(study_path, clock=clock)  # the file holder's session
        try:
            await app.push_screen(AuditScreen(holder, auditor))
            await settle(pilot)
            screen = app.screen
            table = screen.query_one("#audit-items", DataTable)
            every = shown(table)
            assert len(every) == 5 and "5 of 5 queries" in count_text(screen)

            answers = {key: table.get_row(key)[3] for key in every}
            assert answers[str(skipped)] == "0"  # a skip is not an answer
            assert answers[str(right)] == answers[str(wrong)] == "1"

            await pilot.press("d")  # humans who disagree with gold
            await settle(pilot)
            assert shown(table) == [str(wrong)]
            assert "1 of 5 queries" in count_text(screen)
            await pilot.press("d")
            await settle(pilot)
            assert shown(table) == every

            table.move_cursor(row=every.index(str(still_open)))
            await pilot.press("f")  # flag it: a category, a comment, Enter
            await settle(pilot)
            await pilot.press("enter", "down", "down", "down", "enter")
            await pilot.press("tab", "x", "enter", "enter")
            await settle(pilot)
            assert app.screen is screen
            await pilot.press("g")  # flagged only
            await settle(pilot)
            assert shown(table) == [str(still_open)]
            await pilot.press("g")
            await settle(pilot)

            await pilot.press("m")  # one family at a time
            await settle(pilot)
            assert len(shown(table)) == 1 and "family" in count_text(screen)
            families = {table.get_row(k)[1] for k in shown(table)}
            for _ in range(5):  # through every family, then all again
                await pilot.press("m")
                await settle(pilot)
            assert shown(table) == every and len(families) == 1

            await pilot.press("s")  # sort: by family
            await settle(pilot)
            tasks = [table.get_row(k)[1] for k in shown(table)]
            assert tasks == sorted(tasks) and "sorted by family" in count_text(screen)

            await pilot.press("slash")  # search the query text, gold and answers
            await type_text(pilot, "query 3")
            await settle(pilot)
            assert len(shown(table)) == 1
            await pilot.press("escape")  # back to the list, the search still applied
            await settle(pilot)
            assert app.focused is table and len(shown(table)) == 1
        finally:
            holder.close()


async def test_audit_detail_says_skipped_and_keeps_what_expired(
    make_app, study_path, clock, audited
):
    auditor, (right, wrong, skipped, still_open) = audited
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        holder = StudyService.open(study_path, clock=clock)
        try:
            await app.push_screen(AuditScreen(holder, auditor))
            await settle(pilot)
            screen = app.screen
            table = screen.query_one("#audit-items", DataTable)
            table.move_cursor(row=shown(table).index(str(skipped)))
            await settle(pilot)
            detail = plain(screen.query_one("#audit-detail-text", Static))
            assert "skipped" in detail and "None" not in detail, detail
        finally:
            holder.close()


async def test_a_coordinator_sees_check_items_marked_and_an_auditor_none(make_app, tmp_path, clock):
    from crm_tui.study.store.db import StudyStore
    from crm_tui.study.work.protocol import Preset, validated
    from crm_tui.study.work.studies import create_study
    from tests.study.test_quality import ORG, gold, preset_data, qualify, rows

    consent = tmp_path / "consent.md"
    consent.write_text("# Consent\n\nYou agree to take part.\n")
    (tmp_path / "routing.md").write_text("# Routing\n\nAnswer with a User Id.\n")
    path = tmp_path / "controlled.sqlite"
    with StudyStore.open(path, clock) as store:
        preset = validated(Preset, preset_data(consent), "preset")
        create_study(store, "qc", preset, instances=rows(), task_set_hash="t", org_fingerprint=ORG)
    with StudyService.open(path, clock=clock) as holder:
        ben = holder.create_profile("Ben", "Customer Service Agent", 5).id
        qualify(holder, ben, clock)
        checks = set(holder.study.protocol.quality.check_idx)
        answered_checks = []
        while (view := holder.open_next(ben)) is not None:
            if view.item.idx in checks:
                answered_checks.append(str(view.item.item_id))
            holder.submit_answer(view.attempt_id, gold(view.item.idx))
        abe = holder.create_profile("Abe", "Study lead", 12, mode=Mode.COORDINATOR)
        aud = holder.create_profile("Aud", "Quality analyst", 8, mode=Mode.AUDITOR)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await app.push_screen(AuditScreen(holder, abe))
            await settle(pilot)
            table = app.screen.query_one("#audit-items", DataTable)
            assert set(answered_checks) <= set(shown(table))
            table.move_cursor(row=table.get_row_index(answered_checks[0]))
            await settle(pilot)
            detail = plain(app.screen.query_one("#audit-detail-text", Static))
            assert "a check item: never measured" in detail
            app.pop_screen()
            await app.push_screen(AuditScreen(holder, aud))
            await settle(pilot)
            table = app.screen.query_one("#audit-items", DataTable)
            assert shown(table) and not set(answered_checks) & set(shown(table))
            detail = plain(app.screen.query_one("#audit-detail-text", Static))
            assert "Kept apart" not in detail
