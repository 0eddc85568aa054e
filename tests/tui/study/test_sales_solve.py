"""A sales item solved in the app on a B2B org, the way a person would: a wrong-stage item,
answered by opening the opportunity in the record browser, reading its related tasks and
taking the latest stage they belong to (the stage article's rule); the answer scores 1."""

from __future__ import annotations

from sqlmodel import select
from textual.widgets import DataTable

from crm_tui.org.generate.sales import sales_data, stage_of_subject
from crm_tui.org.schema.b2b import STAGES
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import submit_with_confidence, type_text

SIZE = (120, 40)


def wrong_stage_item(sales_items: list[dict]) -> dict:
    """A wrong-stage item whose answer is a stage (not None)."""
    return next(
        i for i in sales_items if i["task"] == "wrong_stage_rectification" and i["answer"] != [None]
    )


async def test_a_wrong_stage_item_solved_in_the_record_browser_scores_right(
    b2b_org_path, sales_items, tmp_path
) -> None:
    clock = FakeClock()
    study_path = tmp_path / "study.sqlite"
    with OrgStore.open(b2b_org_path) as org, StudyStore.open(study_path, clock) as store:
        item = wrong_stage_item(sales_items)
        preset, preset_path = load_preset("paper-expert-study")
        parts = [p.model_copy(update={"items": 1}) if p is preset.solve else p
                 for p in preset.parts]  # fmt: skip
        preset = preset.model_copy(update={"parts": parts})
        create_study(store, "sales", preset, instances=[item], task_set_hash="sha256:sales",
                     org_fingerprint=org.fingerprint, preset_path=preset_path)  # fmt: skip
        create_profile(store, "Dana", "Sales Representative", 4)
    opportunity = item["metadata"]["required"].split("is: ")[1].split()[0]
    app = create_app(Launch(org_path=b2b_org_path, study=study_path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        await pilot.press("f2")
        await settle(pilot)
        app.navigate(RecordLocation(opportunity))
        await wait_for(pilot, lambda: isinstance(app.screen, RecordScreen))
        record = app.screen
        assert isinstance(record, RecordScreen)
        await wait_for(pilot, lambda: "Tasks" in record.related)
        # Open the Tasks related list and read each task's subject off the screen.
        related = record.query_one("#related", DataTable)
        related.focus()
        related.move_cursor(row=related.get_row_index("Tasks"))
        await pilot.press("enter")
        await settle(pilot)
        table = app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: table.row_count > 0)
        subjects = set(sales_data().stage_tasks[s][k] for s in STAGES for k in range(4))
        shown = {str(cell) for row in range(table.row_count) for cell in table.get_row_at(row)}
        on_screen = shown & subjects
        assert on_screen
        answer = max((stage_of_subject(s) for s in on_screen), key=STAGES.index)
        await pilot.press("f2")  # back to the query
        await settle(pilot)
        assert app.screen is solve
        await type_text(pilot, answer)
        await submit_with_confidence(pilot)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        attempt = db.exec(select(Attempt)).one()
    assert (attempt.answer_raw, attempt.score) == (answer, 1.0)
    assert [answer] == item["answer"]
