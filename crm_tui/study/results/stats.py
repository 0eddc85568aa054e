"""Statistics for reports: intervals, spreads, pass^k and agreement between raters."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal, TypeVar

from crm_tui.tasks.scoring import pass_hat_k

H = TypeVar("H", bound=Hashable)
# Krippendorff's levels of measurement (the realism scale is ordinal).
Level = Literal["nominal", "ordinal", "interval", "ratio"]
# numpy and krippendorff are imported inside the functions that use them: the app imports
# this module at start (through the results screen) and needs them only to build a report.


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Spread:
    """Median and interquartile range."""

    median: float
    q1: float
    q3: float


@dataclass(frozen=True)
class AlphaEstimate:
    alpha: float
    interval: Interval | None  # bootstrap interval; None when too few units to resample
    units: int  # units rated by at least two raters


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> Interval | None:
    """Wilson score interval for a proportion; `successes` may be a sum of partial scores
    (knowledge QA F1), which treats the mean score as the observed proportion."""
    if n <= 0:
        return None
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


def median_iqr(values: Sequence[float]) -> Spread | None:
    import numpy as np

    if not values:
        return None
    q1, median, q3 = np.percentile(np.asarray(values, dtype=float), [25, 50, 75])
    return Spread(float(median), float(q1), float(q3))


def pass_hat_k_curve(successes_by_task: Sequence[Sequence[bool]]) -> dict[int, float]:
    """pass^k for k = 1 .. the smallest number of trials any task has."""
    if not successes_by_task:
        return {}
    counts = [(len(outcomes), sum(map(bool, outcomes))) for outcomes in successes_by_task]
    trials = min(n for n, _ in counts)
    return {k: pass_hat_k(counts, k) for k in range(1, trials + 1)}


def mean_pairwise_agreement(
    groups: Sequence[Sequence[H]], agree: Callable[[H, H], float]
) -> float | None:
    """Mean over groups (items) of the mean `agree` over all pairs within the group; groups
    with fewer than two members carry no agreement information and are left out.

    Pairs are counted over the group's distinct members (forty people giving three
    distinct answers make six distinct pairs, not 780), so `agree` is called once per
    distinct pair: the same mean, in time that grows with the answers, not their square."""
    per_group = []
    for group in groups:
        if len(group) < 2:
            continue
        counts = list(Counter(group).items())
        total = 0.0
        for i, (a, count_a) in enumerate(counts):
            if count_a >= 2:
                total += count_a * (count_a - 1) / 2 * agree(a, a)
            for b, count_b in counts[i + 1 :]:
                total += count_a * count_b * agree(a, b)
        per_group.append(total / (len(group) * (len(group) - 1) / 2))
    return sum(per_group) / len(per_group) if per_group else None


def krippendorff_alpha(
    ratings_by_unit: Sequence[Sequence[float]],
    *,
    level: Level = "ordinal",
    value_domain: Sequence[float] | None = None,
    bootstrap: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
) -> AlphaEstimate | None:
    """Krippendorff's alpha over units each rated by any raters, with a seeded bootstrap
    interval that resamples units. Units with fewer than two ratings are left out; None when
    alpha is undefined (no unit with two ratings, or only one value ever used)."""
    import numpy as np

    units = [list(ratings) for ratings in ratings_by_unit if len(ratings) >= 2]
    alpha = _alpha(units, level, value_domain)
    if alpha is None:
        return None
    interval = None
    if bootstrap > 0 and len(units) >= 2:
        rng = np.random.default_rng(seed)
        resampled = [
            _alpha([units[i] for i in rng.integers(0, len(units), len(units))], level, value_domain)
            for _ in range(bootstrap)
        ]
        draws = [d for d in resampled if d is not None]
        if draws:
            tail = (1 - confidence) / 2 * 100
            low, high = np.percentile(draws, [tail, 100 - tail])
            interval = Interval(float(low), float(high))
    return AlphaEstimate(alpha=alpha, interval=interval, units=len(units))


def _alpha(
    units: list[list[float]], level: Level, value_domain: Sequence[float] | None
) -> float | None:
    import krippendorff
    import numpy as np

    if not units:
        return None
    domain = sorted(value_domain) if value_domain else sorted({v for u in units for v in u})
    if len({v for u in units for v in u}) < 2 and len(domain) < 2:
        return None
    # value_counts form (units x values) lets each unit have its own set of raters.
    counts = np.zeros((len(units), len(domain)))
    position = {value: column for column, value in enumerate(domain)}
    for row, ratings in enumerate(units):
        for value in ratings:
            counts[row, position[value]] += 1
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = krippendorff.alpha(
            value_counts=counts, value_domain=domain, level_of_measurement=level
        )
    return None if math.isnan(alpha) else float(alpha)
