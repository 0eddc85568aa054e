"""The browser as a newcomer met it: the search screen lets the keyboard out,
a footer key beside a text field acts, Back finds the list where it was, and the command
palette lists the app's own commands first, without Textual's built-ins."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey

from crm_tui.org.schema.catalogue import OBJECT_NAMES
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import ListLocation
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.objects import ObjectListScreen
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.browser.screens.search import SearchScreen
from tests.helpers.pilot import palette_titles, settle
from tests.tui.browser.conftest import TEST_SETTINGS

SIZE = (120, 40)
NOT_TYPED = ("ctrl+", "alt+", "shift+", "escape", "enter", "tab", "up", "down", "left", "right")


@pytest.fixture
def app_factory(small_org_path):
    return lambda: create_app(Launch(org_path=small_org_path, browser=TEST_SETTINGS))


def typed_footer_keys(app) -> list[str]:
    keys = [k.key for k in app.screen.query(FooterKey) if not k.has_class("-command-palette")]
    return [k for k in keys if not k.startswith(NOT_TYPED) and not k.startswith("f")]


async def searched(pilot) -> Input:
    await settle(pilot)
    await pilot.press("slash", *"acme")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SearchScreen)
    return pilot.app.screen.query_one("#search-input", Input)


async def filtering(pilot) -> Input:
    pilot.app.navigate(ListLocation("Case"))
    await settle(pilot)
    await pilot.press("f")  # the filter bar's first field
    await settle(pilot)
    value = pilot.app.screen.query_one("#filter-value", Input)
    value.focus()
    await settle(pilot)
    return value


async def querying(pilot) -> Input:
    await settle(pilot)
    await pilot.press("f8")  # the SOQL console, its query field focused
    await settle(pilot)
    return pilot.app.screen.query_one("#soql-query", Input)


async def test_escape_leaves_the_search_screen(app):
    async with app.run_test(size=SIZE) as pilot:
        await searched(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ObjectListScreen)


async def test_search_results_take_the_browser_keys(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"case")
        await settle(pilot)
        await pilot.press("enter")  # to the results
        await settle(pilot)
        assert "o" in typed_footer_keys(app) and "backspace" in typed_footer_keys(app)
        await pilot.press("backspace")
        await settle(pilot)
        assert isinstance(app.screen, ObjectListScreen)


async def test_a_key_the_footer_offers_beside_a_text_field_acts(app_factory):
    for open_field in (searched, filtering, querying):
        app = app_factory()
        async with app.run_test(size=SIZE) as pilot:
            await open_field(pilot)
            keys = typed_footer_keys(app)
        for key in keys:
            app = app_factory()
            async with app.run_test(size=SIZE) as pilot:
                field = await open_field(pilot)
                screen, before = app.screen, field.value
                await pilot.press(key)
                await settle(pilot)
                assert app.screen is not screen or field.value == before, (open_field, key)


async def test_back_finds_the_list_where_it_was(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        objects = app.screen.query_one(DataTable)
        await pilot.press(*["down"] * OBJECT_NAMES.index("Case"), "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ListViewScreen)
        table = screen.query_one(DataTable)
        for _ in range(4):  # well past the first page of 30, and scrolled
            await pilot.press("pagedown")
            await settle(pilot)
        await pilot.press("down", "right")
        await settle(pilot)
        where = table.cursor_coordinate
        scrolled = table.scroll_y
        assert where.row > 30 and scrolled > 0
        await pilot.press("left", "enter")  # the row's own record
        await settle(pilot)
        assert isinstance(app.screen, RecordScreen)
        await pilot.press("alt+left")
        await settle(pilot)
        back = app.screen
        assert isinstance(back, ListViewScreen) and back is not screen
        table = back.query_one(DataTable)
        assert table.cursor_coordinate.row == where.row
        assert table.scroll_y == scrolled
        await pilot.press("alt+left")  # and the object list, on Cases
        await settle(pilot)
        objects = app.screen.query_one(DataTable)
        assert objects.cursor_row == OBJECT_NAMES.index("Case")


async def test_palette_lists_the_app_commands_without_textual_builtins(app):
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = await palette_titles(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert titles[:3] == ["SOQL console", "Report builder", "Saved reports"], titles
        for builtin in ("Keys", "Maximize", "Screenshot", "Theme", "Minimize"):
            assert not any(t.startswith(builtin) for t in titles), titles
