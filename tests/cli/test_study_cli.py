"""`crm-tui study create` and `crm-tui study status` through click's runner."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.errors import CrmTuiError
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.profiles import create_profile, list_profiles
from crm_tui.study.work.studies import find_study, list_studies, study_fits_org
from crm_tui.tasks.taskset import imported, load_taskset, sealed, write_taskset
from tests.helpers.paths import CRMARENA_TASKS


@pytest.fixture
def org_and_tasks(tmp_path):
    """An (empty) real org file and CRMArena instances re-pinned to it."""
    org_path = tmp_path / "org.sqlite"
    with OrgStore.create(org_path) as org:
        org.finish()
        fingerprint = org.fingerprint
    sample = imported(load_taskset(CRMARENA_TASKS)).instances[::26]
    tasks_path = tmp_path / "tasks.json"
    write_taskset(sealed(sample, fingerprint), tasks_path)
    return org_path, tasks_path


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_create_from_preset_then_status(tmp_path, org_and_tasks):
    org_path, tasks_path = org_and_tasks
    db = tmp_path / "study.sqlite"
    code, out = run(
        "study",
        "create",
        "pilot",
        "--preset",
        "paper-expert-study",
        "--org",
        org_path,
        "--tasks",
        tasks_path,
        "--db",
        db,
        "--seed",
        7,
    )
    assert code == 0, out
    assert "45 items, 5 per annotator, 1 annotator(s) per item, seed 7" in out

    with StudyStore.open(db) as store:
        study = find_study(store, "pilot")
        assert (study.preset, study.distinct_families, study.seed) == (
            "paper-expert-study",
            True,
            7,
        )
        assert study.org_fingerprint.startswith("local-")
        ann = create_profile(store, "Dana", "Customer Service Agent", 3)
        view = open_next(store, row_id(study), row_id(ann))
        assert view is not None
        submit(store, view.attempt_id, "None")

    code, out = run("study", "status", "--db", db)
    assert code == 0, out
    assert "pilot" in out and "1 submitted" in out and "45 items in 9 families" in out
    assert "Dana" in out and "1/5" in out and "0/17" in out


def test_create_from_options_and_bad_input(tmp_path, org_and_tasks):
    org_path, tasks_path = org_and_tasks
    db = tmp_path / "study.sqlite"
    code, out = run(
        "study",
        "create",
        "quick",
        "--items",
        3,
        "--annotators-per-item",
        2,
        "--time-limit",
        10,
        "--training",
        "--org",
        org_path,
        "--tasks",
        tasks_path,
        "--db",
        db,
    )
    assert code == 0, out
    with StudyStore.open(db) as store:
        study = find_study(store, "quick")
    assert (
        study.items_per_annotator,
        study.annotators_per_item,
        study.time_limit_s,
        study.training_feedback,
        study.preset,
    ) == (3, 2, 600, True, "custom")

    with pytest.raises(CrmTuiError, match="study options: annotators_per_item"):
        run(
            "study",
            "create",
            "bad",
            "--preset",
            "paper-expert-study",
            "--annotators-per-item",
            0,
            "--org",
            org_path,
            "--tasks",
            tasks_path,
            "--db",
            db,
        )
    with pytest.raises(CrmTuiError, match="'quick' already exists"):
        run("study", "create", "quick", "--org", org_path, "--tasks", tasks_path, "--db", db)
    with pytest.raises(CrmTuiError, match="is CRMArena's own task set"):
        run("study", "create", "paper", "--org", org_path, "--tasks", CRMARENA_TASKS, "--db", db)
    with pytest.raises(CrmTuiError, match="No study file"):
        run("study", "status", "--db", tmp_path / "missing.sqlite")
    with StudyStore.open(db) as store:
        assert [s.name for s in list_studies(store)] == ["quick"]  # failures wrote nothing


def test_crmarena_task_set_makes_a_study_for_crmarenas_org(tmp_path):
    db = tmp_path / "study.sqlite"
    code, out = run("study", "create", "audit", "--tasks", CRMARENA_TASKS, "--db", db)
    assert code == 0, out
    assert "1170 items" in out and "crm-tui --salesforce" in out
    with StudyStore.open(db) as store:
        study = find_study(store, "audit")
    assert study.org_fingerprint == "crmarena"
    # Solvable on a live Salesforce org, never on a local one.
    assert study_fits_org(study, "salesforce-00DWs000000abcdEAA@acme.my.salesforce.com")
    assert not study_fits_org(study, "local-131c6f46ea2c5ac5")


def test_profile_adds_an_auditor_and_refuses_bad_input(tmp_path):
    db = tmp_path / "study.sqlite"
    code, out = run(
        "study",
        "profile",
        "Rae",
        "--role",
        "QA Lead",
        "--years",
        7,
        "--mode",
        "auditor",
        "--db",
        db,
    )
    assert code == 0, out
    assert "added auditor profile 'Rae'" in out
    with StudyStore.open(db) as store:
        assert [(p.name, p.mode) for p in list_profiles(store)] == [("Rae", "auditor")]
    with pytest.raises(CrmTuiError, match="'Rae' is taken"):
        run("study", "profile", "Rae", "--role", "Agent", "--db", db)
    code, out = run("study", "profile", "Sam", "--role", "Agent", "--mode", "boss", "--db", db)
    assert code == 2 and "'boss' is not one of" in out
