"""Every benchmark script still runs: each at tiny sizes (`--smoke`) in its own process.

The scripts are found by listing tests/benchmarks, so a new one is covered without an edit
here; a module without a `__main__` block (tests/benchmarks/smoke.py) is a helper.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.benchmarks.smoke import NO_CRMARENA_EXIT
from tests.helpers.paths import ROOT, needs_crmarena

BENCHMARKS = ROOT / "tests" / "benchmarks"
SCRIPTS = sorted(
    path.stem
    for path in BENCHMARKS.glob("*.py")
    if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
)
MARKDOWN_TABLE = re.compile(r"^\|.+\|\n\|(?:\s*:?-+:?\s*\|)+$", re.MULTILINE)


def test_every_script_is_found():
    assert len(SCRIPTS) >= 10, SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
def test_benchmark_script_runs_at_tiny_sizes(name, tmp_path):
    temp = tmp_path / "tmp"  # the script's temporary files, to show it leaves none
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "CRM_TUI_HOME": str(tmp_path / "home")}
    run = subprocess.run(
        [sys.executable, "-m", f"tests.benchmarks.{name}", "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    no_crmarena, reason = needs_crmarena.mark.args[0], needs_crmarena.mark.kwargs["reason"]
    if run.returncode == NO_CRMARENA_EXIT and no_crmarena:
        pytest.skip(reason)
    assert run.returncode == 0, run.stderr[-3000:]
    assert MARKDOWN_TABLE.search(run.stdout), run.stdout
    assert list(temp.iterdir()) == []
