"""Task family definitions: the nine bundled files load; a bad file is named with its key."""

from __future__ import annotations

import shutil

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.paths import bundled_dir
from crm_tui.tasks.families import domain_details, families, load_families


def test_nine_families_in_crmarenas_block_order():
    loaded = families()
    assert list(loaded) == [
        "knowledge_qa",
        "monthly_trend_analysis",
        "top_issue_identification",
        "case_routing",
        "named_entity_disambiguation",
        "handle_time",
        "transfer_count",
        "policy_violation_identification",
        "best_region_identification",
    ]
    assert {f.abbrev for f in loaded.values()} == {
        "KQA",
        "MTA",
        "TII",
        "NCR",
        "NED",
        "HTU",
        "TCU",
        "PVI",
        "BRI",
    }
    fp = {name for name, f in loaded.items() if f.false_presupposition}
    assert fp == {
        "handle_time",
        "transfer_count",
        "top_issue_identification",
        "named_entity_disambiguation",
        "policy_violation_identification",
    }
    assert all(len(f.templates) >= 3 for name, f in loaded.items() if name != "knowledge_qa")
    assert "Winter YEAR" in domain_details() and "added together" in domain_details()


def test_a_bad_family_file_is_named_with_its_key(tmp_path):
    folder = tmp_path / "tasks"
    shutil.copytree(bundled_dir("tasks"), folder)
    path = folder / "handle_time.toml"
    path.write_text(path.read_text().replace('metric = "exact_match"', 'metric = "bleu"'))
    with pytest.raises(CrmTuiError, match=r"handle_time\.toml: key 'metric'"):
        load_families(folder)
