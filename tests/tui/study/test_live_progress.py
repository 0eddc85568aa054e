"""Live progress in the study app: a coordinator (reached by invitation code) opens it from
home with `l`, sees two annotators (one with a stale query), reassigns that query, and a
profile added from another connection appears on the next timed refresh; with quality
control, each annotator's checks, flags and exclusion show beside them."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input, Static

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import LIVE_IS_FOR_COORDINATORS, StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.invitations import invite
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.study.work.studies import find_study, with_overrides
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study import live_progress
from crm_tui.tui.study.live_progress import LiveProgressScreen, ReassignDialog
from tests.helpers.pilot import settle, wait_for
from tests.helpers.study_pilot import create_crafted_study

SIZE = (120, 40)


@pytest.fixture
def study_path(tmp_path, small_org_path, clock):
    """Two queries per annotator, two annotators per query (overrides conftest's)."""
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(
            store,
            org,
            change=lambda p: with_overrides(
                p, items=2, annotators_per_item=2, distinct_families=False
            ),
        )
    return path


@pytest.fixture
def code(study_path, clock) -> str:
    """Ana left a query open 20 minutes ago; Ben answered one and is on the next; Cleo,
    the coordinator, has an invitation code."""
    with StudyStore.open(study_path, clock) as store:
        study_id = row_id(find_study(store, "pilot"))
        ana = create_profile(store, "Ana", "Customer Service Agent", 4)
        ben = create_profile(store, "Ben", "Support Lead", 8)
        attempts.open_next(store, study_id, row_id(ana))
        clock.advance(20 * 60)
        view = attempts.open_next(store, study_id, row_id(ben))
        assert view is not None
        clock.advance(75)
        attempts.submit(store, view.attempt_id, "None", confidence=3)
        attempts.open_next(store, study_id, row_id(ben))
        clock.advance(30)
        return invite(store, "Cleo", "coordinator", job_role="Study lead").code


async def open_live(pilot, code: str) -> LiveProgressScreen:
    await settle(pilot)
    pilot.app.screen.query_one("#invitation-code", Input).value = code
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("l")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, LiveProgressScreen)
    return screen


def cells(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_watch_reassign_and_see_new_profiles(make_app, code, study_path, clock, monkeypatch):
    monkeypatch.setattr(live_progress, "REFRESH_S", 0.2)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, code)
        people = screen.query_one("#live-annotators", DataTable)
        assert cells(people) == [
            ["Ana", "0 of 2", "away", "—", "1", "21 min 45 s ago"],
            ["Ben", "1 of 2", "● at work", "1 min 15 s", "0", "30 s ago"],
        ]
        stale = screen.query_one("#live-stale", DataTable)
        (row,) = cells(stale)
        assert row[0] == "Ana" and row[3] == "21 min 45 s ago"
        ana_query = screen.live.stale[0]

        await pilot.press("a")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ReassignDialog)
        assert [p.name for p in dialog.candidates] == ["Ben"]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert cells(people)[0][1:2] == ["1 of 2"] and cells(people)[1][1:2] == ["1 of 3"]
        assert not stale.display
        assert "None: every open query" in str(
            screen.query_one("#live-stale-none", Static).render()
        )
        with StudyStore.open(study_path, clock) as store, store.transaction() as session:
            kept = session.get(Attempt, ana_query.attempt_id)
            assert (kept.status, kept.note) == ("skipped", "reassigned to Ben by Cleo")

        with StudyStore.open(study_path, clock) as store:  # another process, say the CLI
            create_profile(store, "Dee", "Customer Service Agent", 1)
        # the timer's next refresh, not a key, shows her
        await wait_for(pilot, lambda: [row[0] for row in cells(people)] == ["Ana", "Ben", "Dee"])
        await settle(pilot)
        assert cells(people)[2][1:3] == ["not started", "away"]


async def test_an_annotator_gets_no_live_view(make_app, code, study_path, clock):
    """The key is off for anyone but a coordinator, and the service refuses a screen
    pushed for someone else all the same."""
    with StudyStore.open(study_path, clock) as store:
        ana_code = invite(store, "Ana", "annotator").code
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#invitation-code", Input).value = ana_code
        await pilot.press("enter")
        await settle(pilot)
        home = app.screen
        assert not home.check_action("live", ()) and not app.check_action("live", ())
        await pilot.press("l", "f10")
        await settle(pilot)
        assert app.screen is home
        app.push_screen(LiveProgressScreen(app.service, home.profile))
        await settle(pilot)
        heading = str(app.screen.query_one("#live-heading", Static).render())
        assert heading == LIVE_IS_FOR_COORDINATORS
        assert app.screen.query_one("#live-annotators", DataTable).row_count == 0


def test_live_progress_snapshot(make_app, code, snap_compare):
    async def watching(pilot):
        await open_live(pilot, code)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=watching)


@pytest.fixture
def controlled_study(tmp_path, small_org_path, clock):
    """A study with quality control (consent), Ana and Ben at work, Ben excluded, and
    Cleo, the coordinator, invited."""
    (tmp_path / "consent.md").write_text("# Taking part\n\nYou agree to take part.\n")

    def controlled(preset):
        preset = with_overrides(preset, items=2, annotators_per_item=2, distinct_families=False)
        data = preset.model_dump()
        data["consent"] = {"file": str(tmp_path / "consent.md")}
        return validated(Preset, data, "test preset")

    path = tmp_path / "controlled.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(store, org, change=controlled)
        create_profile(store, "Ana", "Customer Service Agent", 4)
        create_profile(store, "Ben", "Support Lead", 8)
        cleo = invite(store, "Cleo", "coordinator", job_role="Study lead")
    with StudyService.open(path, clock=clock) as service:
        lead = next(p.id for p in service.profiles() if p.name == "Cleo")
        service.exclude("Ben", "answered in another language", profile_id=lead)
    return path, cleo.code


async def test_quality_control_shows_beside_each_annotator(controlled_study, clock, small_org_path):
    path, cleo_code = controlled_study
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, cleo_code)
        table = screen.query_one("#live-annotators", DataTable)
        await wait_for(pilot, lambda: table.row_count >= 2)
        rows = {row[0]: row[-1] for row in cells(table)}
    assert [str(c.label) for c in table.columns.values()][-1] == "Quality (checks, flags)"
    assert rows["Ben"] == "excluded: answered in another language" and rows["Ana"] == "—"


def test_a_person_quality_control_knows_nothing_of_yet_shows_a_dash():
    assert live_progress.quality_cell(None) == "—"


async def test_the_quality_overview_is_read_less_often_than_the_rest(
    controlled_study, clock, small_org_path, monkeypatch
):
    """Refreshes every 0.1 s read the overview once (it is due every minute here); Ctrl+R
    reads it again, and so does coming back from the quality-control screen."""
    monkeypatch.setattr(live_progress, "REFRESH_S", 0.1)
    monkeypatch.setattr(live_progress, "QUALITY_REFRESH_S", 60.0)
    path, cleo_code = controlled_study
    app = create_app(Launch(org_path=small_org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_live(pilot, cleo_code)
        service = app.service
        reads = {"live": 0, "quality": 0}
        for name, method in (("live", "live_progress"), ("quality", "quality_overview")):
            call = getattr(service, method)

            def counted(*args, _call=call, _name=name, **kwargs):
                reads[_name] += 1
                return _call(*args, **kwargs)

            monkeypatch.setattr(service, method, counted)
        table = screen.query_one("#live-annotators", DataTable)
        await wait_for(pilot, lambda: reads["live"] >= 5)
        assert reads["quality"] == 0  # read once already, when the screen opened
        assert {row[0]: row[-1] for row in cells(table)}["Ben"].startswith("excluded")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: reads["quality"] == 1)
        await pilot.press("q")
        await wait_for(pilot, lambda: reads["quality"] == 2)  # the quality screen's own read
        await settle(pilot)
        await pilot.press("escape")
        await wait_for(pilot, lambda: reads["quality"] == 3 and app.screen is screen)
