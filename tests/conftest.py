"""Shared fixtures: real org files generated once per test session."""

from __future__ import annotations

import inspect
import re

import pytest

from crm_tui.org.store.orgstore import OrgStore
from tests.helpers import fuzz  # noqa: F401  (loads the property tests' profile first)
from tests.helpers.paths import CRMARENA_DIR, CRMARENA_TASKS


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


@pytest.fixture(scope="session", autouse=True)
def quick_idle_checks():
    """Pilot waits, after every key and in `pause()`, until the app is idle: Textual
    compares the process's CPU time with the wall clock over 20 ms sleeps (textual/_wait.py),
    so every key costs at least 40 ms and every `settle` 160 ms, most of a Pilot test's time.
    5 ms sleeps with the same bar (under 5% of a core busy) ask the same question four times
    as often, so a quiet app is seen quiet sooner and a busy one is waited for as before."""
    import textual._wait

    patch = pytest.MonkeyPatch()
    patch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.005)
    patch.setattr(textual._wait, "SLEEP_IDLE", 0.005 / 20)
    yield
    patch.undo()


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


# ----------------------------------------------------------------- a bare clone
SHARED_NAMES = re.compile(r"\b(CRMARENA_TASKS|CRMARENA_FILE|CRMARENA_DIR|SHARED)\b")


def _reads_shared(func: object, depth: int = 2) -> bool:
    """Whether `func`, or a function of its module it calls (two levels deep), names one of
    the shared CRMArena files."""
    try:
        source = inspect.getsource(func)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return False
    if SHARED_NAMES.search(source):
        return True
    module = inspect.getmodule(func)
    if depth == 0 or module is None:
        return False
    called = set(re.findall(r"\b(\w+)\(", source))
    return any(
        inspect.isfunction(getattr(module, name, None))
        and _reads_shared(getattr(module, name), depth - 1)
        for name in called
    )


def pytest_configure(config):
    """In a bare clone the snapshots of skipped tests go unused: a warning, not a failure."""
    if not CRMARENA_TASKS.exists():
        config.option.warn_unused_snapshots = True


def pytest_collection_modifyitems(config, items):
    """Without ../shared (a bare clone), tests that read CRMArena's files skip, saying why;
    a test reads them if it, a fixture it uses, or a helper they call names them."""
    if CRMARENA_TASKS.exists():
        return
    reason = f"needs CRMArena's files at {CRMARENA_DIR} (not in a bare clone)"
    for item in items:
        funcs = [getattr(item, "function", None)]
        for defs in item._fixtureinfo.name2fixturedefs.values():
            funcs += [d.func for d in defs]
        if any(_reads_shared(f) for f in funcs if f is not None):
            item.add_marker(pytest.mark.skip(reason=reason))
