"""`crm-tui audit ...` and `crm-tui tasks export`: decide, version, compare, release (JSON,
JSONL, a Hugging Face dataset, its card), import back identical, push without network."""

from __future__ import annotations

import json
import socket

import pytest

from crm_tui.cli import main
from crm_tui.study.work.clock import FakeClock
from crm_tui.tasks.taskset import load_taskset
from tests.helpers.audit_study import OTHER_ID, make_audit_study
from tests.helpers.cli import fails, snapshot

SECRET = "hf_secretTOKENvalue0123456789"


@pytest.fixture
def study(tmp_path):
    path = tmp_path / "study.sqlite"
    make_audit_study(path, FakeClock())
    return path


def run(capsys, *argv) -> str:
    try:
        main([str(a) for a in argv])
    except SystemExit as done:
        assert done.code in (0, None), capsys.readouterr().err
    return capsys.readouterr().out


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_audit_export_and_import_back(study, tmp_path, capsys, monkeypatch):
    db = ("--db", study)
    queue = run(capsys, "audit", "queue", "--as", "Cora", *db)
    assert "3 people agree" in queue and "1 flag" in queue and "(3 queries)" in queue
    said = run(
        capsys,
        "audit",
        "decide",
        0,
        "correct",
        "--gold",
        OTHER_ID,
        "--category",
        "wrong_gold",
        "--note",
        "three agree",
        "--as",
        "Cora",
        *db,
    )
    assert said.strip() == f"query 0: correct to {OTHER_ID!r} (wrong_gold) by Cora"
    run(capsys, "audit", "decide", 2, "drop", "--category", "ambiguous_query", "--as", "Ari", *db)
    assert "1 corrected, 1 dropped, 0 kept" in run(capsys, "audit", "version", "--as", "Cora", *db)
    compared = run(capsys, "audit", "compare", *db)
    assert "Original vs corrected gold (version 1" in compared and "50.0 → 100.0" in compared
    results = run(capsys, "results", "--format", "md", *db)
    assert "Original vs corrected gold" in results

    out = tmp_path / "release"
    said = run(capsys, "tasks", "export", "--db", study, "--out", out)
    assert "version 1 of study 'audit': 4 queries, 2 decisions" in said
    assert {"tasks.json", "tasks.jsonl", "dataset", "README.md", "changes.json"} <= {
        p.name for p in out.iterdir()
    }
    card = (out / "README.md").read_text()
    header = card.split("---")[1]
    for key in (
        "license: cc-by-nc-4.0",
        "size_categories:",
        "- n<1K",
        "task_categories:",
        "dataset_info:",
        "- name: crm_tui",
    ):
        assert key in header
    assert "| 0 | case_routing | correct | wrong_gold |" in card and "| 2 |" in card
    log = json.loads((out / "changes.json").read_text())
    assert [c["idx"] for c in log["changes"]] == [0, 2]

    exported = load_taskset(out / "tasks.json")
    assert load_taskset(out / "tasks.jsonl").content_hash == exported.content_hash
    for source in (out, out / "dataset", out / "tasks.json"):
        back = tmp_path / f"back-{source.name}.json"
        assert "4 valid instances" in run(capsys, "tasks", "import", source, "--out", back)
        assert back.read_bytes() == (out / "tasks.json").read_bytes()

    # Over the folder without --force: one line, nothing changed.
    before = snapshot(out)
    assert "exists; add --force" in fails(capsys, "tasks", "export", "--db", study, "--out", out)
    assert snapshot(out) == before

    # A push without the network: one line; the token nowhere.
    monkeypatch.setenv("HF_TOKEN", SECRET)
    line = fails(
        capsys,
        "tasks",
        "export",
        "--db",
        study,
        "--out",
        out,
        "--force",
        "--repo",
        "me/audited",
        "--endpoint",
        f"http://127.0.0.1:{closed_port()}",
    )
    assert (
        line.startswith("error: could not reach the Hugging Face Hub") or "could not reach" in line
    )
    assert SECRET not in line
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes()


def test_bad_audit_input_is_one_line(study, tmp_path, capsys):
    db = ("--db", study)
    assert "is not a month name" in fails(
        capsys,
        "audit",
        "decide",
        1,
        "correct",
        "--gold",
        "005Ws000001xadBIAQ",
        "--category",
        "wrong_gold",
        "--as",
        "Cora",
        *db,
    )
    assert "is not study 'audit'" in fails(
        capsys,
        "audit",
        "decide",
        0,
        "keep",
        "--category",
        "other",
        "--task-set",
        "ab" * 32,
        "--as",
        "Cora",
        *db,
    )
    assert "annotator" in fails(
        capsys, "audit", "decide", 0, "keep", "--category", "other", "--as", "Ana", *db
    )
    assert "no audited version" in fails(
        capsys, "tasks", "export", "--db", study, "--out", tmp_path / "x"
    )
    assert not (tmp_path / "x").exists()
    assert "needs a Hub token" in fails(
        capsys, "tasks", "export", "--db", study, "--out", tmp_path / "y", "--repo", "me/x"
    )


def test_a_realism_study_releases_its_ratings_and_agreement(tmp_path, capsys):
    from crm_tui.study.store.db import StudyStore
    from crm_tui.study.work.protocol import load_preset
    from crm_tui.study.work.studies import create_study, with_overrides
    from tests.helpers.audit_study import audit_taskset

    clock = FakeClock()
    path = tmp_path / "realism.sqlite"
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(preset, items=2, distinct_families=False)
    taskset = audit_taskset()
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "realism",
            preset,
            preset_path=preset_path,
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint="crmarena",
        )
    from crm_tui.study.service import StudyService

    with StudyService.open(path, clock=clock) as service:
        for name, levels in (("Ana", (4, 5, 3)), ("Ben", (4, 4, 2)), ("Cleo", (5, 4, 3))):
            person = service.create_profile(name, "Service Agent", 3)
            for target, level in zip(("org", "Case", "Account"), levels):
                service.rate_realism(person.id, target, level)
    out = tmp_path / "ratings"
    said = run(capsys, "audit", "export-ratings", "--db", path, "--out", out)
    assert "wrote" in said and "9 ratings" in said
    rows = json.loads((out / "ratings.json").read_text())
    assert {r["rater"] for r in rows} == {"R1", "R2", "R3"}
    assert not any("Ana" in json.dumps(r) for r in rows)
    agreement = json.loads((out / "agreement.json").read_text())
    assert agreement["raters"] == 3 and agreement["alpha"] is not None
    card = (out / "README.md").read_text()
    assert card.startswith("---\nlicense: cc-by-4.0") and "Krippendorff's alpha" in card
    from datasets import load_from_disk

    assert load_from_disk(str(out / "dataset"))["test"].num_rows == 9
    assert "exists; add --force" in fails(
        capsys, "audit", "export-ratings", "--db", path, "--out", out
    )


def test_results_carry_original_and_corrected_gold_in_every_format(study, capsys):
    db = ("--db", study)
    correct = ("--gold", OTHER_ID, "--category", "wrong_gold", "--as", "Cora", *db)
    run(capsys, "audit", "decide", 0, "correct", *correct)
    run(capsys, "audit", "decide", 2, "drop", "--category", "ambiguous_query", "--as", "Ari", *db)
    before = json.loads(run(capsys, "results", "--format", "json", *db))
    assert before["gold"] is None  # decisions alone make no version
    run(capsys, "audit", "version", "--as", "Cora", *db)

    report = json.loads(run(capsys, "results", "--format", "json", *db))
    gold = report["gold"]
    assert gold["version"] == 1 and len(gold["content_hash"]) == len(gold["parent_hash"])
    rows = {row["family"]: row for row in gold["rows"]}
    assert rows["NCR"]["humans"] == [0.5, 1.0] and rows["NCR"]["corrected"] == 1
    assert rows["BRI"]["dropped"] == 1 and rows["BRI"]["humans"][1] is None

    lines = run(capsys, "results", "--format", "csv", *db).splitlines()
    assert "gold_comparison,,,version,1" in lines
    assert "gold_comparison,NCR,humans,success_original,0.5" in lines
    assert "gold_comparison,NCR,humans,success_corrected,1.0" in lines
    assert "gold_comparison,BRI,,dropped,1" in lines

    for output in ("md", "table"):
        shown = run(capsys, "results", "--format", output, *db)
        assert "Original vs corrected gold (version 1" in shown and "50.0 → 100.0" in shown
