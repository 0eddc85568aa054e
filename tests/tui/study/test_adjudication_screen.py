"""The adjudication queue in the app: reached by a coordinator's key, refused to an
annotator; flag, keep, correct (a wrong type refused), drop, a new version, and the
scores under the original and the corrected gold side by side."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import DataTable, Input, Select, Static

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.work.clock import FakeClock
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.adjudication_screen import AdjudicationScreen, DecisionDialog
from crm_tui.tui.study.audit_screen import AuditScreen
from crm_tui.tui.study.dialogs import FlagDialog
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.invitation_code import InvitationCodeScreen
from crm_tui.tui.study.study_help import StudyHelpScreen
from tests.helpers.audit_study import OTHER_ID, make_audit_study
from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.pilot import settle

SIZE = (130, 50)


def plain(renderable) -> str:
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(renderable)
    return " ".join(console.export_text().split())


def detail(screen) -> str:
    return plain(screen.query_one("#adjudication-detail-text", Static).content)


def notices(app) -> str:
    return " ".join(n.message for n in app._notifications)


async def until(pilot, condition, rounds: int = 300) -> None:
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never got there: {pilot.app.screen_stack} {notices(pilot.app)}")


def study_with_codes(tmp_path, small_org_path):
    clock = FakeClock()
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org:
        make_audit_study(path, clock, org_fingerprint=org.fingerprint)
    codes = {
        "Vera": invite_to(path, clock, "Vera", "coordinator", job_role="Study lead"),
        "Zed": invite_to(path, clock, "Zed", "annotator"),
    }
    return path, clock, codes


async def reach_home(pilot, code: str) -> None:
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, InvitationCodeScreen))
    await enter_code(pilot, code)
    await until(pilot, lambda: isinstance(app.screen, HomeScreen))


async def decide(pilot, key: str, category: str, gold: str | None = None, note: str = "") -> None:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(pilot.app.screen, DecisionDialog))
    dialog = pilot.app.screen
    dialog.query_one("#decision-category", Select).value = category
    if gold is not None:
        dialog.query_one("#decision-gold", Input).value = gold
    dialog.query_one("#decision-note", Input).value = note
    await pilot.press("ctrl+s")
    await settle(pilot)


async def test_a_coordinator_flags_adjudicates_and_compares(tmp_path, small_org_path):
    path, clock, codes = study_with_codes(tmp_path, small_org_path)
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await reach_home(pilot, codes["Vera"])

        # Flag query 4 in the audit screen: it joins the queue.
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, AuditScreen))
        table = app.screen.query_one("#audit-items", DataTable)
        table.move_cursor(
            row=[str(k.value) for k in table.rows].index(
                next(k for k, i in app.screen.items.items() if i.idx == 4)
            )
        )
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FlagDialog))
        app.screen.query_one("#flag-category", Select).value = "ambiguous_query"
        app.screen.query_one("#flag-comment", Input).value = "which case?"
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen))

        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen) and app.screen.items)
        screen = app.screen
        rows = screen.query_one("#adjudication-items", DataTable)
        assert [str(k.value) for k in rows.rows] == ["0", "2", "1", "4"]
        shown = detail(screen)
        for text in ("Query 0 of case_routing", "3 people agree on", OTHER_ID, "params"):
            assert text in shown

        # A correction of the wrong type is refused in one line; nothing is decided.
        await decide(pilot, "c", "wrong_gold", "March")
        assert "is not a record Id" in notices(app)
        await until(pilot, lambda: app.screen is screen)
        assert screen.items["0"].status == "open"

        await decide(pilot, "c", "wrong_gold", OTHER_ID, "all three agree")
        await until(pilot, lambda: screen.items["0"].status == "corrected")
        rows.move_cursor(row=list(screen.items).index("2"))  # decided queries move last
        await decide(pilot, "x", "ambiguous_query", note="region of what?")
        await until(pilot, lambda: screen.items["2"].status == "dropped")
        rows.move_cursor(row=list(screen.items).index("1"))
        await decide(pilot, "k", "typo_format")
        await until(pilot, lambda: screen.items["1"].status == "kept")
        assert "Decisions" in detail(screen) and "typo_format" in detail(screen)

        await pilot.press("v")
        await until(pilot, lambda: "Original vs corrected" in detail(screen))
        compared = detail(screen)
        assert "version 1" in compared and "50.0 → 100.0" in compared
        await pilot.press("o")
        await settle(pilot)
        assert "Original vs corrected" in detail(screen)

        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, StudyHelpScreen))
        help_text = " ".join(plain(s.content) for s in app.screen.query(Static))
        assert "Adjudication queue" in help_text and "Scores under the original" in help_text

    with StudyService.open(path, clock=clock) as service:
        _, version = service.audited_task_set()
        assert [(c.idx, c.decision) for c in version.changes] == [
            (0, "correct"),
            (1, "keep"),
            (2, "drop"),
        ]


async def test_an_annotator_never_reaches_the_queue(tmp_path, small_org_path):
    path, clock, codes = study_with_codes(tmp_path, small_org_path)
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await reach_home(pilot, codes["Zed"])
        await pilot.press("j")
        await pilot.press("f11")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert "for coordinators and auditors" in notices(app)
        assert not app.palette_offers("adjudicate")
        await app.run_action("adjudicate")
        await settle(pilot)
        assert not isinstance(app.screen, AdjudicationScreen)


async def test_a_decision_without_a_category_asks_for_one(tmp_path, small_org_path):
    path, clock, codes = study_with_codes(tmp_path, small_org_path)
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await reach_home(pilot, codes["Vera"])
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen) and app.screen.items)
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, DecisionDialog))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, DecisionDialog) and "Pick a category first" in notices(app)
