"""Search in the browser-served app: the results list, reached with Tab, Down or Enter,
starts on its first hit (it took the focus with nothing highlighted, so Enter opened
nothing), and Enter opens that hit's record."""

from __future__ import annotations

import pytest

from crm_tui.org.backends.local import LocalBackend
from tests.tui.web.served_study import BrowserTab
from tests.tui.web.test_serve_browser import browser, invite, served, sign_in  # noqa: F401

pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize("into_the_list", ["Tab", "ArrowDown"])
def test_enter_in_the_list_opens_the_first_hit(
    served,  # noqa: F811
    browser,  # noqa: F811
    study_db,
    small_org_path,
    into_the_list,
):
    backend = LocalBackend(small_org_path)
    try:
        first = backend.search("shipping", limit=50)[0]
    finally:
        backend.close()
    code = invite(study_db, f"Sam {into_the_list}")
    tab = BrowserTab(browser.new_page())
    sign_in(tab, served.url, code)
    mark = tab.mark()
    tab.press("/")
    tab.wait_for_text("Search", since=mark)
    mark = tab.mark()
    tab.type("shipping")
    tab.wait_for_text("results for", since=mark)
    tab.pause()
    mark = tab.mark()
    tab.press(into_the_list)
    tab.pause()
    tab.press("Enter")
    tab.wait_for_text(first.record_id, since=mark, timeout=30)
    tab.page.close()
