"""`crm-tui --version` and `--help` start fast: they load none of the heavy libraries that
only some commands need (issue 17: every command paid 0.29 s for SQLAlchemy and SQLModel).

Each runs in a fresh interpreter, as the `crm-tui` script does, and lists what got imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

# Each is loaded by the commands that use it, never by the command line itself.
HEAVY = ("sqlalchemy", "sqlmodel", "pydantic", "textual", "numpy", "krippendorff", "rich")
# The command groups' own modules: the org, the task families, the study store.
LAYERS = ("crm_tui.org", "crm_tui.bench", "crm_tui.study", "crm_tui.tui")

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
APP_LATER = ("numpy", "krippendorff", "simple_salesforce", "requests", "faker")


def test_the_app_starts_without_what_only_some_screens_need():
    modules = imported_by_code(
        "from crm_tui.cli.main import cli\n"
        "from crm_tui.tui.app import create_app\n"
        "from crm_tui.tui.study.study_app import StudyApp\n"
    )
    assert "textual" in modules  # the app was imported
    assert sorted(m for m in modules if m.split(".")[0] in APP_LATER) == []
