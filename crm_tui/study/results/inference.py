"""Inference for the results: item bootstrap intervals, exact paired tests, agreement on
answers and a one-parameter item response (Rasch) model.

Every function takes plain numpy arrays and returns numbers or None; None always means
"not enough data" (the caller says which), never NaN. The bootstrap is scipy's
(`scipy.stats.bootstrap`, percentile method, seeded), vectorised: each statistic is written
over arrays of resampled item positions, so one call resamples every family at once
(families are resampled independently: a stratified bootstrap) and returns all the
figures of a solver together. Items are what is resampled: an item's answers and an
agent's trials of an item stay together.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import optimize, special, stats

from crm_tui.study.results.stats import Interval

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
# statistic(*positions) -> (outputs, resamples) or (outputs,) for unresampled positions
Statistic = Callable[..., Floats]

DEFAULT_CONFIDENCE = 0.95
DEFAULT_RESAMPLES = 2000
RASCH_RIDGE = 0.1  # L2 penalty on abilities and difficulties: finite values for all-right/all-wrong


@dataclass(frozen=True)
class BootstrapOptions:
    confidence: float = DEFAULT_CONFIDENCE
    resamples: int = DEFAULT_RESAMPLES
    seed: int = 0


def finite(value: float | np.floating | None) -> float | None:
    """A float, or None for a missing or non-finite value (JSON has no NaN)."""
    if value is None:
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def bootstrap_items(
    statistic: Statistic, sizes: Sequence[int], options: BootstrapOptions
) -> list[Interval | None]:
    """Percentile intervals of each output of `statistic`, resampling the positions
    0..size-1 of each sample (a family's items) independently. A sample of one item is
    kept (it is always drawn: it adds no variance); none at all gives no interval."""
    if not sizes or min(sizes) < 1 or options.resamples < 1:
        return []
    samples = tuple(np.arange(max(size, 2)) % size for size in sizes)  # [0, 0] for one item

    def vectorised(*positions: Ints, axis: int = -1) -> Floats:
        values = statistic(*positions)  # (outputs, resamples)
        return values[:, 0] if positions[0].ndim == 1 else values

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # degenerate or undefined resamples: handled below
        result = stats.bootstrap(
            samples,
            vectorised,
            n_resamples=options.resamples,
            vectorized=True,
            paired=False,
            confidence_level=options.confidence,
            method="percentile",
            rng=np.random.default_rng(options.seed),
        )
    low = np.atleast_1d(result.confidence_interval.low)
    high = np.atleast_1d(result.confidence_interval.high)
    draws = np.atleast_2d(result.bootstrap_distribution)
    tail = (1 - options.confidence) / 2 * 100
    intervals: list[Interval | None] = []
    for row, (lo, hi) in enumerate(zip(low, high)):
        if not (math.isfinite(lo) and math.isfinite(hi)):
            # some resamples undefined (an agreement with one category drawn): the
            # percentiles of the defined ones, when they are most of them
            defined = draws[row][np.isfinite(draws[row])]
            if defined.size < draws.shape[1] / 2:
                intervals.append(None)
                continue
            lo, hi = np.percentile(defined, [tail, 100 - tail])
        intervals.append(Interval(float(lo), float(hi)))
    return intervals


def resample_weights(positions: Ints, size: int) -> Floats:
    """How often each of `size` items is drawn in each resample: (resamples, size)."""
    rows = np.atleast_2d(positions)
    offsets = np.arange(rows.shape[0])[:, None] * size
    counts = np.bincount((rows + offsets).ravel(), minlength=rows.shape[0] * size)
    return counts.reshape(rows.shape[0], size).astype(float)


# ----------------------------------------------------------------- success rates
def pass_hat_k_by_item(successes: Ints, trials: Ints, k: int) -> Floats:
    """C(c, k) / C(n, k) per item: the chance that k of its trials all succeed."""
    return np.asarray(special.comb(successes, k) / special.comb(trials, k), dtype=float)


def ratio(sums: Floats, counts: Floats, weights: Floats) -> Floats:
    """Sum of scores over sum of answers, items weighted by how often each is drawn."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray((weights @ sums) / (weights @ counts), dtype=float)


# ----------------------------------------------------------------- paired tests
def mcnemar_exact(humans_only: int, agent_only: int) -> float | None:
    """McNemar's exact test: two-sided binomial test of the discordant pairs (one side
    right, the other wrong) against an even split. None without discordant pairs."""
    discordant = humans_only + agent_only
    if discordant == 0:
        return None
    return float(stats.binomtest(humans_only, discordant, 0.5).pvalue)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment (family-wise error) over the tests that have a p-value;
    a missing p-value stays missing and does not count as a test."""
    present = [(p, i) for i, p in enumerate(p_values) if p is not None]
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(present)):
        running = max(running, min(1.0, (len(present) - rank) * p))
        adjusted[i] = running
    return adjusted


# ----------------------------------------------------------------- agreement
def nominal_alpha(table: Floats) -> float | None:
    """Krippendorff's alpha (nominal) from a units x categories table of counts (the
    `krippendorff` package); units with fewer than two answers are left out."""
    import krippendorff

    table = table[table.sum(axis=1) >= 2]
    if table.shape[0] == 0 or np.count_nonzero(table.sum(axis=0)) < 2:
        return None
    with np.errstate(all="ignore"):
        value = krippendorff.alpha(
            value_counts=table,
            value_domain=list(range(table.shape[1])),
            level_of_measurement="nominal",
        )
    return finite(value)


def nominal_alpha_weighted(table: Floats, weights: Floats) -> Floats:
    """Nominal alpha for each row of unit `weights` (a resample), from the coincidence
    matrix: alpha = 1 - observed / expected disagreement. Every unit of `table` has two or
    more answers. Agrees with `nominal_alpha` at weights of one (tested); used for the
    bootstrap only, where calling the package once per resample would be slow."""
    per_unit = table.sum(axis=1)
    within = ((table**2).sum(axis=1) - per_unit) / np.maximum(per_unit - 1, 1)
    n = weights @ per_unit
    category = weights @ table
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = 1 - (weights @ within) / n
        expected = (n**2 - (category**2).sum(axis=1)) / (n * (n - 1))
        return np.asarray(1 - observed / expected, dtype=float)


def fleiss_kappa(table: Floats) -> float | None:
    """Fleiss' kappa for a units x categories table in which every unit has the same
    number (two or more) of answers (Fleiss 1971)."""
    if table.shape[0] == 0:
        return None
    value = fleiss_kappa_weighted(table, np.ones((1, table.shape[0])))[0]
    return finite(value)


def fleiss_kappa_weighted(table: Floats, weights: Floats) -> Floats:
    raters = table.sum(axis=1)
    agreement = ((table**2).sum(axis=1) - raters) / (raters * (raters - 1))
    total = weights @ raters
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = (weights @ agreement) / weights.sum(axis=1)
        shares = (weights @ table) / total[:, None]
        chance = (shares**2).sum(axis=1)
        return np.asarray((observed - chance) / (1 - chance), dtype=float)


def agreement_table(units: Sequence[Sequence[str]]) -> Floats:
    """Units (items) x categories (distinct answers) counts, for units of 2+ answers."""
    codes: dict[str, int] = {}
    rows = [[codes.setdefault(answer, len(codes)) for answer in unit] for unit in units]
    table = np.zeros((len(rows), max(len(codes), 1)))
    for row, unit in enumerate(rows):
        np.add.at(table[row], unit, 1)
    return table


# ----------------------------------------------------------------- item response
@dataclass(frozen=True)
class RaschFit:
    ability: Floats  # per solver, logits
    ability_se: Floats
    difficulty: Floats  # per item, logits; mean 0 over items with observations
    difficulty_se: Floats
    converged: bool


def rasch_fit(
    solver: Ints,
    item: Ints,
    successes: Floats,
    trials: Floats,
    solvers: int,
    items: int,
    ridge: float = RASCH_RIDGE,
) -> RaschFit | None:
    """One-parameter logistic (Rasch) model, P(success) = 1 / (1 + exp(b_item - a_solver)),
    fitted jointly by penalised maximum likelihood (L-BFGS on the binomial log-likelihood
    of each solver-item cell, plus `ridge` times the squared parameters, so that a solver
    or item with all successes or none gets a finite value). Standard errors are
    1 / sqrt(Fisher information + ridge) per parameter (the usual joint-ML approximation
    that ignores the other parameters' uncertainty). None without observations."""
    if solver.size == 0 or trials.sum() == 0:
        return None

    def objective(params: Floats) -> tuple[float, Floats]:
        ability, difficulty = params[:solvers], params[solvers:]
        logit = ability[solver] - difficulty[item]
        expected = trials * special.expit(logit)
        # binomial log-likelihood: s * logit - n * log(1 + e^logit)
        loss = -(successes * logit - trials * np.logaddexp(0, logit)).sum()
        loss += ridge / 2 * float(params @ params)
        residual = successes - expected
        gradient = np.concatenate(
            [
                -np.bincount(solver, residual, minlength=solvers),
                np.bincount(item, residual, minlength=items),
            ]
        )
        return float(loss), gradient + ridge * params

    start = np.zeros(solvers + items)
    result = optimize.minimize(objective, start, jac=True, method="L-BFGS-B")
    ability, difficulty = result.x[:solvers], result.x[solvers:]
    p = special.expit(ability[solver] - difficulty[item])
    information = trials * p * (1 - p)
    ability_info = np.bincount(solver, information, minlength=solvers) + ridge
    item_info = np.bincount(item, information, minlength=items) + ridge
    seen = np.bincount(item, trials, minlength=items) > 0
    shift = difficulty[seen].mean() if seen.any() else 0.0  # location: items average 0
    return RaschFit(
        ability=ability - shift,
        ability_se=1 / np.sqrt(ability_info),
        difficulty=difficulty - shift,
        difficulty_se=1 / np.sqrt(item_info),
        converged=bool(result.success),
    )


def normal_quantile(confidence: float) -> float:
    return float(stats.norm.ppf(0.5 + confidence / 2))
