"""The report's statistics section: intervals on every success rate, humans paired with
each agent on shared items, agreement on answers, item difficulty and solver ability.

Built from plain outcomes (`Outcomes`: one row per human answer and per agent record), so
it is the same whichever store the study is in. Conventions (each also said in the
report, `Statistics.notes`):
- An answer is right when it scores 0.5 or more (knowledge QA is F1); no submission is 0.
- Success rates are over answers, as in the rest of the report; intervals resample items
  (`inference.bootstrap_items`), so several answers or trials of one item move together.
  ALL is the unweighted mean of the families, its interval resamples each family's items.
- Paired comparisons use the items both sides attempted. An item counts as solved by the
  humans when a strict majority of its answers are right (a tie is not solved), by an
  agent when a strict majority of its trials are; items one side alone attempted are
  counted and left out. ALL pools the shared items of every family.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from crm_tui.study.results.inference import (
    BootstrapOptions,
    Floats,
    Ints,
    agreement_table,
    bootstrap_items,
    finite,
    fleiss_kappa,
    fleiss_kappa_weighted,
    holm,
    mcnemar_exact,
    nominal_alpha,
    nominal_alpha_weighted,
    normal_quantile,
    pass_hat_k_by_item,
    rasch_fit,
    ratio,
    resample_weights,
)
from crm_tui.study.results.stats import Interval

ALL = "ALL"
HUMANS = "Humans"
RIGHT_FROM = 0.5
SCALE = (1, 2, 3, 4, 5)
REALISTIC = 4
SUSPECT_MIN_ATTEMPTS = 3
SUSPECT_GAP = 0.5  # logits
NOT_ENOUGH = "not enough data"
Bools = npt.NDArray[np.bool_]

MAJORITY_RULE = (
    "humans: an item is solved when a strict majority of its answers are right (a tie is "
    "not solved); agents: when a strict majority of its trials are; only items both sides "
    "attempted"
)
SUSPECT_RULE = (
    f"nobody solved it in {SUSPECT_MIN_ATTEMPTS} or more attempts; or at least two solvers "
    "solved it and two missed it, and those who solved it are on average more than "
    f"{SUSPECT_GAP} logits less able than those who missed it"
)


# ----------------------------------------------------------------- inputs
@dataclass(frozen=True)
class HumanAnswer:
    item: int  # position in `Outcomes.items`
    person: str
    score: float  # 0 for no submission
    answer: str | None  # the normalised submitted answer; None: no submission
    active_ms: int | None = None


@dataclass(frozen=True)
class AgentRecord:
    agent: str
    item: int
    trial: int
    score: float
    turns: int | None = None


@dataclass(frozen=True)
class Outcomes:
    items: list[tuple[int, str]]  # (task idx, family abbreviation), in the report's order
    exact_match: frozenset[str]  # families scored by exact match (pass^k is over these)
    humans: list[HumanAnswer]
    agents: list[AgentRecord]
    realism: dict[str, list[int]] = field(default_factory=dict)  # target -> levels 1..5


# ----------------------------------------------------------------- outputs
@dataclass(frozen=True)
class Rate:
    value: float | None
    interval: Interval | None
    items: int  # items the value is over
    note: str | None = None  # why there is no value or no interval


@dataclass(frozen=True)
class SolverRates:
    solver: str  # "Humans" or an agent's label
    success: dict[str, Rate]  # family or ALL -> success
    pass_hat_k: dict[str, dict[int, Rate]] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    family: str
    agent: str
    shared_items: int
    humans_only_items: int  # attempted by the humans only: left out
    agent_only_items: int  # attempted by the agent only: left out
    humans_solved: float | None  # share of shared items solved by the humans' majority
    agent_solved: float | None
    difference: float | None  # humans minus agent
    interval: Interval | None
    humans_right_agent_wrong: int
    agent_right_humans_wrong: int
    p_value: float | None  # McNemar's exact test
    p_holm: float | None  # Holm-adjusted over the families (ALL: unadjusted)
    note: str | None = None


@dataclass(frozen=True)
class AnswerAgreement:
    family: str
    items: int  # items with two or more submitted answers
    alpha: float | None  # Krippendorff's alpha, nominal
    alpha_interval: Interval | None
    kappa: float | None  # Fleiss' kappa over the items with `kappa_raters` answers each
    kappa_interval: Interval | None
    kappa_items: int
    kappa_raters: int
    note: str | None = None


@dataclass(frozen=True)
class PersonAccuracy:
    person: str
    answers: int
    accuracy: float


@dataclass(frozen=True)
class PeopleSpread:
    family: str
    people: int
    median: float | None
    q1: float | None
    q3: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class RealismLevels:
    target: str
    ratings: int  # on the 1..5 scale
    realistic_share: Rate  # Realistic or better; interval resamples raters
    mean_level: Rate


@dataclass(frozen=True)
class SolverAbility:
    solver: str
    kind: str  # "person" or "agent"
    ability: float
    interval: Interval
    attempts: int


@dataclass(frozen=True)
class ItemDifficulty:
    idx: int
    family: str
    difficulty: float
    interval: Interval
    attempts: int
    right: int
    suspect: str | None = None  # why it is listed for the dataset audit


@dataclass(frozen=True)
class ItemTime:
    idx: int
    family: str
    human_active_s: float | None  # median over the item's answers
    agent_turns: dict[str, float]  # agent -> median turns over its trials


@dataclass(frozen=True)
class Statistics:
    confidence: float
    resamples: int
    seed: int
    rates: list[SolverRates]
    comparisons: list[Comparison]
    agreement: list[AnswerAgreement]
    people: list[PersonAccuracy]
    people_spread: list[PeopleSpread]
    realism: list[RealismLevels]
    abilities: list[SolverAbility]
    difficulties: list[ItemDifficulty]
    item_times: list[ItemTime]
    majority_rule: str = MAJORITY_RULE
    suspect_rule: str = SUSPECT_RULE
    notes: list[str] = field(default_factory=list)

    @property
    def suspects(self) -> list[ItemDifficulty]:
        return [item for item in self.difficulties if item.suspect is not None]


def analyse(outcomes: Outcomes, options: BootstrapOptions) -> Statistics:
    families = list(dict.fromkeys(family for _, family in outcomes.items))
    item_family = np.array([families.index(f) for _, f in outcomes.items], dtype=np.int64)
    humans = _human_cells(outcomes)
    agents = _agent_cells(outcomes)
    rates = [_rates(HUMANS, humans, item_family, families, frozenset(), options)]
    rates += [
        _rates(label, cells, item_family, families, outcomes.exact_match, options)
        for label, cells in agents.items()
    ]
    comparisons = [
        c
        for label, cells in agents.items()
        for c in _comparisons(label, humans, cells, item_family, families, options)
    ]
    people, spread = _people(outcomes, families)
    abilities, difficulties = _difficulty(outcomes, humans, agents, options)
    return Statistics(
        confidence=options.confidence,
        resamples=options.resamples,
        seed=options.seed,
        rates=rates,
        comparisons=comparisons,
        agreement=_agreement(outcomes, families, options),
        people=people,
        people_spread=spread,
        realism=_realism(outcomes.realism, options),
        abilities=abilities,
        difficulties=difficulties,
        item_times=_item_times(outcomes),
        notes=[
            f"right: a score of {RIGHT_FROM} or more (knowledge QA is F1)",
            f"{options.confidence:.0%} percentile bootstrap intervals, {options.resamples} "
            f"resamples of items (seed {options.seed}); ALL resamples within each family",
            f"paired comparisons: {MAJORITY_RULE}",
        ],
    )


# ----------------------------------------------------------------- cells
@dataclass(frozen=True)
class Cells:
    """Per item: the sum of scores, the answers (or trials), and how many were right."""

    sums: Floats
    counts: Floats
    right: Floats

    @property
    def attempted(self) -> Bools:
        return self.counts > 0

    @property
    def solved(self) -> Floats:
        """1 where a strict majority of the item's answers (or trials) are right."""
        return (2 * self.right > self.counts).astype(float)


def _cells(n_items: int, item: Ints, score: Floats) -> Cells:
    return Cells(
        sums=np.bincount(item, score, minlength=n_items).astype(float),
        counts=np.bincount(item, minlength=n_items).astype(float),
        right=np.bincount(item, (score >= RIGHT_FROM).astype(float), minlength=n_items).astype(
            float
        ),
    )


def _human_cells(outcomes: Outcomes) -> Cells:
    item = np.array([a.item for a in outcomes.humans], dtype=np.int64)
    score = np.array([a.score for a in outcomes.humans], dtype=float)
    return _cells(len(outcomes.items), item, score)


def _agent_cells(outcomes: Outcomes) -> dict[str, Cells]:
    by_agent: dict[str, list[AgentRecord]] = defaultdict(list)
    for record in outcomes.agents:
        by_agent[record.agent].append(record)
    return {
        label: _cells(
            len(outcomes.items),
            np.array([r.item for r in records], dtype=np.int64),
            np.array([r.score for r in records], dtype=float),
        )
        for label, records in sorted(by_agent.items())
    }


# ----------------------------------------------------------------- success rates
def _rates(
    solver: str,
    cells: Cells,
    item_family: Ints,
    families: list[str],
    exact_match: frozenset[str],
    options: BootstrapOptions,
) -> SolverRates:
    """Success per family and ALL (mean of families); for agents, pass^k per family and
    over all exact-match items; one bootstrap call for all of them."""
    strata = [np.flatnonzero((item_family == f) & cells.attempted) for f in range(len(families))]
    present = [f for f, items in enumerate(strata) if items.size]
    # pass^k: k up to the fewest trials of any item (of the family; of all for ALL)
    curves: dict[str, int] = {}
    for f in present:
        if families[f] in exact_match:
            curves[families[f]] = int(cells.counts[strata[f]].min())
    pooled_k = min(curves.values(), default=0)
    trial_counts = cells.counts.astype(np.int64)
    right_counts = cells.right.astype(np.int64)

    def statistic(*positions: Ints) -> Floats:
        rows = []
        by_family = {}
        for f, pos in zip(present, positions):
            weights = resample_weights(pos, strata[f].size)
            by_family[f] = weights
            rows.append(ratio(cells.sums[strata[f]], cells.counts[strata[f]], weights))
        rows.append(np.mean(rows, axis=0))
        for f in present:
            for k in range(1, curves.get(families[f], 0) + 1):
                values = pass_hat_k_by_item(right_counts[strata[f]], trial_counts[strata[f]], k)
                weights = by_family[f]
                rows.append((weights @ values) / weights.sum(axis=1))
        exact = [f for f in present if families[f] in curves]
        for k in range(1, pooled_k + 1):
            total = sum(
                by_family[f]
                @ pass_hat_k_by_item(right_counts[strata[f]], trial_counts[strata[f]], k)
                for f in exact
            )
            rows.append(total / sum(by_family[f].sum(axis=1) for f in exact))
        return np.vstack(rows)

    if not present:
        return SolverRates(solver, {ALL: Rate(None, None, 0, NOT_ENOUGH + ": no answers")})
    estimate = statistic(*(np.arange(strata[f].size) for f in present))[:, 0]
    intervals = bootstrap_items(statistic, [strata[f].size for f in present], options)
    intervals += [None] * (len(estimate) - len(intervals))
    values = iter(zip(estimate, intervals))
    success: dict[str, Rate] = {}
    for f in present:
        value, interval = next(values)
        success[families[f]] = _rate(value, interval, strata[f].size)
    value, interval = next(values)
    success[ALL] = _rate(value, interval, sum(strata[f].size for f in present))
    pass_k: dict[str, dict[int, Rate]] = {}
    for f in present:
        for k in range(1, curves.get(families[f], 0) + 1):
            value, interval = next(values)
            pass_k.setdefault(families[f], {})[k] = _rate(value, interval, strata[f].size)
    exact_items = sum(strata[f].size for f in present if families[f] in curves)
    for k in range(1, pooled_k + 1):
        value, interval = next(values)
        pass_k.setdefault(ALL, {})[k] = _rate(value, interval, exact_items)
    if solver == HUMANS:
        pass_k = {}
    return SolverRates(solver, success, pass_k)


def _rate(value: float, interval: Interval | None, items: int) -> Rate:
    if items < 2:
        return Rate(finite(value), None, items, NOT_ENOUGH + ": one item, no interval")
    return Rate(finite(value), interval, items)


# ----------------------------------------------------------------- paired comparisons
def _comparisons(
    agent: str,
    humans: Cells,
    cells: Cells,
    item_family: Ints,
    families: list[str],
    options: BootstrapOptions,
) -> list[Comparison]:
    both = humans.attempted & cells.attempted
    h, a = humans.solved, cells.solved
    strata = [np.flatnonzero((item_family == f) & both) for f in range(len(families))]
    present = [f for f, items in enumerate(strata) if items.size]

    def statistic(*positions: Ints) -> Floats:
        rows, totals, sizes = [], [], []
        for f, pos in zip(present, positions):
            weights = resample_weights(pos, strata[f].size)
            difference = weights @ (h - a)[strata[f]]
            rows.append(difference / weights.sum(axis=1))
            totals.append(difference)
            sizes.append(weights.sum(axis=1))
        rows.append(np.sum(totals, axis=0) / np.sum(sizes, axis=0))
        return np.vstack(rows)

    intervals = bootstrap_items(statistic, [strata[f].size for f in present], options)
    interval_of = dict(zip(present + [-1], intervals))
    rows = []
    for f in [*range(len(families)), -1]:
        in_family = np.ones_like(both) if f == -1 else item_family == f
        shared = np.flatnonzero(in_family & both)
        humans_only = int((in_family & humans.attempted & ~cells.attempted).sum())
        agent_only = int((in_family & cells.attempted & ~humans.attempted).sum())
        if not (shared.size or humans_only or agent_only):
            continue
        b = int(((h == 1) & (a == 0))[shared].sum())
        c = int(((h == 0) & (a == 1))[shared].sum())
        note = None
        if shared.size == 0:
            note = NOT_ENOUGH + ": no item attempted by both"
        elif b + c == 0:
            note = NOT_ENOUGH + ": no item on which they differ (no test)"
        elif shared.size < 2:
            note = NOT_ENOUGH + ": one shared item, no interval"
        rows.append(
            Comparison(
                family=ALL if f == -1 else families[f],
                agent=agent,
                shared_items=int(shared.size),
                humans_only_items=humans_only,
                agent_only_items=agent_only,
                humans_solved=finite(h[shared].mean()) if shared.size else None,
                agent_solved=finite(a[shared].mean()) if shared.size else None,
                difference=finite((h - a)[shared].mean()) if shared.size else None,
                interval=interval_of.get(f) if shared.size >= 2 else None,
                humans_right_agent_wrong=b,
                agent_right_humans_wrong=c,
                p_value=mcnemar_exact(b, c),
                p_holm=None,
                note=note,
            )
        )
    families_only = [r for r in rows if r.family != ALL]
    adjusted = holm([r.p_value for r in families_only])
    holm_of = {r.family: p for r, p in zip(families_only, adjusted)}
    return [_replace_holm(r, r.p_value if r.family == ALL else holm_of[r.family]) for r in rows]


def _replace_holm(row: Comparison, p: float | None) -> Comparison:
    return replace(row, p_holm=p)


# ----------------------------------------------------------------- agreement
def _agreement(
    outcomes: Outcomes, families: list[str], options: BootstrapOptions
) -> list[AnswerAgreement]:
    answers: dict[int, list[str]] = defaultdict(list)
    for a in outcomes.humans:
        if a.answer is not None:
            answers[a.item].append(a.answer)
    return [
        _family_agreement(
            family,
            [
                answers[i]
                for i, (_, f) in enumerate(outcomes.items)
                if f == family and len(answers[i]) >= 2
            ],
            options,
        )
        for family in families
    ]


def _family_agreement(
    family: str, units: list[list[str]], options: BootstrapOptions
) -> AnswerAgreement:
    """Alpha over every item with two or more answers; kappa over those with the most
    common number of answers (Fleiss' kappa needs the same number for every item)."""
    if not units:
        note = NOT_ENOUGH + ": no item has two answers"
        return AnswerAgreement(family, 0, None, None, None, None, 0, 0, note)
    sizes = np.array([len(u) for u in units])
    raters = int(np.bincount(sizes).argmax())
    table = agreement_table(units)
    same = table[sizes == raters]
    alpha, kappa = nominal_alpha(table), fleiss_kappa(same)

    def statistic(alpha_pos: Ints, kappa_pos: Ints) -> Floats:
        return np.vstack(
            [
                nominal_alpha_weighted(table, resample_weights(alpha_pos, table.shape[0])),
                fleiss_kappa_weighted(same, resample_weights(kappa_pos, same.shape[0])),
            ]
        )

    intervals: list[Interval | None] = [None, None]
    if len(units) >= 2:
        intervals = bootstrap_items(statistic, [table.shape[0], same.shape[0]], options)
    why: str | None = None
    if alpha is None:
        why = NOT_ENOUGH + ": every answer is the same, agreement is undefined"
    elif len(units) < 2:
        why = NOT_ENOUGH + ": one item with two answers, no interval"
    return AnswerAgreement(
        family=family,
        items=len(units),
        alpha=alpha,
        alpha_interval=intervals[0] if alpha is not None else None,
        kappa=kappa,
        kappa_interval=intervals[1] if kappa is not None and same.shape[0] >= 2 else None,
        kappa_items=int(same.shape[0]),
        kappa_raters=raters,
        note=why,
    )


def _people(
    outcomes: Outcomes, families: list[str]
) -> tuple[list[PersonAccuracy], list[PeopleSpread]]:
    scores: dict[tuple[str, str], list[float]] = defaultdict(list)
    for a in outcomes.humans:
        scores[a.person, outcomes.items[a.item][1]].append(a.score)
        scores[a.person, ALL].append(a.score)
    people = [
        PersonAccuracy(person, len(values), float(np.mean(values)))
        for (person, family), values in sorted(scores.items())
        if family == ALL
    ]
    spread = []
    for family in [*families, ALL]:
        accuracies = [float(np.mean(v)) for (_, f), v in scores.items() if f == family]
        if not accuracies:
            spread.append(PeopleSpread(family, 0, None, None, None, None, None))
            continue
        q1, median, q3 = np.percentile(accuracies, [25, 50, 75])
        spread.append(
            PeopleSpread(
                family,
                len(accuracies),
                float(median),
                float(q1),
                float(q3),
                min(accuracies),
                max(accuracies),
            )
        )
    return people, spread


def _realism(by_target: dict[str, list[int]], options: BootstrapOptions) -> list[RealismLevels]:
    targets = [
        (t, np.array([v for v in levels if v in SCALE], dtype=float))
        for t, levels in by_target.items()
    ]
    rated = [(t, levels) for t, levels in targets if levels.size]

    def statistic(*positions: Ints) -> Floats:
        rows = []
        for (_, levels), pos in zip(rated, positions):
            weights = resample_weights(pos, levels.size)
            total = weights.sum(axis=1)
            rows.append(weights @ (levels >= REALISTIC).astype(float) / total)
            rows.append(weights @ levels / total)
        return np.vstack(rows)

    intervals = bootstrap_items(statistic, [levels.size for _, levels in rated], options)
    interval_of = {t: intervals[2 * i : 2 * i + 2] for i, (t, _) in enumerate(rated)}
    rows = []
    for target, levels in targets:
        if not levels.size:
            empty = Rate(None, None, 0, NOT_ENOUGH + ": no rating on the scale")
            rows.append(RealismLevels(target, 0, empty, empty))
            continue
        share_ci, mean_ci = interval_of.get(target, [None, None])
        single = levels.size < 2
        note = NOT_ENOUGH + ": one rating, no interval" if single else None
        rows.append(
            RealismLevels(
                target,
                int(levels.size),
                Rate(
                    float((levels >= REALISTIC).mean()),
                    None if single else share_ci,
                    int(levels.size),
                    note,
                ),
                Rate(float(levels.mean()), None if single else mean_ci, int(levels.size), note),
            )
        )
    return rows


# ----------------------------------------------------------------- item response
def _difficulty(
    outcomes: Outcomes, humans: Cells, agents: dict[str, Cells], options: BootstrapOptions
) -> tuple[list[SolverAbility], list[ItemDifficulty]]:
    people = sorted({a.person for a in outcomes.humans})
    solvers = people + list(agents)
    kinds = ["person"] * len(people) + ["agent"] * len(agents)
    n_items = len(outcomes.items)
    # people: one cell per answer; agents: one binomial cell per item (its trials)
    person_of = {p: i for i, p in enumerate(people)}
    solver_parts = [np.array([person_of[a.person] for a in outcomes.humans], dtype=np.int64)]
    item_parts = [np.array([a.item for a in outcomes.humans], dtype=np.int64)]
    right_parts = [np.array([float(a.score >= RIGHT_FROM) for a in outcomes.humans])]
    trial_parts = [np.ones(len(outcomes.humans))]
    for position, cells in enumerate(agents.values(), start=len(people)):
        seen = np.flatnonzero(cells.attempted)
        solver_parts.append(np.full(seen.size, position, dtype=np.int64))
        item_parts.append(seen)
        right_parts.append(cells.right[seen])
        trial_parts.append(cells.counts[seen])
    solver = np.concatenate(solver_parts)
    item = np.concatenate(item_parts)
    right = np.concatenate(right_parts)
    trials = np.concatenate(trial_parts)
    fit = rasch_fit(solver, item, right, trials, len(solvers), n_items)
    if fit is None:
        return [], []
    z = normal_quantile(options.confidence)
    attempts_by_solver = np.bincount(solver, trials, minlength=len(solvers))
    abilities = [
        SolverAbility(
            name,
            kind,
            float(fit.ability[s]),
            Interval(
                float(fit.ability[s] - z * fit.ability_se[s]),
                float(fit.ability[s] + z * fit.ability_se[s]),
            ),
            int(attempts_by_solver[s]),
        )
        for s, (name, kind) in enumerate(zip(solvers, kinds))
    ]
    attempts = np.bincount(item, trials, minlength=n_items)
    successes = np.bincount(item, right, minlength=n_items)
    # the inverted-item rule: mean ability of solvers who solved vs those who missed
    solved = (2 * right > trials).astype(float)
    ability = fit.ability[solver]
    n_solved = np.bincount(item, solved, minlength=n_items)
    n_missed = np.bincount(item, 1 - solved, minlength=n_items)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_solved = np.bincount(item, ability * solved, minlength=n_items) / n_solved
        mean_missed = np.bincount(item, ability * (1 - solved), minlength=n_items) / n_missed
    difficulties = []
    for i, (idx, family) in enumerate(outcomes.items):
        if attempts[i] == 0:
            continue
        suspect = None
        if successes[i] == 0 and attempts[i] >= SUSPECT_MIN_ATTEMPTS:
            suspect = f"nobody solved it ({int(attempts[i])} attempts)"
        elif (
            n_solved[i] >= 2 and n_missed[i] >= 2 and mean_missed[i] - mean_solved[i] > SUSPECT_GAP
        ):
            suspect = (
                f"solved by less able solvers (mean ability {mean_solved[i]:.2f}) and "
                f"missed by more able ones ({mean_missed[i]:.2f})"
            )
        d, se = float(fit.difficulty[i]), float(fit.difficulty_se[i])
        difficulties.append(
            ItemDifficulty(
                idx,
                family,
                d,
                Interval(d - z * se, d + z * se),
                int(attempts[i]),
                int(successes[i]),
                suspect,
            )
        )
    return abilities, difficulties


def _item_times(outcomes: Outcomes) -> list[ItemTime]:
    active: dict[int, list[int]] = defaultdict(list)
    for a in outcomes.humans:
        if a.active_ms is not None:
            active[a.item].append(a.active_ms)
    turns: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in outcomes.agents:
        if r.turns is not None:
            turns[r.item][r.agent].append(r.turns)
    rows = []
    for i, (idx, family) in enumerate(outcomes.items):
        if i not in active and i not in turns:
            continue
        rows.append(
            ItemTime(
                idx,
                family,
                float(np.median(active[i])) / 1000 if active.get(i) else None,
                {agent: float(np.median(v)) for agent, v in sorted(turns.get(i, {}).items())},
            )
        )
    return rows


def rates_of(statistics: Statistics, solver: str) -> SolverRates | None:
    return next((r for r in statistics.rates if r.solver == solver), None)


def by_family(rows: Sequence[Comparison], agent: str) -> dict[str, Comparison]:
    return {r.family: r for r in rows if r.agent == agent}
