"""Shared fixtures: real org files generated once per test session."""

from __future__ import annotations

import pytest

from crm_tui.org.store.orgstore import OrgStore


@pytest.fixture(scope="session")
def small_org_path(tmp_path_factory):
    """A small generated org (seed 7, scale 0.1), written once per session. Read-only use."""
    from crm_tui.org.generate.build_file import generate

    path = tmp_path_factory.mktemp("orgs") / "small.sqlite"
    generate(path, seed=7, scale=0.1)
    return path


@pytest.fixture(scope="session")
def default_org_path(tmp_path_factory):
    """The default org (seed 1, scale 1), as `crm-tui` generates it on first run. Read-only."""
    from crm_tui.org.generate.build_file import generate

    path = tmp_path_factory.mktemp("orgs") / "default.sqlite"
    generate(path, seed=1, scale=1.0)
    return path


@pytest.fixture
def small_org(small_org_path):
    with OrgStore.open(small_org_path) as store:
        yield store


@pytest.fixture(autouse=True)
def steady_screens(monkeypatch, tmp_path):
    """Every test: no animations or blinking cursors (snapshots and timings stay the same),
    and a fresh data folder, so no test reads or writes the user's own (SOQL history...)."""
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("CRM_TUI_HOME", str(tmp_path / "home"))
