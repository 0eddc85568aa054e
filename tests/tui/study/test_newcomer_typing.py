"""What a newcomer typed and where it went: the realism rationale, a resumed
answer, a fast profile form, footer keys beside a text field, the F1 help, the home
footer of a study without some parts, and when exploring counts as done."""

from __future__ import annotations

import pytest
from rich.console import Console
from textual import events
from textual.widgets import Input, Static, TextArea
from textual.widgets._footer import FooterKey

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.profiles import create_profile
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.home import HomeScreen
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.realism import RealismScreen
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_help import StudyHelpScreen
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import create_crafted_study, type_text

SIZE = (120, 40)

# Keys a text field never takes: pressing one of these is never typing.
NOT_TYPED = ("ctrl+", "alt+", "shift+", "escape", "enter", "tab", "up", "down", "left", "right")


async def at_home(pilot) -> HomeScreen:
    await settle(pilot)
    await pilot.press("enter")  # the only profile
    await settle(pilot)
    assert isinstance(pilot.app.screen, HomeScreen)
    return pilot.app.screen


def text_of(widget) -> str:
    return widget.text if isinstance(widget, TextArea) else widget.value


def typed_footer_keys(app) -> list[str]:
    """The footer's keys a text field could take as typing (letters, digits, /, ⌫)."""
    keys = [k.key for k in app.screen.query(FooterKey) if not k.has_class("-command-palette")]
    return [k for k in keys if not k.startswith(NOT_TYPED) and not k.startswith("f")]


@pytest.mark.usefixtures("dana")
async def test_realism_tab_goes_to_the_rationale_and_digits_there_do_not_rate(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("t")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RealismScreen)
        for target in screen.targets[:2]:  # on arrival, and after a rating is submitted
            assert screen.target == target
            await pilot.press("4", "tab")  # "Tab to write", the screen says
            await type_text(pilot, "x1y")
            await settle(pilot)
            assert screen.query_one("#rationale", TextArea).text == "x1y"
            assert screen.level == 4
            await pilot.press("ctrl+s")
            await settle(pilot)


@pytest.mark.usefixtures("dana")
async def test_resuming_a_query_puts_the_cursor_after_the_draft(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("s")
        await settle(pilot)
        await type_text(pilot, "005Lc")
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, SolveScreen)
        await type_text(pilot, "0000")
        await settle(pilot)
        assert app.screen.query_one("#answer-text", Input).value == "005Lc0000"
        await pilot.press("f2")  # to the browser and back: the field has focus again
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        await type_text(pilot, "9")
        await settle(pilot)
        assert app.screen.query_one("#answer-text", Input).value == "005Lc00009"

    again = make_app()  # a restart finds the draft the same way
    async with again.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("r")
        await settle(pilot)
        await type_text(pilot, "1")
        await settle(pilot)
        assert again.screen.query_one("#answer-text", Input).value == "005Lc000091"


async def test_a_fast_typist_fills_each_profile_field_in_turn(make_app):
    """Keys arrive in a burst from a real terminal: the text after a Tab (or Enter) must
    land in the next field, not the one the Tab left."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ProfileScreen)
        burst = [*"Kim", "tab", *"Agent", "enter", "3"]
        for key in burst:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await settle(pilot)
        values = [i.value for i in app.screen.query("#profile-form Input").results(Input)]
        assert values == ["Kim", "Agent", "3"]


async def open_solve(pilot) -> Input:
    await at_home(pilot)
    await pilot.press("s")
    await settle(pilot)
    return pilot.app.screen.query_one("#answer-text", Input)


async def open_rationale(pilot) -> TextArea:
    await at_home(pilot)
    await pilot.press("t")
    await settle(pilot)
    area = pilot.app.screen.query_one("#rationale", TextArea)
    area.focus()
    await settle(pilot)
    return area


async def open_profile_form(pilot) -> Input:
    await settle(pilot)
    await pilot.press("ctrl+n")
    await settle(pilot)
    return pilot.app.screen.query_one("#profile-name", Input)


@pytest.mark.usefixtures("dana")
@pytest.mark.parametrize("open_field", [open_solve, open_rationale, open_profile_form])
async def test_a_key_the_footer_offers_beside_a_text_field_acts(make_app, open_field):
    """Every typed key the footer shows while a text field has focus does what the footer
    says: it never types into the field instead (`/ Search` typed a "/" in the answer)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        field = await open_field(pilot)
        screen, keys = app.screen, typed_footer_keys(app)
    for key in keys:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            field = await open_field(pilot)
            screen, before = app.screen, text_of(field)
            await type_text(pilot, "ab")  # something typed first, as a person would
            await pilot.press(key)
            await settle(pilot)
            assert app.screen is not screen or text_of(field) == before + "ab", key


@pytest.mark.usefixtures("dana")
async def test_f1_help_describes_every_key_in_one_aligned_column(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, StudyHelpScreen)
        console = Console(width=110, record=True)
        for static in app.screen.query(Static):
            console.print(static.content)
        lines = [line.rstrip() for line in console.export_text().splitlines()]
    # Section titles start at the left edge, keys two columns in; a description too long
    # for its line goes on further in, under itself.
    rows = [line for line in lines if len(line) - len(line.lstrip()) == 2]
    assert len(rows) > 30, lines
    starts = set()
    for row in rows:
        gap = row.find("  ", 2)
        assert gap > 0, f"a key without a description: {row!r}"
        starts.add(len(row) - len(row[gap:].lstrip()))
    assert len(starts) == 1, f"descriptions start at columns {sorted(starts)}"


@pytest.fixture
def solve_only_path(tmp_path, small_org_path, clock):
    """A study whose protocol is one solve part: no exploring, no rating."""
    path = tmp_path / "solve-only.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_crafted_study(
            store, org, "solve-only", change=lambda p: p.model_copy(update={"parts": [p.solve]})
        )
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return path


async def test_home_offers_only_the_parts_the_study_has(solve_only_path, small_org_path, clock):
    app = create_app(Launch(org_path=small_org_path, study=solve_only_path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await at_home(pilot)
        shown = [k.key for k in app.screen.query(FooterKey)]
        assert "s" in shown
        assert "e" not in shown and "t" not in shown, shown
        await pilot.press("e", "t")  # hidden keys do nothing either
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


def explore_done(home: HomeScreen) -> bool:
    return next(p for p in home.parts if p.kind == "explore").complete


@pytest.mark.usefixtures("dana")
async def test_exploring_is_done_after_its_time_or_when_the_person_says_so(make_app, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        await pilot.press("e")
        await settle(pilot)
        clock.advance(20)
        await pilot.press("f2")  # a look, and straight back: not done yet
        await settle(pilot)
        assert app.screen is home and not explore_done(home)
        assert "e" in [k.key for k in home.query(FooterKey)]
        await pilot.press("e")
        await settle(pilot)
        clock.advance(4 * 60 + 40)  # 5 minutes in all, the preset's suggested time
        await pilot.press("f2")
        await settle(pilot)
        assert explore_done(home)

    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        assert explore_done(home)  # counted from the study file, not this process


@pytest.mark.usefixtures("dana")
async def test_exploring_is_done_when_the_person_says_so(make_app, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        await pilot.press("e")
        await settle(pilot)
        clock.advance(30)
        await pilot.press("f2")
        await settle(pilot)
        assert not explore_done(home)
        shown = [k.key for k in home.query(FooterKey)]
        assert "d" in shown, shown  # "Done exploring"
        await pilot.press("d")
        await settle(pilot)
        assert explore_done(home)
        assert "d" not in [k.key for k in home.query(FooterKey)]
