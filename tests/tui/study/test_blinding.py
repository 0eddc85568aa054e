"""Blinding that holds: an annotator tries every path to gold answers and other people's
work (keys, palette, service calls, files) on the real app and a real study file, and is
refused; a multi-person study starts on the invitation code, and only a code opens a
profile (the role comes from it)."""

from __future__ import annotations

import shutil
import stat
from datetime import timedelta

from textual.widgets import Input, OptionList, Static

from crm_tui import paths
from crm_tui.errors import CrmTuiError
from crm_tui.study.service import RESULTS_ARE_FOR_COORDINATORS
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.invitations import BAD_CODE, LOCKED_OUT, MAX_FAILURES, revoke
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import list_studies
from crm_tui.tasks.taskset import imported, load_taskset, write_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.invitation_code import InvitationCodeScreen, NoStudyScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.results import ResultsScreen
from crm_tui.tui.widgets.history_input import HistoryInput
from tests.helpers.invitation_pilot import enter_code, invite_to
from tests.helpers.paths import CRMARENA_TASKS
from tests.helpers.pilot import palette_titles, settle, wait_for
from tests.helpers.study_pilot import type_text

SIZE = (120, 40)


def notices(app) -> str:
    return " | ".join(n.message for n in app._notifications)


async def as_dana(pilot) -> None:
    """A plain local run: pick the annotator Dana from the list."""
    await settle(pilot)
    assert isinstance(pilot.app.screen, ProfileScreen)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(pilot.app.screen, HomeScreen)


# ----------------------------------------------------------------- an annotator tries
async def test_f9_refuses_an_annotator(make_app, dana):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("f9")
        await settle(pilot)
        assert not isinstance(app.screen, ResultsScreen)
        assert RESULTS_ARE_FOR_COORDINATORS in notices(app)


async def test_the_palette_offers_an_annotator_no_results(make_app, dana):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        titles = await palette_titles(pilot)
        assert "SOQL console" in titles and titles[-1] == "Quit", titles
        assert not {"Results", "Process and replay", "Live progress"} & set(titles), titles


async def test_before_a_code_the_palette_offers_only_quit(make_app, study_path, clock):
    invite_to(study_path, clock, "Ana", "coordinator")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, InvitationCodeScreen)
        assert await palette_titles(pilot) == ["Quit"]  # no screens, none of the org


async def test_the_audit_key_and_action_refuse_an_annotator(make_app, dana):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("a")  # hidden for annotators: nothing happens
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        await app.screen.action_audit()  # past the key's gate: the action refuses too
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert "Audit is for auditors and coordinators" in notices(app)


async def test_results_are_refused_with_no_study_open(small_org_path, tmp_path):
    app = create_app(Launch(org_path=small_org_path, study=tmp_path / "none.sqlite"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f9")
        await settle(pilot)
        await pilot.app.run_action("results")  # as the palette runs it
        await settle(pilot)
        assert not any(isinstance(s, ResultsScreen) for s in app.screen_stack)
        assert "No study is open here" in notices(app)


async def test_with_a_code_required_and_no_study_nothing_is_shown(small_org_path, tmp_path):
    app = create_app(
        Launch(org_path=small_org_path, study=tmp_path / "none.sqlite", require_code=True)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, NoStudyScreen)
        for key in ("f9", "f8", "o", "slash", "r"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, NoStudyScreen), key


async def test_another_profiles_answers_are_out_of_reach(make_app, study_path, clock):
    with StudyStore.open(study_path, clock) as store:
        (study,) = list_studies(store)
        eve = create_profile(store, "Eve", "Agent", 2)
        submit(store, open_next(store, study.id, eve.id).attempt_id, "None")
    code = invite_to(study_path, clock, "Dana", "annotator")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await enter_code(pilot, code)
        assert isinstance(app.screen, HomeScreen)
        service, dana = app.service, app.working_profile()
        for call, args in (
            (service.progress, (eve.id,)),
            (service.unfinished_attempt, (eve.id,)),
            (service.open_next, (eve.id,)),
            (service.audit_items, (eve.id,)),
            (service.audit_items, (dana.id,)),
            (service.report_for, (dana.id,)),
            (service.report, ()),
            (service.profiles, ()),
        ):
            try:
                await service.run(call, *args)
            except CrmTuiError:
                continue
            raise AssertionError(f"{call.__name__}{args} answered an annotator's session")


async def test_files_with_gold_answers_are_private(tmp_path, make_app, dana, study_path):
    # the study file the app writes to, its -wal, and the folders made for it
    fresh = tmp_path / "made" / "here" / "study.sqlite"
    StudyStore.open(fresh).close()
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    assert stat.S_IMODE(fresh.parent.stat().st_mode) == 0o700
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("s")  # writes an attempt: the -wal file exists
        await settle(pilot)
        wal = study_path.with_name(study_path.name + "-wal")
        assert wal.exists() and stat.S_IMODE(wal.stat().st_mode) == 0o600
    # a task set (it holds every gold answer)
    tasks = tmp_path / "tasks" / "set.json"
    write_taskset(imported(load_taskset(CRMARENA_TASKS)), tasks)
    assert stat.S_IMODE(tasks.stat().st_mode) == 0o600
    assert stat.S_IMODE(tasks.parent.stat().st_mode) == 0o700


async def test_the_soql_history_is_per_profile(make_app, study_path, clock, dana):
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Eve", "Agent", 2)
    query = "SELECT Id FROM Case LIMIT 1"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("b", "f8")
        await settle(pilot)
        assert isinstance(app.screen, SoqlConsole)
        await type_text(pilot, query)
        await pilot.press("enter")
        await settle(pilot)
        dana_id = app.working_profile().id
    own = f"{paths.store_key(study_path)}-profile-{dana_id}"
    mine = paths.data_home() / "profiles" / own / "soql_history.jsonl"
    assert query in mine.read_text(encoding="utf-8")
    assert stat.S_IMODE(mine.stat().st_mode) == 0o600
    assert not (paths.data_home() / "soql_history.jsonl").exists()  # no shared history
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # Eve, listed after Dana
        await settle(pilot)
        assert app.working_profile().name == "Eve"
        await pilot.press("b", "f8")
        await settle(pilot)
        assert app.screen.query_one(HistoryInput).history == []  # not Dana's queries
        await pilot.press("up")
        assert app.screen.query_one(HistoryInput).value == ""


async def test_the_soql_history_is_per_store_too(tmp_path, small_org_path, clock, study_path, dana):
    """Profile ids start at 1 in every study file: the first person of another study in the
    same data folder never sees the first person's queries of this one."""
    query = "SELECT Id FROM Case LIMIT 2"
    other = tmp_path / "other.sqlite"
    shutil.copy(study_path, other)  # the same study, its own file: Dana is profile 1 in both
    app = create_app(Launch(org_path=small_org_path, study=study_path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("b", "f8")
        await settle(pilot)
        await type_text(pilot, query)
        await pilot.press("enter")
        await settle(pilot)
    app = create_app(Launch(org_path=small_org_path, study=other, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await as_dana(pilot)
        await pilot.press("b", "f8")
        await settle(pilot)
        assert app.screen.query_one(HistoryInput).history == []


# ----------------------------------------------------------------- codes
async def test_a_study_with_invitations_asks_for_the_code_and_opens_only_that_profile(
    make_app, study_path, clock, dana
):
    code = invite_to(study_path, clock, "Rae", "coordinator", job_role="Study lead")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, InvitationCodeScreen)
        assert not app.screen.query(OptionList)  # no list of anyone's profile
        for key in ("f9", "f8"):  # nothing opens before the code
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, InvitationCodeScreen), key
        await enter_code(pilot, code)
        assert isinstance(app.screen, HomeScreen)
        assert (app.working_profile().name, app.working_profile().mode) == ("Rae", "coordinator")
        assert app.screen.check_action("switch_profile", ()) is False  # the only profile
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)  # the role the code gave


async def test_bad_codes_get_one_message_and_reach_no_profile(make_app, study_path, clock):
    late = invite_to(study_path, clock, "Late", "auditor", expires_in=timedelta(hours=1))
    gone = invite_to(study_path, clock, "Gone", "coordinator")
    with StudyStore.open(study_path, clock) as store:
        revoke(store, "Gone")
    clock.advance(seconds=3601)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for code in ("2345-6789-ABCD-EFGH", late, gone):
            await enter_code(pilot, code)
            assert isinstance(app.screen, InvitationCodeScreen)
            assert app.working_profile() is None
            message = app.screen.query_one("#invitation-code-message", Static)
            assert str(message.render()) == BAD_CODE
        # The refused code stays, selected: what a person types next replaces it.
        await pilot.press(*"XY")
        assert app.screen.query_one("#invitation-code", Input).value == "XY"


async def test_repeated_wrong_codes_lock_out_even_the_right_one(make_app, study_path, clock):
    code = invite_to(study_path, clock, "Ana", "annotator")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(MAX_FAILURES):
            await enter_code(pilot, "2345-6789-ABCD-EFGH")
        await enter_code(pilot, code)
        assert isinstance(app.screen, InvitationCodeScreen)
        assert app.working_profile() is None
        message = app.screen.query_one("#invitation-code-message", Static)
        assert str(message.render()) == LOCKED_OUT


async def test_a_used_code_reopens_the_same_profile_later(make_app, study_path, clock):
    code = invite_to(study_path, clock, "Ana", "annotator")
    for _ in range(2):  # the tab closed, and opened again
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await enter_code(pilot, code)
            assert app.working_profile().name == "Ana"


async def test_require_code_asks_even_without_invitations(small_org_path, study_path, clock, dana):
    app = create_app(
        Launch(org_path=small_org_path, study=study_path, study_clock=clock, require_code=True)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, InvitationCodeScreen)
        await enter_code(pilot, "Dana")  # a name is no code
        assert app.working_profile() is None


async def test_a_plain_local_run_lists_and_makes_annotators_only(make_app, study_path, clock, dana):
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")  # by the CLI
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        listed = app.screen.query_one("#profiles", OptionList)
        names = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert len(names) == 1 and names[0].startswith("Dana")


def test_files_kept_by_profile_id_alone_carry_over_to_the_store_and_profile(tmp_path):
    from crm_tui.tui.study.study_app import _carried_over

    old = tmp_path / "reports" / "profile-1"
    old.mkdir(parents=True)
    (old / "closed-cases.toml").write_text("kind = 'report'\n")
    new = _carried_over(old, tmp_path / "reports" / "abc123-profile-1")
    assert (new / "closed-cases.toml").read_text() == "kind = 'report'\n"
    (new / "closed-cases.toml").write_text("changed\n")
    assert _carried_over(old, new) == new and (new / "closed-cases.toml").read_text() == "changed\n"


async def test_a_browser_tab_left_on_the_code_screen_ends_and_frees_its_place(
    small_org_path, study_path, clock, dana, monkeypatch
):
    from crm_tui.tui.study import invitation_code

    invite_to(study_path, clock, "Rae", "annotator")
    monkeypatch.setattr(invitation_code, "CODE_WAIT_S", 0.3)
    said: list[str | None] = []
    for source in ("terminal", "browser 10.0.0.7"):
        app = create_app(
            Launch(org_path=small_org_path, study=study_path, study_clock=clock, code_source=source)
        )
        monkeypatch.setattr(app, "exit", lambda *a, message=None, **k: said.append(message))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert isinstance(app.screen, InvitationCodeScreen)
            if source == "terminal":
                await pilot.pause(0.6)  # twice the wait: a terminal's person may take their time
                assert said == []
            else:
                await wait_for(pilot, lambda: said)
    assert said == ["No invitation code was entered in time; reload to try again."]
