"""The statistics section on hand-made outcomes: values worked out by hand, and the edge
cases (one annotator, no shared items, all right, all wrong) saying "not enough data"."""

from __future__ import annotations

import dataclasses
import json

import pytest

from crm_tui.study.results.analysis import (
    ALL,
    HUMANS,
    AgentRecord,
    HumanAnswer,
    Outcomes,
    analyse,
    by_family,
    rates_of,
)
from crm_tui.study.results.inference import BootstrapOptions

OPTIONS = BootstrapOptions(resamples=500, seed=1)
EXACT = frozenset({"NCR", "HTU"})


def outcomes(humans, agents, items=None, realism=None):
    return Outcomes(
        items=items or [(i, "NCR") for i in range(10)] + [(10 + i, "HTU") for i in range(4)],
        exact_match=EXACT,
        humans=humans,
        agents=agents,
        realism=realism or {},
    )


def answer(item, person, right, text=None):
    return HumanAnswer(item, person, float(right), text or ("gold" if right else "other"), 60_000)


def agent(item, trial, right, label="bot"):
    return AgentRecord(label, item, trial, float(right), turns=5)


def valid_json(statistics):
    text = json.dumps(dataclasses.asdict(statistics), allow_nan=False)  # raises on NaN
    return json.loads(text)


def test_paired_comparison_by_hand():
    # NCR: humans (majority of 2 of 3) solve items 0-7; the agent (2 of 3 trials) 0-2.
    # Discordant: humans right, agent wrong on 3..7 (5), agent right, humans wrong: none
    # -> exact McNemar p = 2 * 0.5^5 = 0.0625. HTU: both solve item 10 and 11, nobody 12;
    # item 13 the agent alone attempted: left out.
    humans = [answer(i, p, i < 8 or p == "c") for i in range(10) for p in "abc"]
    humans = [h for h in humans if not (h.item < 8 and h.person == "c" and h.item % 2)]
    humans += [answer(i, p, i < 12) for i in (10, 11, 12) for p in "ab"]
    agents = [agent(i, t, i < 3 and t < 2) for i in range(10) for t in range(3)]
    agents += [agent(i, t, i < 12) for i in (10, 11, 12, 13) for t in range(3)]
    statistics = analyse(outcomes(humans, agents), OPTIONS)
    rows = by_family(statistics.comparisons, "bot")
    ncr = rows["NCR"]
    # items 8 and 9: answers a, b wrong, c right -> 1 of 3, not a majority
    assert (ncr.shared_items, ncr.humans_solved, ncr.agent_solved) == (10, 0.8, 0.3)
    assert (ncr.humans_right_agent_wrong, ncr.agent_right_humans_wrong) == (5, 0)
    assert ncr.p_value == pytest.approx(0.0625)
    assert ncr.difference == pytest.approx(0.5)
    assert ncr.interval.low <= 0.5 <= ncr.interval.high
    htu = rows["HTU"]
    assert (htu.shared_items, htu.agent_only_items, htu.humans_only_items) == (3, 1, 0)
    assert htu.p_value is None and "not enough data" in htu.note
    # Holm over the families with a test: NCR alone -> unchanged
    assert ncr.p_holm == pytest.approx(0.0625)
    overall = rows[ALL]
    assert (overall.shared_items, overall.agent_only_items) == (13, 1)
    assert overall.difference == pytest.approx(5 / 13)
    valid_json(statistics)


def test_success_rates_and_pass_hat_k_by_hand():
    humans = [answer(i, p, i < 5) for i in range(10) for p in "ab"]  # NCR 50%
    humans += [answer(i, "a", True) for i in range(10, 14)]  # HTU 100%
    # the agent: NCR items 0-9 with 2 trials, right in both on 0-3, once on 4-5
    agents = [agent(i, t, i < 4 or (i < 6 and t == 0)) for i in range(10) for t in range(2)]
    statistics = analyse(outcomes(humans, agents), OPTIONS)
    humans_rates = rates_of(statistics, HUMANS)
    assert humans_rates.success["NCR"].value == 0.5
    assert humans_rates.success["HTU"].value == 1.0
    assert humans_rates.success["HTU"].interval.low == 1.0  # all right: a point interval
    assert humans_rates.success[ALL].value == 0.75  # the mean of the families
    assert humans_rates.pass_hat_k == {}
    bot = rates_of(statistics, "bot")
    assert bot.success["NCR"].value == pytest.approx(10 / 20)
    # pass^1 = 0.5; pass^2 = mean C(c,2)/C(2,2) = 4/10
    assert bot.pass_hat_k["NCR"][1].value == pytest.approx(0.5)
    assert bot.pass_hat_k["NCR"][2].value == pytest.approx(0.4)
    assert bot.pass_hat_k[ALL][2].value == pytest.approx(0.4)
    low, high = bot.pass_hat_k["NCR"][2].interval.low, bot.pass_hat_k["NCR"][2].interval.high
    assert 0.0 <= low < 0.4 < high <= 1.0
    assert "HTU" not in bot.success  # the agent attempted no HTU item


def test_one_annotator_has_no_agreement_and_says_so():
    statistics = analyse(outcomes([answer(i, "solo", True) for i in range(14)], []), OPTIONS)
    for row in statistics.agreement:
        assert row.alpha is None and row.kappa is None
        assert row.note == "not enough data: no item has two answers"
    assert statistics.comparisons == []
    valid_json(statistics)


def test_no_shared_items_leaves_everything_out():
    humans = [answer(i, p, True) for i in range(5) for p in "ab"]
    agents = [agent(i, 0, True) for i in range(5, 10)]
    statistics = analyse(outcomes(humans, agents), OPTIONS)
    ncr = by_family(statistics.comparisons, "bot")["NCR"]
    assert (ncr.shared_items, ncr.humans_only_items, ncr.agent_only_items) == (0, 5, 5)
    assert ncr.difference is None and ncr.p_value is None and ncr.interval is None
    assert ncr.note == "not enough data: no item attempted by both"
    valid_json(statistics)


@pytest.mark.parametrize("right", [True, False])
def test_all_right_or_all_wrong_is_stated_never_nan(right):
    humans = [answer(i, p, right) for i in range(14) for p in "abc"]
    agents = [agent(i, t, right) for i in range(14) for t in range(3)]
    realism = {"org": [5, 5, 5], "Case": [4]}
    statistics = analyse(outcomes(humans, agents, realism=realism), OPTIONS)
    value = 1.0 if right else 0.0
    for rates in statistics.rates:
        assert rates.success[ALL].value == value
        assert (rates.success[ALL].interval.low, rates.success[ALL].interval.high) == (
            value,
            value,
        )
    for row in statistics.comparisons:
        assert row.difference == 0.0 and row.p_value is None
        assert row.note == "not enough data: no item on which they differ (no test)"
    for row in statistics.agreement:  # everyone gave the same answer: alpha is undefined
        assert row.alpha is None
        assert row.note == "not enough data: every answer is the same, agreement is undefined"
    assert all(d.suspect is None for d in statistics.difficulties) == right
    case = next(r for r in statistics.realism if r.target == "Case")
    assert case.realistic_share.interval is None and "not enough data" in case.realistic_share.note
    data = valid_json(statistics)
    assert data["rates"][0]["solver"] == HUMANS


def test_nobody_solved_and_inverted_items_are_suspects():
    # strong people a, b solve everything but item 0; weak people c, d solve item 0 only
    humans = [answer(i, p, (i != 0) == (p in "ab")) for i in range(10) for p in "abcd"]
    humans += [answer(12, p, False) for p in "abc"]  # nobody solves item 12 (idx 12)
    statistics = analyse(outcomes(humans, []), OPTIONS)
    suspects = {d.idx: d.suspect for d in statistics.suspects}
    assert suspects[12] == "nobody solved it (3 attempts)"
    assert suspects[0].startswith("solved by less able solvers")
    assert set(suspects) == {0, 12}
    ability = {a.solver: a.ability for a in statistics.abilities}
    assert ability["a"] > ability["c"]


def test_realism_share_and_mean_level_with_intervals():
    statistics = analyse(outcomes([], [], realism={"org": [4, 5, 2, 3, 0]}), OPTIONS)
    (org,) = statistics.realism
    assert org.ratings == 4  # "don't know" (0) is not on the scale
    assert org.realistic_share.value == 0.5 and org.mean_level.value == 3.5
    assert org.mean_level.interval.low < 3.5 < org.mean_level.interval.high


def test_the_report_is_reproducible_and_the_seed_matters():
    humans = [answer(i, p, (i * i + ord(p)) % 5 > 1) for i in range(14) for p in "abc"]
    first = analyse(outcomes(humans, []), OPTIONS)
    assert analyse(outcomes(humans, []), OPTIONS) == first
    other = analyse(outcomes(humans, []), dataclasses.replace(OPTIONS, seed=2))
    assert other.rates[0].success[ALL].interval != first.rates[0].success[ALL].interval
