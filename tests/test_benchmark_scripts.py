"""Every benchmark script still runs: each at tiny sizes (`--smoke`) in its own process.

The scripts are found by listing tests/benchmarks, so a new one is covered without an edit
here; a module without a `__main__` block (tests/benchmarks/smoke.py) is a helper.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

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


def run_smoke(name: str, tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Run a benchmark script with `--smoke` and `options`; it leaves no temporary file."""
    temp = tmp_path / "tmp"  # the script's temporary files, to show it leaves none
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "CRM_TUI_HOME": str(tmp_path / "home")}
    run = subprocess.run(
        [sys.executable, "-m", f"tests.benchmarks.{name}", "--smoke", *options],
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
    return run


@pytest.mark.parametrize("name", SCRIPTS)
def test_benchmark_script_runs_at_tiny_sizes(name, tmp_path):
    run_smoke(name, tmp_path)


def test_browser_benchmark_times_the_sales_lists_on_a_b2b_org(tmp_path):
    table = tmp_path / "browser.md"
    run = run_smoke("bench_browser", tmp_path, "--kind", "b2b", "--markdown", str(table))
    assert run.stdout.startswith("Org (B2B): ")
    for interaction in ("open a list view", "next page", "sort by an indexed field", "filter"):
        assert f"| sales lists: {interaction}" in run.stdout, interaction
    for name in ("Opportunity", "Lead", "Task", "Event", "Quote", "QuoteLineItem"):
        assert f"| next page (25 pages deep into big lists) | {name} |" in run.stdout, name
    # the sales lists sorted by a lookup's name
    for row in ("Opportunities by Owner", "Tasks by Related To", "Quote Line Items by Quote"):
        assert f"| {row} |" in run.stdout, row
    # the file holds the table, the per-object figures only the output
    written = table.read_text(encoding="utf-8")
    assert run.stdout.startswith(written) and "| sales lists: " in written
    assert "| interaction | object |" not in written
