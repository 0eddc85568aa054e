"""Helpers of the results-screen and SOQL-console tests: the study they read (its numbers
are worked out in conftest.py) and Pilot helpers."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from crm_tui.study.service import Profile, StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, with_overrides
from crm_tui.tasks.taskset import CRMARENA
from crm_tui.tui.study.results import ResultsScreen
from tests.helpers.paths import AGENTS
from tests.helpers.pilot import settle

AGENT_FILES = [AGENTS / f"trial{n}" / "results_gpt-4o_react_all.json" for n in (1, 2, 3)] + [
    AGENTS / "results_claude-3.5-sonnet_tool_call_case_routing.json"
]

WRONG_ID = "005Ws000009zzzzIAA"
ITEMS = (390, 391, 651)
ANSWERS = {  # annotator -> (idx -> answer, seconds of active time per item)
    "Ana": ({390: "005Ws000001xadBIAQ", 391: "005Ws000001xZvdIAE", 651: "005Ws000001xa6vIAA"}, 60),
    "Ben": ({390: "005Ws000001xadBIAQ", 391: WRONG_ID, 651: "005Ws000001xa6vIAA"}, 120),
}
RATINGS = {"org": {"Ana": 4, "Ben": 3}, "Case": {"Ana": 5, "Ben": 2}}


def new_study(path: Path, clock: FakeClock, taskset, org_fingerprint: str = CRMARENA):
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(
        preset, items=len(ITEMS), distinct_families=False, annotators_per_item=len(ANSWERS)
    )
    with StudyStore.open(path, clock=clock) as store:
        create_study(
            store,
            "pilot",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in taskset.instances if i.idx in ITEMS],
            task_set_hash=taskset.content_hash,
            org_fingerprint=org_fingerprint,
        )


def coordinator(service: StudyService) -> Profile:
    """The study file's coordinator profile (only a coordinator sees results)."""
    return next(p for p in service.profiles() if p.mode == "coordinator")


async def open_results(pilot, service: StudyService, profile: Profile | None) -> ResultsScreen:
    """Push the results screen for `profile` and wait until its report is shown."""
    await settle(pilot)
    pilot.app.push_screen(ResultsScreen(service, profile))
    await settle(pilot)
    return pilot.app.screen


def cells(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def column_labels(table: DataTable) -> list[str]:
    """Each column's label as read (a label wrapped onto two header lines is one label)."""
    return [str(column.label).replace("\n", " ") for column in table.columns.values()]
