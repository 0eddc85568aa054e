"""Quality control of people in the app: a coordinator reaches it from live progress (q)
or the command palette, lets a person who failed the qualification try once more,
excludes a person with a reason and counts them again; the calls are the ones the CLI
makes, and what they record is in the study file."""

from __future__ import annotations

from typing import TypeVar

import pytest
from textual.widgets import DataTable, Input

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.invitations import invite
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.study.work.quality import Stage, give_consent, records_of
from crm_tui.study.work.studies import find_study, with_overrides
from crm_tui.tasks.families import get_family
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.live_progress import LiveProgressScreen
from crm_tui.tui.study.people_quality import PeopleQualityScreen, ReasonDialog
from crm_tui.tui.study.study_screen import StudyScreen
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import create_crafted_study, type_text

SIZE = (120, 40)
S = TypeVar("S", bound=StudyScreen)


@pytest.fixture
def controlled(tmp_path, small_org_path, clock):
    """Consent and a one-query qualification (one try): Ana failed it, Ben passed; Cleo,
    the coordinator, and Dora, an annotator, have invitation codes."""
    (tmp_path / "consent.md").write_text("# Taking part\n\nYou agree to take part.\n")

    def with_quality(preset):
        preset = with_overrides(preset, items=2, annotators_per_item=2, distinct_families=False)
        data = preset.model_dump()
        data["consent"] = {"file": str(tmp_path / "consent.md")}
        data["qualification"] = {"items": 1, "pass_correct": 1, "tries": 1, "pool": [0, 1]}
        return validated(Preset, data, "test preset")

    path = tmp_path / "controlled.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(store, org, change=with_quality)
        study_id = row_id(find_study(store, "pilot"))
        for name, right in (("Ana", False), ("Ben", True)):
            person = row_id(create_profile(store, name, "Customer Service Agent", 4))
            give_consent(store, study_id, person, True)
            view = attempts.open_next(store, study_id, person)
            assert view is not None and view.item.idx in (0, 1)
            family = get_family(view.item.task)
            assert family.answer_object is not None
            records = org.rows(family.answer_object, "1 ORDER BY Id LIMIT 2")
            clock.advance(60)
            attempts.submit(store, view.attempt_id, records[1 if right else 0]["Id"], confidence=3)
        cleo = invite(store, "Cleo", "coordinator", job_role="Study lead").code
        dora = invite(store, "Dora", "annotator").code
    return path, cleo, dora


@pytest.fixture
def make_controlled_app(controlled, small_org_path, clock):
    path = controlled[0]
    return lambda: create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))


async def sign_in(pilot, code: str) -> None:
    await settle(pilot)
    pilot.app.screen.query_one("#invitation-code", Input).value = code
    await pilot.press("enter")
    await settle(pilot)


async def press_then_rows(pilot, key: str, screen_type: type[S], table_id: str) -> S:
    """Press `key`; the `screen_type` it opens, once its table shows both annotators."""
    await pilot.press(key)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, screen_type)
    table = screen.query_one(table_id, DataTable)
    await wait_for(pilot, lambda: table.row_count >= 2)
    return screen


async def open_from_live(pilot, code: str) -> PeopleQualityScreen:
    await sign_in(pilot, code)
    await press_then_rows(pilot, "l", LiveProgressScreen, "#live-annotators")
    return await press_then_rows(pilot, "q", PeopleQualityScreen, "#quality-people")


def rows(screen: PeopleQualityScreen) -> dict[str, list[str]]:
    table = screen.query_one("#quality-people", DataTable)
    found = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
    return {row[0]: row[1:] for row in found}


def offered(screen) -> set[str]:
    return {b.action for _, b, on, _ in screen.active_bindings.values() if on}


def standing_of(path, clock, name: str) -> str:
    with StudyService.open(path, clock=clock) as service:
        person = next(p.id for p in service.profiles() if p.name == name)
        return service.standing(person).stage


def quality_of(path, clock, name: str):
    with StudyService.open(path, clock=clock) as service:
        overview = service.quality_overview()
    assert overview is not None
    return next(p for p in overview.people if p.name == name)


async def test_a_retry_from_live_progress_lets_a_failed_person_practise_again(
    make_controlled_app, controlled, clock
):
    path, cleo, _ = controlled
    assert standing_of(path, clock, "Ana") == Stage.FAILED
    app = make_controlled_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_live(pilot, cleo)
        assert rows(screen)["Ana"][:2] == ["agreed", "failed"]
        assert rows(screen)["Ben"][:2] == ["agreed", "passed"]
        assert screen._current_name() == "Ana"  # live progress's highlighted annotator
        assert {"allow_retry", "exclude"} <= offered(screen)
        assert "include" not in offered(screen)
        await pilot.press("t")
        await wait_for(pilot, lambda: rows(screen)["Ana"][1] != "failed")
        await pilot.press("down")  # Ben passed: nothing to retry
        await settle(pilot)
        assert "allow_retry" not in offered(screen)
        await pilot.press("t")
        await settle(pilot)
    assert standing_of(path, clock, "Ana") == Stage.PRACTICE
    assert quality_of(path, clock, "Ana").retries_allowed == 1
    assert quality_of(path, clock, "Ben").retries_allowed == 0


async def test_exclude_then_count_again_with_reasons_and_a_refusal_keeps_the_reason(
    make_controlled_app, controlled, clock
):
    path, cleo, _ = controlled
    app = make_controlled_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_from_live(pilot, cleo)
        await pilot.press("down", "x")  # Ben
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ReasonDialog) and dialog.name_of_person == "Ben"
        await pilot.press("enter")  # no reason: refused, the dialog stays
        await settle(pilot)
        assert app.screen is dialog
        await type_text(pilot, "answered at random")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        await wait_for(pilot, lambda: rows(screen)["Ben"][-1] == "answered at random")
        assert "include" in offered(screen) and "exclude" not in offered(screen)
        await pilot.press("i")
        await settle(pilot)
        await type_text(pilot, "checked again")
        await pilot.press("enter")
        await settle(pilot)
        await wait_for(pilot, lambda: rows(screen)["Ben"][-1] == "—")
    assert quality_of(path, clock, "Ben").excluded is None
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        study_id = row_id(find_study(store, "pilot"))
        kept = [(r.kind, r.value) for r in records_of(session, study_id) if r.value]
    assert kept[-2:] == [("excluded", "answered at random"), ("readmitted", "checked again")]


async def test_the_palette_offers_it_to_a_coordinator_only(make_controlled_app, controlled, clock):
    _, cleo, dora = controlled
    app = make_controlled_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot, dora)
        assert not app.palette_offers("quality") and not app.check_action("quality", ())
        app.action_quality()
        await settle(pilot)
        assert not isinstance(app.screen, PeopleQualityScreen)
    app = make_controlled_app()
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot, cleo)
        assert app.palette_offers("quality")
        await pilot.press("ctrl+p")
        await settle(pilot)
        await type_text(pilot, "Quality control")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PeopleQualityScreen)


def test_people_quality_snapshot(make_controlled_app, controlled, snap_compare):
    async def watching(pilot):
        screen = await open_from_live(pilot, controlled[1])
        await pilot.press("down")
        await wait_for(pilot, lambda: screen._current_name() == "Ben")
        await settle(pilot)

    assert snap_compare(make_controlled_app(), terminal_size=SIZE, run_before=watching)
