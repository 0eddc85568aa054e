"""Search as a newcomer types it: "shipping delay policy" finds the Shipping Delay issue
and its article though no record has all three words; the results list, once focused,
has its first hit highlighted and Down goes to the second; a user hit does not repeat
its e-mail address."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from crm_tui.tui.browser.screens.search import SearchScreen
from tests.helpers.pilot import settle


async def search_for(pilot, text: str) -> SearchScreen:
    await settle(pilot)
    await pilot.press("slash", *[{" ": "space"}.get(c, c) for c in text])
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SearchScreen)
    return screen


def titles(screen: SearchScreen) -> list[str]:
    results = screen.query_one(OptionList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


async def test_words_not_all_in_one_record_still_find_the_policy(app, backend):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await search_for(pilot, "shipping delay policy")
        shown = titles(screen)
        assert any("Shipping Delay" in t for t in shown), shown
        status = str(screen.query_one("#search-status").render())
        assert "every word" in status


@pytest.mark.parametrize("key", ["down", "tab", "enter"])
async def test_the_results_list_starts_on_its_first_hit(app, key):
    """However the list is reached from the box, its first hit is highlighted, and Down
    goes on to the next one."""
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await search_for(pilot, "shipping")
        await pilot.press(key)  # from the box into the list
        await settle(pilot)
        results = screen.query_one(OptionList)
        assert app.focused is results
        first = next(
            i for i in range(results.option_count) if not results.get_option_at_index(i).disabled
        )
        assert results.highlighted == first
        await pilot.press("down")
        await settle(pilot)
        second = next(
            i
            for i in range(first + 1, results.option_count)
            if not results.get_option_at_index(i).disabled
        )
        assert results.highlighted == second


async def test_a_user_hit_shows_its_e_mail_once(app, backend):
    user = backend.soql("SELECT Name, Email FROM User LIMIT 1").records[0]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await search_for(pilot, user["Email"].split("@")[0])
        shown = [t for t in titles(screen) if user["Name"] in t]
        assert shown, titles(screen)
        assert all(t.lower().count(user["Email"].lower()) <= 1 for t in shown), shown
