"""The quality-control screens in the app: consent first (declining ends the session and
keeps only the decline), a family's guidelines before its first query and again on
Ctrl+G while solving."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Event, QualityRecord
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.quality_screens import ConsentScreen, GuidelinesScreen
from crm_tui.tui.study.solve import SolveScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_crafted_study


@pytest.fixture
def study_path(tmp_path, small_org_path, clock):
    (tmp_path / "consent.md").write_text("# Taking part\n\nYou agree to take part.\n")
    (tmp_path / "guide.md").write_text("# How to answer\n\nAnswer with an Id.\n")

    def controlled(preset: Preset) -> Preset:
        data = preset.model_dump()
        data["consent"] = {"file": str(tmp_path / "consent.md")}
        data["guidelines"] = {
            family: str(tmp_path / "guide.md")
            for family in ("NCR", "HTU", "TCU", "NED", "PVI", "KQA", "TII", "MTA", "BRI")
        }
        return validated(Preset, data, "test preset")

    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(store, org, change=controlled)
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return path


async def test_consent_then_guidelines_before_the_first_query(make_app, study_path):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # Dana
        await settle(pilot)
        assert isinstance(app.screen, ConsentScreen)
        await pilot.click("#agree")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("s")
        await settle(pilot)
        assert isinstance(app.screen, GuidelinesScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        assert "Guidelines" in {
            b.description for _, b, on, _ in app.screen.active_bindings.values() if on
        }
        await pilot.press("ctrl+g")  # the guidelines again, from the solve screen
        await settle(pilot)
        assert isinstance(app.screen, GuidelinesScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
    with StudyStore.open(study_path) as store, store.transaction() as session:
        kinds = [r.kind for r in session.exec(select(QualityRecord))]
    assert kinds == ["consent", "guidelines_seen"]  # seen once: reopening adds nothing


async def test_declining_ends_the_session_and_keeps_only_the_decline(make_app, study_path):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConsentScreen)
        await pilot.click("#decline")
        await settle(pilot)
    assert app.return_code == 0 or app.return_code is None
    with StudyStore.open(study_path) as store, store.transaction() as session:
        records = list(session.exec(select(QualityRecord)))
        events = list(session.exec(select(Event)))
    assert [r.kind for r in records] == ["consent"] and '"decline"' in (records[0].value or "")
    assert events == []
