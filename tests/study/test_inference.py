"""The results' inference against published or by-hand values, and its edge cases."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, special, stats

from crm_tui.study.results.inference import (
    BootstrapOptions,
    agreement_table,
    bootstrap_items,
    fleiss_kappa,
    fleiss_kappa_weighted,
    holm,
    mcnemar_exact,
    nominal_alpha,
    nominal_alpha_weighted,
    pass_hat_k_by_item,
    rasch_fit,
    resample_weights,
)
from tests.study.test_report_stats import KRIPPENDORFF_2011_C

OPTIONS = BootstrapOptions(confidence=0.95, resamples=2000, seed=7)


def test_item_bootstrap_is_scipys_bootstrap_of_the_mean():
    values = np.random.default_rng(1).random(40)
    (interval,) = bootstrap_items(
        lambda positions: np.atleast_2d(values[np.atleast_2d(positions)].mean(axis=-1)),
        [values.size],
        OPTIONS,
    )
    reference = stats.bootstrap(
        (values,), np.mean, n_resamples=2000, method="percentile", rng=np.random.default_rng(7)
    )
    assert interval.low == pytest.approx(reference.confidence_interval.low)
    assert interval.high == pytest.approx(reference.confidence_interval.high)
    again = bootstrap_items(
        lambda p: np.atleast_2d(values[np.atleast_2d(p)].mean(axis=-1)), [40], OPTIONS
    )
    assert again == [interval]  # seeded


def mean_of(values):
    return lambda p: np.atleast_2d(values[np.atleast_2d(p)].mean(axis=-1))


@pytest.mark.parametrize("value", [0.0, 1.0])
def test_all_right_and_all_wrong_give_a_point_interval_not_nan(value):
    (interval,) = bootstrap_items(mean_of(np.full(10, value)), [10], OPTIONS)
    assert (interval.low, interval.high) == (value, value)
    assert bootstrap_items(lambda p: np.zeros((1, 1)), [], OPTIONS) == []


def test_resample_weights_count_draws():
    weights = resample_weights(np.array([[0, 0, 2], [1, 2, 2]]), 3)
    assert weights.tolist() == [[2, 0, 1], [0, 1, 2]]


def test_pass_hat_k_by_item_by_hand():
    # 3 of 4 trials right: k=1 3/4, k=2 C(3,2)/C(4,2) = 3/6, k=4 0
    values = pass_hat_k_by_item(np.array([3, 3, 4]), np.array([4, 4, 4]), 2)
    assert values.tolist() == pytest.approx([0.5, 0.5, 1.0])
    assert pass_hat_k_by_item(np.array([3]), np.array([4]), 4).tolist() == [0.0]


def test_mcnemar_exact_by_hand():
    # 1 vs 9 discordant pairs: 2 * P(X <= 1 | n=10, p=1/2) = 2 * 11 / 1024
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(5, 5) == pytest.approx(1.0)
    assert mcnemar_exact(0, 0) is None  # no discordant pair: no test


def test_holm_step_down_by_hand():
    # sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> max(0.06, 0.04)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, None, 0.9]) == [pytest.approx(1.0), None, pytest.approx(1.0)]
    assert holm([]) == []


def test_nominal_alpha_matches_the_published_worked_example():
    # Krippendorff (2011), section C: nominal alpha .743
    table = agreement_table([[str(v) for v in unit] for unit in KRIPPENDORFF_2011_C])
    assert round(nominal_alpha(table), 3) == 0.743
    pairable = table[table.sum(axis=1) >= 2]
    vectorised = nominal_alpha_weighted(pairable, np.ones((1, pairable.shape[0])))
    assert vectorised[0] == pytest.approx(nominal_alpha(table))


def test_alpha_is_undefined_when_every_answer_is_the_same_or_unpaired():
    assert nominal_alpha(agreement_table([["a", "a"], ["a", "a", "a"]])) is None
    assert nominal_alpha(agreement_table([["a"], ["b"]])) is None


# Fleiss (1971) as worked in most textbooks: 10 subjects, 14 raters, 5 categories;
# P-bar = 0.378, P_e = 0.213, kappa = 0.210.
FLEISS_EXAMPLE = np.array(
    [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ],
    dtype=float,
)


def test_fleiss_kappa_matches_the_textbook_example():
    assert round(fleiss_kappa(FLEISS_EXAMPLE), 3) == 0.210
    # a resample that draws the first subject twice and drops the last
    weights = np.array([[2, 1, 1, 1, 1, 1, 1, 1, 1, 0]], dtype=float)
    drawn = np.vstack([FLEISS_EXAMPLE[0], FLEISS_EXAMPLE[:9]])
    assert fleiss_kappa_weighted(FLEISS_EXAMPLE, weights)[0] == pytest.approx(fleiss_kappa(drawn))
    assert fleiss_kappa(np.zeros((0, 2))) is None
    assert fleiss_kappa(np.array([[2.0], [2.0]])) is None  # one category: undefined


def simulated_rasch(solvers=150, items=60, seed=3):
    rng = np.random.default_rng(seed)
    ability = rng.normal(0, 1, solvers)
    difficulty = rng.normal(0, 1, items)
    difficulty -= difficulty.mean()
    solver, item = (a.ravel() for a in np.meshgrid(np.arange(solvers), np.arange(items)))
    right = (rng.random(solver.size) < special.expit(ability[solver] - difficulty[item])) * 1.0
    return ability, difficulty, solver, item, right


def test_rasch_recovers_simulated_abilities_and_difficulties():
    ability, difficulty, solver, item, right = simulated_rasch()
    fit = rasch_fit(solver, item, right, np.ones(right.size), ability.size, difficulty.size)
    assert fit.converged
    assert np.corrcoef(fit.difficulty, difficulty)[0, 1] > 0.95
    assert np.corrcoef(fit.ability, ability)[0, 1] > 0.85
    assert fit.difficulty.mean() == pytest.approx(0.0, abs=1e-9)
    # about 95% of the items' Wald intervals hold the true difficulty
    covered = np.abs(fit.difficulty - difficulty) <= 1.96 * fit.difficulty_se
    assert covered.mean() > 0.85


def test_rasch_fit_is_the_penalised_likelihoods_optimum():
    # the same model minimised by scipy with numerical gradients, centred the same way
    _, _, solver, item, right = simulated_rasch(solvers=6, items=5)

    def loss(params):
        logit = params[:6][solver] - params[6:][item]
        return -(right * logit - np.logaddexp(0, logit)).sum() + 0.05 * params @ params

    reference = optimize.minimize(loss, np.zeros(11), method="BFGS").x
    shift = reference[6:].mean()
    fit = rasch_fit(solver, item, right, np.ones(right.size), 6, 5, ridge=0.1)
    assert fit.ability == pytest.approx(reference[:6] - shift, abs=1e-3)
    assert fit.difficulty == pytest.approx(reference[6:] - shift, abs=1e-3)


def test_rasch_all_right_and_all_wrong_stay_finite():
    solver = np.array([0, 0, 1, 1])
    item = np.array([0, 1, 0, 1])
    for right in (np.ones(4), np.zeros(4)):
        fit = rasch_fit(solver, item, right, np.ones(4), 2, 2)
        assert np.isfinite(fit.ability).all() and np.isfinite(fit.difficulty_se).all()
    assert (
        rasch_fit(
            np.array([], dtype=np.int64),
            np.array([], dtype=np.int64),
            np.array([]),
            np.array([]),
            0,
            0,
        )
        is None
    )
