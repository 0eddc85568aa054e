"""`crm-tui --version` and `--help` start fast: they load none of the heavy libraries that
only some commands need (every command paid 0.29 s for SQLAlchemy and SQLModel).
The app shows its first screen before it loads the study store and the screens not on show
(SQLAlchemy and SQLModel were half its start; the other study screens and the report
screens about a fifth).

Each runs in a fresh interpreter, as the `crm-tui` script does, and lists what got imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from tests.helpers.paths import ROOT
from tests.helpers.study_pilot import create_crafted_study

# Each is loaded by the commands that use it, never by the command line itself.
HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "textual", "numpy", "krippendorff", "rich")
# The command groups' own modules: the org, the task families, the study store.
LAYERS = ("crm_tui.org", "crm_tui.tasks", "crm_tui.study", "crm_tui.tui")

LIST_IMPORTS = """
import json, sys
from crm_tui.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by(*args: str) -> set[str]:
    """The modules `crm-tui ARGS` imported; it must print something (its version, help)."""
    run = run_python(LIST_IMPORTS, *args)
    assert run.stdout.strip(), "the command printed nothing"
    return set(json.loads(run.stderr.strip().splitlines()[-1]))


def imported_by_code(code: str) -> set[str]:
    run = run_python(code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n")
    return set(json.loads(run.stdout.strip().splitlines()[-1]))


def run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    run = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return run


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["org", "--help"]])
def test_the_command_line_alone_loads_no_heavy_library(args):
    modules = imported_by(*args)
    loaded = sorted(
        name
        for name in modules
        if name.split(".")[0] in HEAVY or any(name.startswith(layer) for layer in LAYERS)
    )
    assert loaded == [], f"crm-tui {' '.join(args)} imported {loaded[:20]}"


# Loaded when a report is built (numpy, krippendorff), a live org opened (simple_salesforce,
# and requests with it) or a state picked as an answer (Faker's list of states).
APP_LATER = (
    "numpy",
    "krippendorff",
    "scipy",
    "matplotlib",
    "simple_salesforce",
    "requests",
    "faker",
)


# What the study loads, and the study screens a person reaches only after the first one.
STUDY_LATER = ("sqlalchemy", "sqlmodel", "pydantic", "psycopg")
SCREENS_LATER = (
    "crm_tui.study.store.db",
    "crm_tui.study.store.models",
    "crm_tui.study.service",
    "crm_tui.tui.study.home",
    "crm_tui.tui.study.solve",
    "crm_tui.tui.study.results",
    "crm_tui.tui.study.live_progress",
    "crm_tui.tui.study.invitation_code",
    "crm_tui.tui.study.audit_screen",
    "crm_tui.tui.study.realism",
    "crm_tui.tui.study.replay_screen",
    "crm_tui.tui.browser.screens.report_builder",
    "crm_tui.tui.browser.screens.report_result",
)

# The app on an org and a study file, until its first screen (the profiles) is on show.
# Imports off the UI thread (the worker that opens the study) wait until then, so what had
# been imported by then is what the first screen needed, whichever thread runs first.
LIST_FIRST_SCREEN_IMPORTS = """
import asyncio, json, sys, threading

shown = threading.Event()

class HoldUntilShown:
    def find_spec(self, name, path=None, target=None):
        if threading.current_thread() is not threading.main_thread():
            if not shown.wait(10):  # the first screen waits for the worker: stop holding
                shown.set()
        return None

sys.meta_path.insert(0, HoldUntilShown())

from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.profile import ProfileScreen

async def first_screen():
    app = create_app(Launch(org_path=sys.argv[1], study=sys.argv[2]))
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, ProfileScreen) and app.screen.query("#profiles")):
            await pilot.pause(0.01)
        modules = sorted(sys.modules)
        shown.set()
    print(json.dumps(modules), file=sys.stderr)

asyncio.run(first_screen())
"""


def test_the_app_starts_without_what_only_some_screens_need():
    modules = imported_by_code(
        "from crm_tui.cli.main import cli\n"
        "from crm_tui.tui.app import create_app\n"
        "from crm_tui.tui.study.study_app import StudyApp\n"
    )
    assert "textual" in modules  # the app was imported
    assert sorted(m for m in modules if m.split(".")[0] in APP_LATER + STUDY_LATER) == []
    assert sorted(m for m in modules if m in SCREENS_LATER) == []


def test_results_load_matplotlib_only_to_write_figures():
    modules = imported_by_code(
        "from crm_tui.cli.study_results import results\n"
        "from crm_tui.study.results import render, summary\n"
        "from crm_tui.tui.study import results as screen\n"
    )
    assert "crm_tui.study.results.analysis" in modules
    assert sorted(m for m in modules if m.split(".")[0] == "matplotlib") == []


@pytest.fixture
def study_file(tmp_path, small_org_path):
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path) as store:
        create_crafted_study(store, org)
    return path


def test_the_first_screen_shows_before_the_study_store_loads(small_org_path, study_file):
    run = run_python(LIST_FIRST_SCREEN_IMPORTS, str(small_org_path), str(study_file))
    modules = set(json.loads(run.stderr.strip().splitlines()[-1]))
    assert "crm_tui.tui.study.profile" in modules  # the first screen is the profiles
    loaded = sorted(
        m for m in modules if m.split(".")[0] in APP_LATER + STUDY_LATER or m in SCREENS_LATER
    )
    assert loaded == [], f"imported before the first screen: {loaded[:20]}"


def test_tasks_generate_loads_no_soql_machinery(small_org_path, tmp_path):
    """NED's product searches translate their terms without the SOQL package (~35 ms to
    import), which nothing else the generator does needs."""
    out = tmp_path / "tasks.json"
    argv = ["tasks", "generate", "--org", str(small_org_path), "--per-task", "4"]
    modules = imported_by(*argv, "--allow-short", "--out", str(out))
    assert out.exists() and "crm_tui.tasks.gold" in modules
    assert sorted(m for m in modules if m.startswith("crm_tui.org.soql")) == []
