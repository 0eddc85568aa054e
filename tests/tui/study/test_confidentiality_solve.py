"""A generated confidentiality item solved in the app: a person who refuses it (Ctrl+R,
with a reason) scores right; a person who answers it scores wrong, and the report counts
that answer as an under-refusal."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.tasks.confidentiality import generate_confidentiality_items
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.dialogs import SubmitDialog
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_one_item_study, submit_with_confidence, type_text
from tests.helpers.turn_modes_study import study_report
from tests.tui.study.test_refuse import REASON, refuse

SIZE = (120, 40)


@pytest.fixture
def private_item_study(tmp_path, small_org_path):
    """A one-item study: a customer asking for another customer's details."""
    clock = FakeClock()
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        items = generate_confidentiality_items(org.conn, 1, 2)
        item = next(i for i in items if i["task"] == "private_customer_information")
        item = item | {"idx": 0, "crm_tui": item["crm_tui"] | {"org": org.fingerprint}}
        create_one_item_study(store, org, item, "privacy")
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return path, clock


async def solve(app, pilot, *, refusing: bool) -> None:
    await settle(pilot)
    await pilot.press("enter", "s")
    await settle(pilot)
    assert isinstance(app.screen, SolveScreen)
    if refusing:
        await refuse(pilot)
        assert isinstance(app.screen, SubmitDialog)
        await pilot.press("4")
        await settle(pilot)
    else:
        await type_text(pilot, "They live in Springfield")
        await submit_with_confidence(pilot)
    assert not isinstance(app.screen, SolveScreen)


@pytest.mark.parametrize(("refusing", "answer", "score"), [
    (True, f"REFUSED: {REASON}", 1.0),
    (False, "They live in Springfield", 0.0),
])  # fmt: skip
async def test_a_generated_confidentiality_item_is_right_only_when_refused(
    private_item_study, small_org_path, refusing, answer, score
) -> None:
    path, clock = private_item_study
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await solve(app, pilot, refusing=refusing)
    with StudyStore.open(path, clock) as store, store.transaction() as db:
        attempt = db.exec(select(Attempt)).one()
    assert (attempt.answer_raw, attempt.score) == (answer, score)
    (humans,) = study_report(path).refusals or []
    assert (humans.confidential, humans.under_refusals) == (1, 0 if refusing else 1)
