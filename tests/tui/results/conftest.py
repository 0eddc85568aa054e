"""Fixtures of the results-screen and SOQL-console tests: a study on CRMArena's own
instances answered by two people and three imported agent runs, with a coordinator
profile to see it; the study service on it; and the record browser on the small org.

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

from crm_tui.study.results.agent_files import read_agent_results
from crm_tui.study.results.agent_runs import import_agent_results
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.ratings import flag_item, rate_realism
from crm_tui.study.work.studies import list_studies
from crm_tui.tasks.taskset import load_taskset
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.browser_app import CrmApp
from tests.helpers.paths import CRMARENA_TASKS
from tests.helpers.results_study import (
    AGENT_FILES,
    ANSWERS,
    RATINGS,
    coordinator,
    new_study,
)


@pytest.fixture(scope="session")
def results_study(tmp_path_factory) -> Path:
    taskset = load_taskset(CRMARENA_TASKS)
    path = tmp_path_factory.mktemp("results") / "study.sqlite"
    clock = FakeClock()
    new_study(path, clock, taskset)
    with StudyStore.open(path, clock=clock) as store:
        (study,) = list_studies(store)
        for name, (answers, seconds) in ANSWERS.items():
            person = create_profile(store, name, "Customer Service Agent", 3)
            while (view := open_next(store, row_id(study), row_id(person))) is not None:
                clock.advance(seconds=seconds)
                submit(store, view.attempt_id, answers[view.item.idx])
                if name == "Ben" and view.item.idx == 391:
                    flag_item(store, row_id(study), row_id(person), view.item.item_id, "wrong_gold")
            for target, levels in RATINGS.items():
                rate_realism(store, row_id(study), row_id(person), target, levels[name])
        import_agent_results(store, [read_agent_results(p) for p in AGENT_FILES], taskset)
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")  # answers nothing
    return path


@pytest.fixture(scope="session")
def empty_study(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("empty") / "study.sqlite"
    new_study(path, FakeClock(), load_taskset(CRMARENA_TASKS))
    with StudyStore.open(path) as store:
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
    return path


@pytest.fixture
def results(results_study):
    """The study service on the results study, and its coordinator."""
    with StudyService.open(results_study) as service:
        yield service, coordinator(service)


@pytest.fixture
def make_app(small_org_path):
    """The record browser on the small org (a results screen is pushed onto it)."""

    def make() -> CrmApp:
        return create_app(Launch(org_path=small_org_path))

    return make
