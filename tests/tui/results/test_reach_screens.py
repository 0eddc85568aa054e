"""Reaching the SOQL console and the results: keys, command palette, F1 help, and the
coordinator-only rule inside a study session."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widgets import DataTable, Static

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.tasks.taskset import load_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.screens.browser_help import HelpScreen
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.invitation_code import InvitationCodeScreen
from crm_tui.tui.study.results import ResultsScreen
from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.paths import CRMARENA_TASKS
from tests.helpers.pilot import settle
from tests.helpers.results_study import new_study, open_results


def help_text(screen: HelpScreen) -> str:
    console = Console(width=120, file=io.StringIO())
    with console.capture() as capture:
        for static in screen.query(Static):
            console.print(static.content)
    return capture.get()


async def until(pilot, condition, rounds: int = 200) -> None:
    """Pause until `condition()` holds: the study app loads its screens on its own thread."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(
        f"never got there: {pilot.app.screen_stack} {[n.message for n in pilot.app._notifications]}"
    )


async def test_f8_opens_the_console_and_escape_closes_it(make_app):
    async with make_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f8")
        await settle(pilot)
        assert isinstance(pilot.app.screen, SoqlConsole)
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, SoqlConsole)


async def test_results_reload_and_escape_closes_them(make_app, results):
    async with make_app().run_test(size=(120, 40)) as pilot:
        screen = await open_results(pilot, *results)
        assert screen.query_one("#results-families", DataTable).row_count == 3
        await pilot.press("r")  # built again by the service, into the same widgets' places
        await settle(pilot)
        assert screen.query_one("#results-families", DataTable).row_count == 3
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, ResultsScreen)


async def test_command_palette_opens_the_soql_console(make_app):
    async with make_app().run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p", *"SOQL console")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(pilot.app.screen, SoqlConsole)


async def test_f1_help_lists_the_console_and_in_the_study_app_the_results(
    make_app, small_org_path, tmp_path
):
    study_app = create_app(Launch(org_path=small_org_path, study=tmp_path / "none.sqlite"))
    for app, study_keys in ((make_app(), False), (study_app, True)):
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("f1")
            await settle(pilot)
            assert isinstance(app.screen, HelpScreen)
            lines = [" ".join(line.split()) for line in help_text(app.screen).splitlines()]
            assert "f8 SOQL console" in lines
            assert ("f9 Results (coordinators)" in lines) is study_keys
            assert any(line.startswith("f2 Back to the study") for line in lines) is study_keys


async def test_in_a_study_only_a_coordinator_sees_results(small_org_path, tmp_path):
    study_path = tmp_path / "study.sqlite"
    clock = FakeClock()
    with OrgStore.open(small_org_path) as org:  # the study app opens studies of its org
        new_study(study_path, clock, load_taskset(CRMARENA_TASKS), org.fingerprint)
    # Each reaches their profile with their code; none is picked from a list.
    abe = invite_to(study_path, clock, "Abe", "coordinator", job_role="Study lead")
    ana = invite_to(study_path, clock, "Ana", "annotator")

    async def results_as(code: str) -> str:
        app = create_app(Launch(org_path=small_org_path, study=study_path, study_clock=clock))
        async with app.run_test(size=(120, 40)) as pilot:
            # the study opens off the UI loop
            await until(pilot, lambda: isinstance(app.screen, InvitationCodeScreen))
            await enter_code(pilot, code)
            await until(pilot, lambda: isinstance(app.screen, HomeScreen))
            await pilot.press("f9")
            await settle(pilot)
            if not isinstance(app.screen, ResultsScreen):
                return " ".join(n.message for n in app._notifications)
            return str(app.screen.query_one("#results-message", Static).render())

    assert "Results are for study coordinators" in await results_as(ana)  # refused
    assert "has no results yet" in await results_as(abe)  # the report, empty so far
