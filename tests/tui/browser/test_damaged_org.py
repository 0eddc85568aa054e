"""A damaged org file in the browser: a corrupt page met while browsing
is a notification naming the file and what is wrong, never a crash or a message that
names no file. The real app driven with Pilot, on a copy of a generated org whose Case
table has its first page overwritten."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.schema.catalogue import OBJECT_NAMES
from crm_tui.org.store.orgstore import OrgError
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import ListLocation
from tests.helpers.pilot import settle


def damage_table(org: Path, table: str) -> None:
    """Overwrite the root page of `table` with bytes no b-tree page has."""
    with sqlite3.connect(org) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()[0]
    conn.close()
    with open(org, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xff" * page_size)


@pytest.fixture
def damaged_org(tmp_path, small_org_path) -> Path:
    org = tmp_path / "damaged.sqlite"
    shutil.copy(small_org_path, org)
    damage_table(org, "Case")
    return org


def test_a_damaged_page_is_one_error_naming_the_file(damaged_org):
    backend = LocalBackend(damaged_org)
    try:
        with pytest.raises(OrgError) as caught:
            backend.page("Case", limit=10)
        assert str(caught.value).startswith(f"{damaged_org} is damaged (")
        assert "malformed" in str(caught.value)
        assert len(str(caught.value).splitlines()) == 1
        assert backend.page("Account", limit=10).records  # the rest of the file still reads
    finally:
        backend.close()


async def test_the_browser_shows_a_damaged_org_as_a_message_not_a_crash(damaged_org):
    app = create_app(Launch(org_path=damaged_org))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.navigate(ListLocation("Case"))
        await settle(pilot)
        await pilot.press(*["down"] * OBJECT_NAMES.index("Account"), "enter")
        await settle(pilot)
        assert app.is_running and app.return_code is None
        messages = [n.message for n in app._notifications]
        assert any(f"{damaged_org} is damaged (" in m for m in messages), messages
        assert not any("UNKNOWN_EXCEPTION" in m for m in messages), messages
    assert app.return_code in (None, 0)
