"""Task-set files: CRMArena import (paper-era and Hugging Face forms), validation, pinning, CLI."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from crm_tui.cli import main
from crm_tui.errors import CrmTuiError
from crm_tui.tasks.families import families
from crm_tui.tasks.taskset import (
    CRMARENA,
    check_taskset_matches,
    imported,
    load_taskset,
    write_taskset,
)
from tests.helpers.paths import CRMARENA_TASKS as CRMARENA_FILE
from tests.helpers.task_org import OrgBuilder, random_org


@pytest.fixture(scope="module")
def paper_rows():
    return json.loads(CRMARENA_FILE.read_text(encoding="utf-8"))


def _hf_rows(rows):
    return [{("task" if k == "type" else k): v for k, v in row.items()} for row in rows]


def test_crmarena_paper_file_imports_whole(paper_rows):
    taskset = load_taskset(CRMARENA_FILE)
    assert len(taskset) == 1170
    assert Counter(i.task for i in taskset.instances) == {name: 130 for name in families()}
    assert sum(i.answer is None for i in taskset.instances) == 195
    assert taskset.fingerprint == CRMARENA
    routing = next(i for i in taskset.instances if i.idx == 390)
    assert (routing.task, routing.persona, routing.answer_type) == (
        "case_routing",
        "service_manager",
        "record_id",
    )


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_hugging_face_form_imports_the_same(paper_rows, tmp_path, suffix):
    path = tmp_path / f"hf{suffix}"
    rows = _hf_rows(paper_rows)
    text = "\n".join(map(json.dumps, rows)) if suffix == ".jsonl" else json.dumps(rows)
    path.write_text(text, encoding="utf-8")
    paper, hf = load_taskset(CRMARENA_FILE), load_taskset(path)
    assert [i.to_row() for i in hf.instances] == [i.to_row() for i in paper.instances]


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("answer", 5, "non-empty string or null"),
        ("answer", [""], "non-blank strings, or be \\[null\\]"),
        ("reward_metric", "fuzzy_match", "exact_match"),
        ("type", "sales_forecast", "not one of CRMArena's nine tasks"),
        ("metadata", {"required": "x"}, "metadata.optional"),
    ],
)
def test_one_broken_row_rejects_the_file_naming_row_and_field(
    paper_rows, tmp_path, field, value, message
):
    rows = [dict(row) for row in paper_rows]
    rows[517][field] = value
    path, out = tmp_path / "broken.json", tmp_path / "out.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(CrmTuiError, match=message) as caught:
        load_taskset(path)
    assert "row 517" in str(caught.value) and str(path) in str(caught.value)
    with pytest.raises(SystemExit):
        main(["tasks", "import", str(path), "--out", str(out)])
    assert not out.exists()


def test_null_answer_only_where_the_family_has_false_presuppositions(paper_rows, tmp_path):
    rows = [dict(row) for row in paper_rows]
    rows[3]["answer"] = None  # knowledge_qa
    path = tmp_path / "kqa.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(CrmTuiError, match="row 3: field 'answer'"):
        load_taskset(path)


def test_repeated_idx_and_bad_json_line_are_named(paper_rows, tmp_path):
    rows = [dict(row) for row in paper_rows[:3]]
    rows[2]["idx"] = 0
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(CrmTuiError, match="row 2: field 'idx': 0 repeats row 0"):
        load_taskset(path)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(paper_rows[0]) + "\n{oops\n", encoding="utf-8")
    with pytest.raises(CrmTuiError, match="line 2"):
        load_taskset(path)


def test_imported_set_round_trips_and_is_refused_on_a_local_org(tmp_path):
    out = tmp_path / "crmarena.json"
    write_taskset(imported(load_taskset(CRMARENA_FILE)), out)
    again = load_taskset(out)
    assert again.fingerprint == CRMARENA and len(again) == 1170
    assert again.instances[0].extra["persona"] == "service_agent"
    store = OrgBuilder(tmp_path / "org.sqlite").finish()
    with pytest.raises(CrmTuiError, match="CRMArena's own task set"):
        check_taskset_matches(again, store)


def test_an_edited_set_fails_its_content_hash(tmp_path):
    out = tmp_path / "crmarena.json"
    write_taskset(imported(load_taskset(CRMARENA_FILE)), out)
    rows = json.loads(out.read_text(encoding="utf-8"))
    rows[10]["answer"] = "April"
    out.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(CrmTuiError, match="content hash"):
        load_taskset(out)


def test_cli_generate_import_and_stats(tmp_path, capsys):
    org_path = tmp_path / "org.sqlite"
    random_org(org_path).close()
    out = tmp_path / "set.jsonl"
    main(
        [
            "tasks",
            "generate",
            "--org",
            str(org_path),
            "--per-task",
            "10",
            "--seed",
            "2",
            "--out",
            str(out),
        ]
    )
    assert len(out.read_text(encoding="utf-8").splitlines()) == 90
    main(["tasks", "stats", str(out)])
    printed = capsys.readouterr().out
    assert "handle_time" in printed and "90" in printed
    main(["tasks", "import", str(CRMARENA_FILE)])
    assert "1,170 valid instances in 9 families" in capsys.readouterr().out
