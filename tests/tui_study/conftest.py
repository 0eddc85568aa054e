"""Fixtures of the study-screen tests: a paper-preset study on the small generated org,
crafted from real records of that org, and the app on it with a FakeClock."""

from __future__ import annotations

import pytest

from crm_tui.bench.families import get_family
from crm_tui.org.local_backend import LocalBackend
from crm_tui.org.store import OrgStore
from crm_tui.study.clock import FakeClock
from crm_tui.study.db import StudyStore
from crm_tui.study.profiles import create_profile
from crm_tui.study.protocol import load_preset
from crm_tui.study.studies import create_study
from crm_tui.tui.study.app import StudyApp

# Five families whose answer is a record Id, so either answer can come from the browser.
FAMILIES = ("case_routing", "named_entity_disambiguation", "policy_violation_identification",
            "top_issue_identification", "handle_time")


def crafted_instances(org: OrgStore) -> list[dict]:
    """One instance per family; gold = the second record of the family's answer object,
    a wrong answer of the same object = the first (the test reads both)."""
    rows = []
    for idx, task in enumerate(FAMILIES):
        family = get_family(task)
        gold = org.rows(family.answer_object, "1 ORDER BY Id LIMIT 2")[1]["Id"]
        rows.append({
            "idx": idx, "task": task, "answer": gold, "reward_metric": family.metric,
            "query": f"Crafted {family.abbrev} query {idx}: which "
                     f"{family.answer_object} is it? {family.suffix}",
            "metadata": {"required": f"- Today's date: 2023-0{idx + 1}-15",
                         "optional": "## Domain details\nPolicies apply as written."},
            "crm_tui": {"persona": family.persona, "answer_type": family.answer_type,
                        "answer_object": family.answer_object, "org": org.fingerprint},
        })
    return rows


def first_two_ids(org_path, object_name: str) -> list[str]:
    with OrgStore.open(org_path) as org:
        return [r["Id"] for r in org.rows(object_name, "1 ORDER BY Id LIMIT 2")]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def study_path(tmp_path, small_org_path, clock):
    """A study file holding the paper preset on crafted instances of the small org."""
    path = tmp_path / "study.sqlite"
    preset, preset_path = load_preset("paper-expert-study")
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, clock) as store:
        create_study(store, "pilot", preset, instances=crafted_instances(org),
                     task_set_hash="sha256:crafted", org_fingerprint=org.fingerprint,
                     preset_path=preset_path)
    return path


@pytest.fixture
def make_app(small_org_path, study_path, clock):
    def make() -> StudyApp:
        return StudyApp(LocalBackend(small_org_path), study_path=study_path, study_clock=clock)
    return make


@pytest.fixture
def dana(study_path, clock) -> None:
    """One annotator profile, Dana, to pick on the first screen."""
    with StudyStore.open(study_path, clock) as store:
        create_profile(store, "Dana", "Customer Service Associate", 6)


@pytest.fixture(autouse=True)
def _steady_screens(monkeypatch):
    """No animations or blinking cursors: snapshots and timings stay the same."""
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
