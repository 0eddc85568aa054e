"""The scorer: exact-match rules (docs: tasks.md, scoring), token F1, ALL and pass^k against hand values."""

from __future__ import annotations

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.ids import to18
from crm_tui.tasks.scoring import (
    NO_SUBMISSION,
    all_score,
    is_submission,
    pass_hat_k,
    score,
    token_f1,
)
from crm_tui.tasks.taskset import load_taskset
from tests.helpers.paths import CRMARENA_TASKS as CRMARENA_FILE

ID18 = "005Ws000001xSR9IAM"


@pytest.mark.parametrize("answer", ["", "  ", "None", "none", "null", "NULL", '"None"', "'null'"])
def test_every_form_of_the_none_answer_matches_a_null_gold(answer):
    assert score("handle_time", answer, None) == 1.0
    assert score("handle_time", answer, "None") == 1.0
    assert score("handle_time", answer, ID18) == 0.0


@pytest.mark.parametrize(
    "task, gold",
    [
        ("handle_time", None),
        ("handle_time", "None"),
        ("handle_time", ID18),
        ("monthly_trend_analysis", "March"),
        ("knowledge_qa", "90 days."),
        ("fuzzy_match", "None"),
    ],
)
def test_no_submission_is_never_an_answer_and_scores_0_whatever_the_gold(task, gold):
    # an agent that crashed or never submitted, a person who skipped or ran out of time
    assert NO_SUBMISSION is None and not is_submission(NO_SUBMISSION)
    assert score(task, NO_SUBMISSION, gold) == 0.0
    assert is_submission("None") and is_submission("")


def test_a_real_answer_never_matches_a_null_gold():
    assert score("transfer_count", ID18, None) == 0.0


def test_months_and_states_ignore_case_ids_do_not():
    assert score("monthly_trend_analysis", " 'march' ", "March") == 1.0
    assert score("monthly_trend_analysis", "Mar", "March") == 0.0
    assert score("best_region_identification", "ga", "GA") == 1.0
    assert score("best_region_identification", '"GA"\n', "GA") == 1.0
    assert score("handle_time", ID18.lower(), ID18) == 0.0
    assert score("handle_time", f"`{ID18}`", ID18) == 1.0


def test_a_15_character_id_equals_its_18_character_form():
    id15 = ID18[:15]
    assert to18(id15) == ID18
    assert score("case_routing", id15, ID18) == 1.0
    assert score("case_routing", ID18, id15) == 1.0
    assert score("case_routing", "005Ws000001xSR8", ID18) == 0.0


def test_token_f1_matches_hand_computed_values():
    # "90 days after issuance" vs "valid 90 days": overlap {90, days} = 2;
    # P = 2/3, R = 2/4, F1 = 2 * (2/3) * (1/2) / (2/3 + 1/2) = 4/7.
    assert token_f1("valid 90 days", "90 days after issuance") == pytest.approx(4 / 7)
    # normalisation: case, punctuation, articles and underscores do not count
    assert token_f1("The Advanced_sole, technology!", "advanced sole technology") == 1.0
    assert token_f1("waterproof", "advanced sole technology") == 0.0
    assert token_f1("None", "advanced sole technology") == 0.0
    assert score("knowledge_qa", "valid 90 days", "90 days after issuance") == pytest.approx(4 / 7)
    assert score("fuzzy_match", "x b", "b c") == pytest.approx(0.5)
    assert score("fuzzy_match", "a b", "b c") == pytest.approx(2 / 3)  # "a" is dropped


def test_token_f1_strips_the_punctuation_crmarenas_normaliser_strips_and_no_more():
    # CRMArena removes string.punctuation and ‘ ’ ´ `, not the double quotes “ ”:
    # “90 days.” -> tokens “90, days, ” against 90, days: P 1/3, R 1/2, F1 0.4
    assert token_f1("\u201c90 days.\u201d", "90 days.") == pytest.approx(0.4)
    assert token_f1("\u201890 days.\u2019", "90 days.") == 1.0
    assert token_f1('"90 days."', "90 days.") == 1.0
    # exact match still strips every quote, typographic ones included
    assert score("monthly_trend_analysis", "\u201cMarch\u201d", "March") == 1.0


def test_all_is_the_unweighted_mean_of_families():
    assert all_score({"handle_time": 1.0, "knowledge_qa": 0.5, "case_routing": 0.0}) == 0.5
    with pytest.raises(CrmTuiError):
        all_score({})


def test_pass_hat_k_matches_hand_computed_values():
    # task 1: 10 trials, 5 successes: k=1 -> 0.5, k=2 -> C(5,2)/C(10,2) = 10/45
    # task 2: 10 trials, 10 successes: 1 for every k
    assert pass_hat_k([(10, 5), (10, 10)], 1) == pytest.approx((0.5 + 1) / 2)
    assert pass_hat_k([(10, 5), (10, 10)], 2) == pytest.approx((10 / 45 + 1) / 2)
    assert pass_hat_k([(4, 3)], 4) == 0.0
    with pytest.raises(CrmTuiError):
        pass_hat_k([(3, 3)], 4)


def test_crmarena_gold_scores_full_marks_against_itself():
    taskset = load_taskset(CRMARENA_FILE)
    for task, instances in taskset.by_task().items():
        # a None gold is answered with the text "None"
        right = [score(task, "None" if i.answer is None else i.answer, i.answer) for i in instances]
        assert sum(right) == len(instances), task
