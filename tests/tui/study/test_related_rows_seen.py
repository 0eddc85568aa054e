"""A record page's related rows are on screen: a gold record seen only in the related list
of a record the person opened, then another answer submitted, is "saw it, chose
otherwise" (without the related rows it would be "never saw")."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.results.process import HUMANS, Sight, build_process
from crm_tui.study.results.steps import StepKind, human_steps
from crm_tui.study.results.summary import FAMILY_ORDER, agent_label
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import attempt_events
from crm_tui.study.store.models import Attempt, StudyItem, row_id
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.browser.settings import BrowserSettings
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import (
    crafted_instances,
    first_two_ids,
    open_first_query,
    submit_with_confidence,
)

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


def parent_and_related_row(org_path) -> tuple[str, str]:
    """An account and a record in its first related list's preview (what its page shows
    first), which is not the account's own lookup: seen only as a related row."""
    rows = BrowserSettings().related_preview_rows
    backend = create_app(Launch(org_path=org_path)).backend
    with OrgStore.open(org_path) as org:
        accounts = [r["Id"] for r in org.rows("Account", "1 ORDER BY Id LIMIT 20")]
    for account in accounts:
        lists = backend.related(account, rows)
        if lists and lists[0].page.records:
            return account, str(lists[0].page.records[-1]["Id"])
    raise AssertionError("no account of the small org has related records")


@pytest.fixture
def gold_in_related(small_org_path) -> tuple[str, str]:
    return parent_and_related_row(small_org_path)


@pytest.fixture
def study_path(tmp_path, small_org_path, clock: FakeClock, gold_in_related):
    """The crafted study, every item's gold the related row (whichever item comes first)."""
    _account, gold = gold_in_related
    path = tmp_path / "study.sqlite"
    preset, preset_path = load_preset("paper-expert-study")
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        instances = [dict(instance, answer=gold) for instance in crafted_instances(org)]
        create_study(
            store,
            "pilot",
            preset,
            instances=instances,
            task_set_hash="sha256:crafted",
            org_fingerprint=org.fingerprint,
            preset_path=preset_path,
        )
    return path


async def test_the_gold_in_a_related_list_then_another_answer_is_saw_it(
    make_app, study_path, small_org_path, clock, gold_in_related
):
    account, gold = gold_in_related
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        solve = await open_first_query(pilot)
        wrong, _ = first_two_ids(small_org_path, solve.family.answer_object)
        await pilot.press("f2")
        await settle(pilot)
        clock.advance(5)
        app.navigate(RecordLocation(account))  # the gold among its related rows...
        await settle(pilot)
        assert gold in [str(key.value) for key in app.screen.query_one("#preview").rows]
        clock.advance(5)
        app.navigate(RecordLocation(wrong))
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        await pilot.press("u")  # ...but another record taken as the answer
        await settle(pilot)
        assert app.screen is solve
        await submit_with_confidence(pilot)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        items = list(db.exec(select(StudyItem)))
        (attempt,) = [a for a in db.exec(select(Attempt)) if a.status == "submitted"]
        steps = human_steps(attempt_events(db, row_id(attempt)))
        (one,) = build_process(db, items, [attempt], [], agent_label, FAMILY_ORDER).traces
    # the related rows belong to reading the account: no step of their own
    assert [s.kind for s in steps] == [
        StepKind.READ,
        StepKind.READ,
        StepKind.ANSWER,
        StepKind.ANSWER,
    ]
    assert steps[0].record_ids[0] == account and gold in steps[0].record_ids
    assert (one.solver, one.label) == (HUMANS, Sight.CHOSE_OTHERWISE)
    assert (one.first_sight_step, one.first_sight_time) == (1, 5_000)
