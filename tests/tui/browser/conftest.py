"""Fixtures of the browser tests: the app on the small generated org, and a settle helper."""

from __future__ import annotations

import pytest

from crm_tui.org.backends.local import LocalBackend
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.browser.settings import BrowserSettings

# Small pages, so paging is exercised on the small org.
TEST_SETTINGS = BrowserSettings(page_size=30, prefetch_rows=5)


@pytest.fixture
def app(small_org_path) -> CrmApp:
    return create_app(Launch(org_path=small_org_path, browser=TEST_SETTINGS))


@pytest.fixture
def backend(small_org_path):
    """A second backend on the same org: what the screens should show."""
    be = LocalBackend(small_org_path)
    yield be
    be.close()
