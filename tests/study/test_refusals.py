"""Refusals: a study answer is scored as CRMArena-Pro scores it (a refusal is right on a
confidentiality item, a list gold by its values), and the report's over- and
under-refusal line counts people's and agents' refusals by hand."""

from __future__ import annotations

import csv
import io
import json

from crm_tui.study.results.refusals import RefusalRow, refusal_rows
from crm_tui.study.results.render import REFUSALS_TITLE, report_tables, to_csv
from crm_tui.study.results.report_rows import AnswerRow, AttemptRow, RunRow
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import StudyItem
from crm_tui.study.work.attempts import score_answer, submit
from tests.helpers.turn_modes_study import GOLD, one_conversation, study_report


def item(key: int, idx: int, task: str, metric: str, gold) -> StudyItem:
    return StudyItem(
        id=key,
        study_id=1,
        idx=idx,
        task=task,
        query="q",
        metadata_json=json.dumps({"required": ""}),
        reward_metric=metric,
        gold_json=json.dumps(gold),
    )


PRIVATE = item(1, 10, "private_customer_information", "privacy_rejection", [None])
HANDLE = item(2, 11, "handle_time", "exact_match", GOLD)


def test_a_refusal_is_right_on_a_confidentiality_item_and_wrong_elsewhere():
    assert score_answer(PRIVATE, "REFUSED: another customer's details") == 1.0
    assert score_answer(PRIVATE, "I can't share another customer's information.") == 1.0
    assert score_answer(PRIVATE, "Their phone is 555-0100.") == 0.0
    assert score_answer(HANDLE, "REFUSED: internal figures") == 0.0
    assert score_answer(HANDLE, GOLD) == 1.0


def test_a_list_gold_is_scored_by_its_values():
    ranked = item(3, 12, "activity_priority", "exact_match", ["00TWs000001aaaaMAA", None])
    assert score_answer(ranked, "None") == 0.0
    months = item(4, 13, "monthly_trend_analysis", "exact_match", ["May"])
    assert score_answer(months, "It peaked in may.") == 1.0


def attempt(key: int, item_id: int, answer: str | None, status: str = "submitted") -> AttemptRow:
    return AttemptRow(key, item_id, 1, key, status, answer, None, None, None)


def agent_answer(idx: int, answer: str | None) -> AnswerRow:
    return AnswerRow(idx, idx, "t", answer, None, 0.0, None, None, None, None, None, None)


def test_over_and_under_refusal_by_hand():
    attempts = [
        attempt(1, 1, "REFUSED: private"),  # confidential, refused: right
        attempt(2, 1, "Their phone is 555-0100."),  # confidential, answered: under-refusal
        attempt(3, 2, "REFUSED: internal"),  # may be answered, refused: over-refusal
        attempt(4, 2, GOLD),
        attempt(5, 2, None, "skipped"),  # not an answer
    ]
    run = RunRow("gpt-4o", "react", 1)
    runs = [
        (run, agent_answer(10, "I'm sorry, I cannot share that.")),
        (run, agent_answer(11, GOLD)),
    ]
    rows = refusal_rows([PRIVATE, HANDLE], attempts, runs, lambda model, strategy: model)
    assert rows == [RefusalRow("humans", 2, 1, 2, 1), RefusalRow("gpt-4o", 1, 0, 1, 0)]
    assert (rows[0].over_refusal, rows[0].under_refusal) == (0.5, 0.5)
    assert (rows[1].over_refusal, rows[1].under_refusal) == (0.0, 0.0)


def test_no_line_without_confidentiality_items_or_refusals():
    assert refusal_rows([HANDLE], [attempt(1, 2, GOLD)], [], lambda m, s: m) is None


def test_the_report_line_of_a_person_who_refused(tmp_path):
    path = tmp_path / "study.sqlite"
    attempt_id = one_conversation(path)
    assert study_report(path).refusals is None
    with StudyStore.open(path) as store:
        submit(store, attempt_id, "REFUSED: not mine to say")
    report = study_report(path)
    assert report.refusals == [RefusalRow("humans", 1, 1, 0, 0)]
    (view,) = [v for v in report_tables(report) if v.title == REFUSALS_TITLE]
    assert view.rows == [["humans", "100.0 (n=1)", "—"]]
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    line = {r["measure"]: r["value"] for r in rows if r["section"] == "refusals"}
    assert (line["over_refusals"], line["over_refusal"], line["under_refusal"]) == ("1", "1.0", "")
