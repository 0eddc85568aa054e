"""The adjudication queue's neighbours in the app: the results screen shows the scores
under the original and the corrected gold, and a generated query's gold queries run on the
org from the queue with their rows shown."""

from __future__ import annotations

from textual.widgets import DataTable, TabbedContent

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Mode
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.studies import create_study, solve_only_preset
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.adjudication_screen import AdjudicationScreen
from crm_tui.tui.study.results import ResultsScreen
from crm_tui.tui.widgets.records_table import RecordsTable
from tests.helpers.audit_study import OTHER_ID
from tests.helpers.invitation_pilot import invite_to
from tests.helpers.pilot import settle
from tests.tui.study.test_adjudication_screen import (
    SIZE,
    detail,
    plain,
    reach_home,
    study_with_codes,
    until,
)


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
