"""The report's single- vs multi-turn section: people and agents per family, in every
rendering; absent from a study without interactive items (test_report.py's files)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from crm_tui.study.results.render import (
    TURN_MODES_TITLE,
    report_tables,
    to_csv,
    to_json,
    to_markdown,
)
from crm_tui.study.results.summary import build_report
from crm_tui.study.results.turn_modes import TurnModeRow
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.conversations import single_vs_multi
from crm_tui.study.work.studies import list_studies
from tests.helpers.turn_modes_study import make_turn_modes_study


@pytest.fixture(scope="module")
def study_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("turns") / "study.sqlite"
    make_turn_modes_study(path)
    return path


@pytest.fixture(scope="module")
def report(study_file):
    with StudyStore.open(study_file) as store, store.transaction() as session:
        (study,) = list_studies(store)
        return build_report(session, study)


def test_people_and_the_interactive_agent_by_hand(report):
    assert report.turn_modes == [
        TurnModeRow("HTU", "humans", 2, 0.5, 2, 1.0, 2.5),
        TurnModeRow("HTU", "gpt-4o ReAct", 2, 1.0, 2, 0.5, 4.0),
    ]


def test_the_people_rows_agree_with_the_studys_own_comparison(study_file, report):
    with StudyStore.open(study_file) as store:
        (study,) = list_studies(store)
        (row,) = single_vs_multi(store, study.id)
    humans = report.turn_modes[0]
    assert (row.single_answers, row.single_accuracy, row.multi_answers) == (
        humans.single_answers,
        humans.single_accuracy,
        humans.multi_answers,
    )
    assert (row.multi_accuracy, row.mean_customer_turns) == (
        humans.multi_accuracy,
        humans.mean_customer_turns,
    )


def test_table_markdown_csv_and_json(report):
    (view,) = [v for v in report_tables(report) if v.title == TURN_MODES_TITLE]
    assert view.columns == ["Family", "Solver", "Single-turn %", "Multi-turn %", "Customer turns"]
    assert view.rows == [
        ["HTU", "humans", "50.0 (n=2)", "100.0 (n=2)", "2.5"],
        ["HTU", "gpt-4o ReAct", "100.0 (n=2)", "50.0 (n=2)", "4.0"],
    ]
    markdown = to_markdown(report)
    assert f"## {TURN_MODES_TITLE}" in markdown
    assert "| HTU | gpt-4o ReAct | 100.0 (n=2) | 50.0 (n=2) | 4.0 |" in markdown
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    turns = {(r["subject"], r["measure"]): r["value"] for r in rows if r["section"] == "turns"}
    assert turns[("humans", "multi_accuracy")] == "1.0"
    assert turns[("gpt-4o ReAct", "mean_customer_turns")] == "4.0"
    assert not any(subject.startswith("claude") for subject, _ in turns)
    data = json.loads(to_json(report))
    assert data["turn_modes"][0] == {
        "family": "HTU",
        "solver": "humans",
        "single_answers": 2,
        "single_accuracy": 0.5,
        "multi_answers": 2,
        "multi_accuracy": 1.0,
        "mean_customer_turns": 2.5,
    }


def test_people_rows_count_the_reports_baseline(tmp_path):
    """An excluded person's answers leave the people's rows as they leave the report."""
    from crm_tui.study.results.summary import ReportOptions
    from crm_tui.study.work.quality import exclude

    path = tmp_path / "study.sqlite"
    make_turn_modes_study(path)
    with StudyStore.open(path) as store:
        (study,) = list_studies(store)
        exclude(store, study.id, "Ben", "answered before reading")
        with store.transaction() as session:
            without = build_report(session, study)
            kept = build_report(session, study, ReportOptions(with_excluded=True))
    # Ana alone: item 0 single-turn, right; item 1 in conversation, right, 3 customer turns
    assert without.turn_modes[0] == TurnModeRow("HTU", "humans", 1, 1.0, 1, 1.0, 3.0)
    assert kept.turn_modes[0] == TurnModeRow("HTU", "humans", 2, 0.5, 2, 1.0, 2.5)
