"""How long the results screen and the SOQL console take to show their answer in the app.

Results: a study over all 1,170 CRMArena instances with 3 answers each, 10 realism raters
and ten agent trials (the data of agents_report.py), opened in the app at 120x40: time
until the tables and chart are on screen, and how much of it ran on the UI loop (mounting
the widgets; the report itself is built on the study service's writer thread).
SOQL: Enter to rows on screen, on an org generated at scale 1 (seed 1).

Run: python -m tests.benchmarks.bench_app_screens  (prints a Markdown table; `--smoke`:
one trial over 2 instances of each family, an org at scale 0.1).
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from pathlib import Path

from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.generate.build_file import generate
from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import import_agent_results
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, with_overrides
from crm_tui.tasks.taskset import CRMARENA
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.study.results import ResultsScreen
from crm_tui.tui.widgets.history_input import HistoryInput
from tests.benchmarks.agents_report import TRIALS, fill_study, write_trial_files
from tests.benchmarks.smoke import SMOKE_SCALE, crmarena_taskset, smoke_only

QUERIES = [
    "SELECT Id, Subject, Status, Account.Name FROM Case ORDER BY CreatedDate DESC LIMIT 200",
    "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status",
    "SELECT Name, (SELECT Id FROM Cases) FROM Account LIMIT 100",
    "SELECT Id, CaseNumber, Owner.Name FROM Case",
]


def build_study(folder: Path, smoke: bool) -> Path:
    rng = random.Random(0)
    taskset = crmarena_taskset(smoke)
    path = folder / "study.sqlite"
    with StudyStore.open(path) as store:
        files = write_trial_files(folder, taskset.instances, rng, 1 if smoke else TRIALS)
        import_agent_results(store, [read_agent_results(p) for p in files], taskset)
        preset, preset_path = load_preset("paper-expert-study")
        preset = with_overrides(preset, distinct_families=False, annotators_per_item=3)
        study = create_study(
            store,
            "bench",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=CRMARENA,
        )
        fill_study(store, study.id, rng)
        create_profile(store, "Coordinator", "Study lead", 10, mode="coordinator")
    return path


async def idle(pilot) -> None:
    while any(w.is_running for w in pilot.app.workers):
        await asyncio.sleep(0.005)
    await pilot.pause()


async def time_results(org: Path, study: Path) -> tuple[float, float]:
    on_loop = 0.0
    original = ResultsScreen._show_report
    # The report is built on the study service's writer thread, not a Textual worker, so
    # an idle app does not mean the report is shown: wait for the screen to show it.
    shown = asyncio.Event()

    async def timed_show(self, report):
        nonlocal on_loop
        started = time.perf_counter()
        await original(self, report)
        on_loop = time.perf_counter() - started
        shown.set()

    ResultsScreen._show_report = timed_show
    app = CrmApp(LocalBackend(org))
    with StudyService.open(study) as service:
        coordinator = next(p for p in service.profiles() if p.mode == "coordinator")
        async with app.run_test(size=(120, 40)) as pilot:
            await idle(pilot)
            started = time.perf_counter()
            app.push_screen(ResultsScreen(service, coordinator))
            await asyncio.wait_for(shown.wait(), timeout=600)
            await idle(pilot)
            total = time.perf_counter() - started
    ResultsScreen._show_report = original
    return total, on_loop


async def time_queries(org: Path) -> list[tuple[str, int, float]]:
    out = []
    app = CrmApp(LocalBackend(org))
    async with app.run_test(size=(120, 40)) as pilot:
        await idle(pilot)
        app.push_screen(SoqlConsole())
        await idle(pilot)
        box = app.screen.query_one(HistoryInput)
        for query in QUERIES:
            box.value = query
            started = time.perf_counter()
            await pilot.press("enter")
            await idle(pilot)
            rows = app.screen.query_one("#soql-records").row_count
            out.append((query, rows, time.perf_counter() - started))
    return out


def main(argv: list[str] | None = None) -> None:
    smoke = smoke_only(__doc__, argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        os.environ["CRM_TUI_HOME"] = name  # the console's history stays out of the user's folder
        org = folder / "org.sqlite"
        generate(org, seed=1, scale=SMOKE_SCALE if smoke else 1)
        study = build_study(folder, smoke)
        total, on_loop = asyncio.run(time_results(org, study))
        queries = asyncio.run(time_queries(org))
    print("| step | time |\n|---|---:|")
    print(f"| results screen, full CRMArena study: open to shown | {total:.2f} s |")
    print(f"| of which on the UI loop (mounting tables and chart) | {on_loop * 1000:.0f} ms |")
    for query, rows, seconds in queries:
        print(f"| SOQL console, Enter to {rows:,} rows: `{query}` | {seconds * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
