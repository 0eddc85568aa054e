"""The adjudication queue in the app: reached by a coordinator's key, refused to an
annotator; flag, keep, correct (a wrong type refused), drop, a new version, and the
scores under the original and the corrected gold side by side."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import DataTable, Input, Select, Static, TabbedContent

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Mode
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.studies import create_study, solve_only_preset
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.adjudication_screen import AdjudicationScreen, DecisionDialog
from crm_tui.tui.study.audit_screen import AuditScreen
from crm_tui.tui.study.dialogs import FlagDialog
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.invitation_code import InvitationCodeScreen
from crm_tui.tui.study.results import ResultsScreen
from crm_tui.tui.study.study_help import StudyHelpScreen
from crm_tui.tui.widgets.records_table import RecordsTable
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


async def test_the_results_screen_shows_scores_under_the_original_and_the_corrected_gold(
    tmp_path, small_org_path
):
    path, clock, codes = study_with_codes(tmp_path, small_org_path)
    with StudyService.open(path, clock=clock) as service:
        vera = next(p.id for p in service.profiles() if p.name == "Vera")
        service.decide(vera, 0, "correct", "wrong_gold", "all three agree", OTHER_ID)
        service.make_version(vera)
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await reach_home(pilot, codes["Vera"])
        await pilot.press("f9")
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        screen = app.screen
        await until(pilot, lambda: bool(screen.query("#audit-body .results-title")))
        screen.query_one(TabbedContent).active = "audit"
        await settle(pilot)
        titles = [plain(s.content) for s in screen.query("#audit-body .results-title")]
        (title,) = [t for t in titles if t.startswith("Original vs corrected gold")]
        assert "version 1" in title
        table = screen.query("#audit-body DataTable").last(DataTable)
        rows = {
            str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)]
            for i in range(table.row_count)
        }
        assert rows["NCR"][1:5] == ["2", "1", "0", "50.0 → 100.0"]


async def test_the_gold_queries_of_a_generated_query_run_from_the_queue(tmp_path, small_org_path):
    """A generated task set's routing query, flagged: g runs the policy's three queries on
    the org, and the gold agent is among the first one's leaders."""
    clock = FakeClock()
    path = tmp_path / "generated.sqlite"
    with OrgStore.open(small_org_path) as org:
        taskset = generate_taskset(org, per_task=1, allow_short=True)
        fingerprint = org.fingerprint
    routing = next(i for i in taskset.instances if i.task == "case_routing")
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "generated",
            solve_only_preset(len(taskset.instances)),
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=fingerprint,
        )
    with StudyService.open(path, clock=clock) as service:
        ari = service.create_profile("Ari", "QA Lead", 9, Mode.AUDITOR)
        item = next(i for i in service.audit_items(ari.id) if i.idx == routing.idx)
        service.flag_item(ari.id, item.item_id, "wrong_gold", "who routes this?", None)
    code = invite_to(path, clock, "Vera", "coordinator", job_role="Study lead")
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await reach_home(pilot, code)
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, AdjudicationScreen) and app.screen.items)
        screen = app.screen
        assert list(screen.items) == [str(routing.idx)]
        assert "1. Expertise: closed cases of the issue per agent" in detail(screen)
        await pilot.press("g")
        box = screen.query_one("#adjudication-gold-rows")
        await until(pilot, lambda: len(box.query(RecordsTable)) >= 1)
        titles = [plain(s.content) for s in box.query(".gold-rows-title")]
        assert [t.split(".")[0] for t in titles] == ["1", "2", "3"]
        expertise = box.query(RecordsTable).first()
        owners = [str(expertise.get_row_at(i)[0]) for i in range(expertise.row_count)]
        assert routing.answer in owners
