"""`crm-tui study create --preset human-baseline` out of the box, then the coordinator's
quality commands and `crm-tui results --format json` with the quality section."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.quality import Stage
from crm_tui.tasks.taskset import imported, load_taskset, sealed, write_taskset
from tests.helpers.paths import CRMARENA_TASKS


@pytest.fixture
def org_and_tasks(tmp_path):
    org_path = tmp_path / "org.sqlite"
    with OrgStore.create(org_path) as org:
        org.finish()
        fingerprint = org.fingerprint
    tasks_path = tmp_path / "tasks.json"
    write_taskset(sealed(imported(load_taskset(CRMARENA_TASKS)).instances, fingerprint), tasks_path)
    return org_path, tasks_path


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_the_human_baseline_preset_works_out_of_the_box(tmp_path, org_and_tasks):
    org_path, tasks_path = org_and_tasks
    db = tmp_path / "study.sqlite"
    code, out = run(
        "study", "create", "baseline", "--preset", "human-baseline",
        "--org", org_path, "--tasks", tasks_path, "--db", db,
    )  # fmt: skip
    assert code == 0, out
    with StudyStore.open(db) as store:
        create_profile(store, "Ana", "Customer Service Agent", 3)
    with StudyService.open(db) as service:
        ana = next(p.id for p in service.profiles() if p.name == "Ana")
        assert service.standing(ana).stage == Stage.CONSENT
        service.give_consent(ana, True)
        for _ in range(10):  # a failed qualification: both tries of five
            view = service.open_next(ana)
            assert view is not None
            service.submit_answer(view.attempt_id, "no idea")
        assert service.standing(ana).stage == Stage.FAILED
    code, out = run("study", "quality", "--format", "json", "--db", db)
    assert code == 0, out
    person = json.loads(out)["people"][0]
    assert (person["name"], person["qualification"], person["consent"]) == (
        "Ana",
        "failed",
        "agreed",
    )
    code, out = run("study", "allow-retry", "Ana", "--db", db)
    assert code == 0 and "3 times" in out, out
    code, out = run("study", "exclude", "Ana", "--reason", "test run", "--db", db)
    assert code == 0, out
    code, out = run("study", "codes", "--db", db)
    assert out.splitlines() == ["name,completion_code"]
    code, out = run("results", "--format", "json", "--resamples", 100, "--db", db)
    assert code == 0
    quality = json.loads(out)["quality"]
    assert quality["excluded_people"] == 1 and quality["people"][0]["excluded"] == "test run"
    assert quality["check_items"] == 20 and quality["practice_items"] == 15
    code, out = run("results", "--format", "csv", "--resamples", 100, "--db", db)
    rows = set(out.splitlines())
    assert {"quality,,Ana,excluded,test run", "quality,,Ana,consent,agreed"} <= rows
    assert "quality,,baseline,excluded_people,1" in rows
    code, out = run("study", "quality", "--db", db)
    assert "Quality control per person" in out and "Ana" in out
