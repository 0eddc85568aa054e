"""`crm-tui study export` and `crm-tui study merge` through click's runner and `main`."""

from __future__ import annotations

import json
import shutil
import stat

from click.testing import CliRunner

from crm_tui.cli.main import cli
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, find_study, solve_only_preset, with_overrides
from tests.helpers.cli import fails, snapshot
from tests.helpers.routing_items import ORG, instances


def new_study(path, task_set_hash="sha256:cli") -> None:
    with StudyStore.open(path, FakeClock()) as store:
        create_study(
            store,
            "pilot",
            with_overrides(solve_only_preset(2), annotators_per_item=2),
            instances=instances(),
            task_set_hash=task_set_hash,
            org_fingerprint=ORG,
        )


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_export_on_a_laptop_then_merge_twice(tmp_path):
    coordinator, laptop = tmp_path / "study.sqlite", tmp_path / "laptop.sqlite"
    new_study(coordinator)
    shutil.copy(coordinator, laptop)  # the annotator's copy of the study
    clock = FakeClock()
    with StudyStore.open(laptop, clock) as store:
        study_id = row_id(find_study(store, "pilot"))
        dana = create_profile(store, "Dana", "Customer Service Associate", 6)
        view = attempts.open_next(store, study_id, row_id(dana))
        assert view is not None
        clock.advance(45)
        attempts.submit(store, view.attempt_id, "None", confidence=3)
        attempts.open_next(store, study_id, row_id(dana))

    out = tmp_path / "out" / "dana.json"
    code, text = run("study", "export", "--profile", "Dana", "--out", out, "--db", laptop)
    assert code == 0, text
    assert text.strip() == (
        f"exported Dana's work in study 'pilot' to {out}: 2 attempt(s), 3 event(s), "
        "0 rating(s), 0 flag(s)"
    )
    assert stat.S_IMODE(out.stat().st_mode) == 0o600

    code, text = run("study", "merge", out, "--db", coordinator)
    assert code == 0, text
    assert text.strip() == (
        "merged 1 file(s) into study 'pilot': added 1 profile(s), 2 attempt(s), "
        "3 event(s), 0 rating(s), 0 flag(s)"
    )
    code, text = run("study", "merge", out, "--db", coordinator, "--study", "pilot")
    assert code == 0, text
    assert text.strip() == "merged 1 file(s) into study 'pilot': nothing new"

    code, text = run("study", "status", "--db", coordinator)
    assert "Dana" in text and "1 submitted" in text and "1 in_progress" in text


def test_refusals_are_one_line_and_change_nothing(tmp_path, capsys):
    coordinator, other = tmp_path / "study.sqlite", tmp_path / "other.sqlite"
    new_study(coordinator)
    new_study(other, task_set_hash="sha256:another")
    with StudyStore.open(other) as store:
        study_id = row_id(find_study(store, "pilot"))
        ana = create_profile(store, "Ana", "Customer Service Agent", 2)
        attempts.open_next(store, study_id, row_id(ana))
    work = tmp_path / "ana.json"
    assert run("study", "export", "--profile", "Ana", "--out", work, "--db", other)[0] == 0
    capsys.readouterr()
    before = snapshot(tmp_path)

    line = fails(capsys, "study", "merge", work, "--db", coordinator)
    assert line == (
        f"crm-tui: {work}: is of task set 'sha256:another', not 'sha256:cli' (study 'pilot'); "
        "nothing was merged"
    )
    data = json.loads(work.read_text())
    data["records"]["attempts"][0].pop("started_at")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    before[bad.name] = bad.read_bytes()
    line = fails(capsys, "study", "merge", bad, "--db", coordinator)
    assert line == f"crm-tui: {bad}: records.attempts.0.started_at: Field required"
    line = fails(capsys, "study", "export", "--profile", "Ana", "--out", work, "--db", other)
    assert line == f"crm-tui: {work} already exists (use --force to replace it)"
    line = fails(capsys, "study", "merge", tmp_path / "none.json", "--db", coordinator)
    assert "none.json" in line
    assert snapshot(tmp_path) == before
