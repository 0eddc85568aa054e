"""Report statistics against values computed by hand or published."""

from __future__ import annotations

import pytest

from crm_tui.study.results.stats import (
    krippendorff_alpha,
    mean_pairwise_agreement,
    median_iqr,
    pass_hat_k_curve,
    wilson_interval,
)


def test_wilson_interval_by_hand():
    # p = 0.8, n = 10, z = 1.95996: centre (p + z²/2n) / (1 + z²/n) = 0.716741,
    # half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n) = 0.226578
    interval = wilson_interval(8, 10)
    assert interval.low == pytest.approx(0.490163, abs=1e-5)
    assert interval.high == pytest.approx(0.943319, abs=1e-5)
    # no successes: the upper bound is z² / (n + z²)
    none_of_ten = wilson_interval(0, 10)
    assert none_of_ten.low == pytest.approx(0.0, abs=1e-12)
    assert none_of_ten.high == pytest.approx(3.841459 / 13.841459)
    assert wilson_interval(0, 0) is None


def test_median_and_interquartile_range():
    spread = median_iqr([4000, 1000, 3000, 2000])
    assert (spread.median, spread.q1, spread.q3) == (2500, 1750, 3250)
    assert median_iqr([]) is None


def test_pass_hat_k_curve_by_hand():
    # c successes of n = 3 trials per task: 3, 2, 2, 2.
    # pass^k = mean C(c,k)/C(3,k): k=1 (1 + 2/3·3)/4 = 0.75; k=2 (1 + 3·1/3)/4 = 0.5;
    # k=3 (1 + 0)/4 = 0.25
    outcomes = [[True, True, True], [True, False, True], [True, True, False], [False, True, True]]
    curve = pass_hat_k_curve(outcomes)
    assert curve == {1: pytest.approx(0.75), 2: pytest.approx(0.5), 3: pytest.approx(0.25)}
    assert pass_hat_k_curve([]) == {}


def test_mean_pairwise_agreement_leaves_out_single_raters():
    groups = [["a", "a", "b"], ["x", "x"], ["alone"]]
    # pairs in the first group: (a,a)=1, (a,b)=0, (a,b)=0 -> 1/3; second group 1
    agreement = mean_pairwise_agreement(groups, lambda u, v: float(u == v))
    assert agreement == pytest.approx((1 / 3 + 1) / 2)
    assert mean_pairwise_agreement([["only"]], lambda u, v: 1.0) is None


# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
# 12 units, missing values. Published: nominal .743, ordinal .815, interval .849.
# Here as units (columns of the paper's table), each with the values it received.
KRIPPENDORFF_2011_C = [
    [1, 1, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [5, 5, 5],
    [1, 1],
    [3],
]


@pytest.mark.parametrize(
    "level, published", [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)]
)
def test_krippendorff_alpha_matches_the_published_worked_example(level, published):
    estimate = krippendorff_alpha(KRIPPENDORFF_2011_C, level=level, bootstrap=0)
    assert round(estimate.alpha, 3) == published
    assert estimate.units == 11  # the unit with a single value is not pairable


def test_alpha_bootstrap_interval_is_seeded_and_brackets_the_estimate():
    first = krippendorff_alpha(KRIPPENDORFF_2011_C, bootstrap=300, seed=5)
    again = krippendorff_alpha(KRIPPENDORFF_2011_C, bootstrap=300, seed=5)
    other = krippendorff_alpha(KRIPPENDORFF_2011_C, bootstrap=300, seed=6)
    assert first == again
    assert first.interval != other.interval
    assert first.interval.low < first.alpha < first.interval.high <= 1.0


def test_alpha_is_undefined_without_variation_or_pairable_units():
    assert krippendorff_alpha([[5, 5], [5, 5]], value_domain=[1, 2, 3, 4, 5]) is None
    assert krippendorff_alpha([[3], [4]]) is None
