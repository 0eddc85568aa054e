"""Fixtures of the results-screen and SOQL-console tests: a study on CRMArena's own
instances answered by two people and three imported agent runs, and apps on the small org.

Hand-computed numbers for this study (used by the tests):
- NCR (390, 391): Ana right twice, Ben right once -> 3/4 = 75.0 %, Wilson 30.1-95.4;
  active times 60, 60, 120, 120 s -> median 90. HTU (651): both right -> 100.0 %.
  ALL = (75 + 100) / 2 = 87.5.
- gpt-4o ReAct, 3 trials (tests/data/agents/README.md): NCR 1,1 | 1,0 | 1,1 -> 83.3;
  HTU 651: no answer, right, right -> 66.7; ALL 75.0. Claude (function calling): NCR
  390 wrong, 391 right -> 50.0; no HTU answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from crm_tui.bench.taskset import CRMARENA, load_taskset
from crm_tui.org.local_backend import LocalBackend
from crm_tui.study.agent_results import read_agent_results
from crm_tui.study.agents_store import import_agent_results
from crm_tui.study.attempts import open_next, submit
from crm_tui.study.clock import FakeClock
from crm_tui.study.db import StudyStore
from crm_tui.study.profiles import create_profile
from crm_tui.study.protocol import load_preset
from crm_tui.study.ratings import flag_item, rate_realism
from crm_tui.study.studies import create_study, with_overrides
from crm_tui.tui.app import CrmApp

TESTS = Path(__file__).resolve().parents[1]
CRMARENA_TASKS = TESTS.parents[1] / "shared" / "crmarena" / "tasks_natural.json"
AGENTS = TESTS / "data" / "agents"
AGENT_FILES = [AGENTS / f"trial{n}" / "results_gpt-4o_react_all.json" for n in (1, 2, 3)] + [
    AGENTS / "results_claude-3.5-sonnet_tool_call_case_routing.json"]

WRONG_ID = "005Ws000009zzzzIAA"
ITEMS = (390, 391, 651)
ANSWERS = {  # annotator -> (idx -> answer, seconds of active time per item)
    "Ana": ({390: "005Ws000001xadBIAQ", 391: "005Ws000001xZvdIAE",
             651: "005Ws000001xa6vIAA"}, 60),
    "Ben": ({390: "005Ws000001xadBIAQ", 391: WRONG_ID, 651: "005Ws000001xa6vIAA"}, 120),
}
RATINGS = {"org": {"Ana": 4, "Ben": 3}, "Case": {"Ana": 5, "Ben": 2}}


def new_study(path: Path, clock: FakeClock, taskset, org_fingerprint: str = CRMARENA):
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(preset, items=len(ITEMS), distinct_families=False,
                            annotators_per_item=len(ANSWERS))
    with StudyStore.open(path, clock=clock) as store:
        create_study(store, "pilot", preset, preset_path=preset_path,
                     instances=[i.to_row() for i in taskset.instances if i.idx in ITEMS],
                     task_set_hash=taskset.content_hash, org_fingerprint=org_fingerprint)


@pytest.fixture(scope="session")
def results_study(tmp_path_factory) -> Path:
    taskset = load_taskset(CRMARENA_TASKS)
    path = tmp_path_factory.mktemp("results") / "study.sqlite"
    clock = FakeClock()
    new_study(path, clock, taskset)
    with StudyStore.open(path, clock=clock) as store:
        from crm_tui.study.studies import list_studies
        (study,) = list_studies(store)
        for name, (answers, seconds) in ANSWERS.items():
            person = create_profile(store, name, "Customer Service Agent", 3)
            while (view := open_next(store, study.id, person.id)) is not None:
                clock.advance(seconds=seconds)
                submit(store, view.attempt_id, answers[view.item.idx])
                if name == "Ben" and view.item.idx == 391:
                    flag_item(store, study.id, person.id, view.item.item_id, "wrong_gold")
            for target, levels in RATINGS.items():
                rate_realism(store, study.id, person.id, target, levels[name])
        import_agent_results(store, [read_agent_results(p) for p in AGENT_FILES], taskset)
    return path


@pytest.fixture(scope="session")
def empty_study(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("empty") / "study.sqlite"
    new_study(path, FakeClock(), load_taskset(CRMARENA_TASKS))
    return path


@pytest.fixture(autouse=True)
def _steady_screens(monkeypatch, tmp_path):
    """No animations; the SOQL history goes to a fresh data folder, never the user's."""
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("CRM_TUI_HOME", str(tmp_path / "home"))


@pytest.fixture
def make_app(small_org_path):
    def make(study_path: Path | None = None) -> CrmApp:
        return CrmApp(LocalBackend(small_org_path), study_path=study_path)
    return make
