"""The study report as plain data: humans next to agents per task family, realism, audit.

Everything here is numbers and strings in dataclasses, so the terminal, the files
(`report_render.py`) and the app render the same thing. Conventions:
- No submission is never an answer (`scoring.NO_SUBMISSION`): an expired attempt (past
  the time limit, with or without a late answer) and an agent record without what CRMArena
  counts as a submission score 0 and count; skipped attempts are left out. Agreement and
  the disputed items use submitted answers only. Active time is over answered attempts.
- Agents: answers to the study's items only (same task Ids, same scorer), pooled over
  trials. pass^k uses exact-match families only (the paper leaves knowledge QA out). Each
  agent row counts its no-submission records and the records whose re-score differs from
  the reward CRMArena stored (the documentation's scoring section says why they may).
- "ALL" is the unweighted mean of the family scores; the humans' ALL interval is
  a Wilson interval at that value over all answered attempts.
- An answer is "wrong" for the audit when it scores below 0.5 (knowledge QA is F1).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from sqlmodel import Session, select

from crm_tui.study.results.analysis import (
    AgentRecord,
    HumanAnswer,
    Outcomes,
    Statistics,
    analyse,
)
from crm_tui.study.results.baseline import attempt_score, baseline, submission
from crm_tui.study.results.inference import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, BootstrapOptions
from crm_tui.study.results.paper_results import FRAMEWORK_LABELS, PaperRow, load_paper_results
from crm_tui.study.results.process import Process, build_process
from crm_tui.study.results.quality_report import QualityReport, build_quality
from crm_tui.study.results.refusals import RefusalRow, refusal_rows
from crm_tui.study.results.report_rows import (
    AgentPair,
    AttemptRow,
    agent_answer_rows,
)
from crm_tui.study.results.stats import (
    AlphaEstimate,
    Interval,
    Spread,
    krippendorff_alpha,
    mean_pairwise_agreement,
    median_iqr,
    pass_hat_k_curve,
    wilson_interval,
)
from crm_tui.study.results.turn_modes import TurnItemRow, TurnModeRow, turn_items, turn_modes
from crm_tui.study.store.models import (
    AuditFlag,
    RealismRating,
    Study,
    StudyItem,
    row_id,
)
from crm_tui.study.work.ratings import rating_targets
from crm_tui.study.work.studies import study_protocol
from crm_tui.tasks.families import Family
from crm_tui.tasks.pro_families import all_families, pro_families, pro_only_names
from crm_tui.tasks.pro_scoring import answer_key
from crm_tui.tasks.scoring import (
    all_score,
    gold_text,
    is_right,
    is_submission,
    score,
)
from crm_tui.tasks.taskset import CRMARENA

if TYPE_CHECKING:
    from crm_tui.study.adjudication.rescore import GoldComparison

ALL = "ALL"
# The paper's Table 2 column order (grouped by persona), then CRMArena-Pro's families in its
# order, used for every per-family listing.
SERVICE_ORDER = ("NCR", "HTU", "TCU", "NED", "PVI", "KQA", "TII", "MTA", "BRI")
FAMILY_ORDER = SERVICE_ORDER + tuple(pro_families()[name].abbrev for name in pro_only_names())
REALISTIC = 4  # "Realistic" on the 1-5 scale; 0 is "I don't know this object"
SCALE = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class HumanResult:
    answers: int
    accuracy: float | None
    interval: Interval | None
    active_ms: Spread | None
    agreement: float | None  # mean pairwise score between humans' answers to an item
    items_answered: int = 0  # items with at least one of the answers above


@dataclass(frozen=True)
class AgentResult:
    trials: int
    answers: int
    crmarena_success: float | None  # the reward in the source files
    rescored_success: float | None  # our scorer
    no_submission: int = 0  # records with no submission (error, max turns, ...): score 0
    differs_from_crmarena: int | None = None  # records re-scored unlike CRMArena's reward
    pass_hat_k: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class FamilyResult:
    family: str  # abbreviation (NCR ...) or "ALL"
    task: str | None  # internal task name; None for ALL
    items: int
    humans: HumanResult
    agents: dict[str, AgentResult]  # agent label -> result


@dataclass(frozen=True)
class Agent:
    label: str
    model: str
    strategy: str
    trials: int


@dataclass(frozen=True)
class RealismTarget:
    target: str  # "org" or an object's API name
    counts: dict[int, int]  # level 1..5 -> ratings
    dont_know: int
    realistic_share: float | None  # Realistic or better, among 1..5 ratings


@dataclass(frozen=True)
class Realism:
    annotators: int
    targets: list[RealismTarget]
    alpha: AlphaEstimate | None  # ordinal, units = targets, raters = annotators
    level_labels: dict[int, str]


@dataclass(frozen=True)
class FlagCount:
    category: str
    label: str
    flags: int
    items: int


@dataclass(frozen=True)
class DisputedItem:
    idx: int
    family: str
    gold: str | None
    answers: int
    wrong_share: float
    common_answer: str
    flags: int


@dataclass(frozen=True)
class Report:
    study: str
    org_fingerprint: str
    task_set_hash: str
    crmarena_task_set: bool
    annotators: int
    agents: list[Agent]
    families: list[FamilyResult]
    paper: list[PaperRow]  # reference rows, only for CRMArena's own task set
    realism: Realism
    flags: list[FlagCount]
    disputed: list[DisputedItem]
    process: Process | None = None  # how humans and agents solved (`process.py`)
    statistics: Statistics | None = None  # intervals, paired tests, agreement (`analysis.py`)
    quality: QualityReport | None = None  # consent, gate, check items, flags (`quality_report.py`)
    # single- vs multi-turn per family (`turn_modes.py`); None: no interactive items
    turn_modes: list[TurnModeRow] | None = None
    # Scores under the original and the latest audited gold (`adjudication/rescore.py`);
    # None until an adjudication made a task-set version.
    gold: GoldComparison | None = None
    # per item: details asked and time to the first useful query (`turn_modes.py`)
    turn_items: list[TurnItemRow] | None = None
    # over- and under-refusal (`refusals.py`); None: no confidentiality item, no refusal
    refusals: list[RefusalRow] | None = None
    # the exclusions in force (people, single attempts) and whether the figures keep them
    excluded_people: int = 0
    excluded_attempts: int = 0
    with_excluded: bool = False


@dataclass(frozen=True)
class ReportOptions:
    """How the report's intervals are made: their level, the bootstrap's resamples and
    its seed (None: the study's own seed, so a study's report is the same every time)."""

    confidence: float = DEFAULT_CONFIDENCE
    resamples: int = DEFAULT_RESAMPLES
    seed: int | None = None
    with_excluded: bool = False  # keep the people and attempts a coordinator excluded


def ordered_families() -> list[Family]:
    return sorted(all_families().values(), key=lambda f: FAMILY_ORDER.index(f.abbrev))


# One label per run_tasks.py strategy, the paper's names for the three it reports.
STRATEGY_LABELS = {
    **FRAMEWORK_LABELS,
    "tool_call_flex": "Function Calling (flex)",  # the tools plus SOQL/SOSL queries
    "tool_call_superface": "Function Calling (superface)",
}


@cache  # called once per agent record: a few labels for a hundred thousand records
def agent_label(model: str, strategy: str) -> str:
    return f"{model} {STRATEGY_LABELS.get(strategy, strategy)}"


def build_report(session: Session, study: Study, options: ReportOptions | None = None) -> Report:
    from crm_tui.study.adjudication.rescore import gold_comparison  # it imports this module

    options = options or ReportOptions()
    bootstrap = BootstrapOptions(
        confidence=options.confidence,
        resamples=options.resamples,
        seed=study.seed if options.seed is None else options.seed,
    )
    # The baseline: measured items only (never practice or check items), without the
    # people and attempts excluded unless asked.
    counted = baseline(session, study, with_excluded=options.with_excluded)
    items, answered = counted.items, counted.attempts
    attempts_by_item: dict[int, list[AttemptRow]] = defaultdict(list)
    for attempt in answered:
        attempts_by_item[attempt.item_id].append(attempt)
    study_idx = {item.idx for item in items}
    runs = [
        (run, answer)
        for run, answer in agent_answer_rows(session, study.task_set_hash)
        if answer.idx in study_idx
    ]
    flags = list(session.exec(select(AuditFlag).where(AuditFlag.study_id == study.id)))
    ratings = [
        r
        for r in session.exec(select(RealismRating).where(RealismRating.study_id == study.id))
        if counted.counts_person(r.annotator_id)
    ]
    crmarena = study.org_fingerprint == CRMARENA
    return Report(
        study=study.name,
        org_fingerprint=study.org_fingerprint,
        task_set_hash=study.task_set_hash,
        crmarena_task_set=crmarena,
        annotators=len({a.annotator_id for a in answered}),
        agents=_agents(runs),
        families=_family_results(items, attempts_by_item, runs),
        paper=load_paper_results() if crmarena else [],
        realism=_realism(study, ratings, bootstrap),
        flags=_flag_counts(study, flags),
        disputed=_disputed(items, attempts_by_item, flags),
        process=(
            process := build_process(session, items, answered, runs, agent_label, FAMILY_ORDER)
        ),
        statistics=analyse(_outcomes(study, items, answered, runs, ratings), bootstrap),
        quality=build_quality(session, study),
        turn_modes=turn_modes(
            session, study, {a.id for a in answered}, runs, agent_label, FAMILY_ORDER
        ),
        gold=gold_comparison(session, study, counted),
        turn_items=turn_items(study, process),
        refusals=refusal_rows(items, answered, runs, agent_label),
        excluded_people=len(counted.excluded.people),
        excluded_attempts=len(counted.excluded.attempts),
        with_excluded=options.with_excluded,
    )


def _outcomes(
    study: Study,
    items: list[StudyItem],
    answered: list[AttemptRow],
    runs: list[AgentPair],
    ratings: list[RealismRating],
) -> Outcomes:
    """The plain outcomes the statistics are computed from, items in the report's order."""
    abbrev = {f.name: f.abbrev for f in ordered_families()}
    ordered = sorted(items, key=lambda i: (FAMILY_ORDER.index(abbrev[i.task]), i.idx))
    position = {row_id(item): n for n, item in enumerate(ordered)}
    position_of_idx = {item.idx: n for n, item in enumerate(ordered)}
    task_of = {row_id(item): item.task for item in items}
    levels: dict[str, list[int]] = defaultdict(list)
    for rating in ratings:
        levels[rating.target].append(rating.level)
    asked = rating_targets(study)  # the realism table's order: as asked, then the others
    order = [t for t in asked if t in levels] + sorted(set(levels) - set(asked))
    return Outcomes(
        items=[(item.idx, abbrev[item.task]) for item in ordered],
        exact_match=frozenset(
            f.abbrev for f in all_families().values() if f.metric == "exact_match"
        ),
        humans=[
            HumanAnswer(
                item=position[a.item_id],
                person=f"annotator {a.annotator_id}",
                score=attempt_score(a),
                answer=answer_key(task_of[a.item_id], a.answer_normalised or "None")
                if is_submission(submission(a))
                else None,
                active_ms=a.active_ms,
            )
            for a in answered
            if a.item_id in position
        ],
        agents=[
            AgentRecord(
                agent=agent_label(run.model, run.strategy),
                item=position_of_idx[answer.idx],
                trial=run.trial,
                score=answer.score,
                turns=answer.turns,
            )
            for run, answer in runs
        ],
        realism={target: levels[target] for target in order},
    )


# ----------------------------------------------------------------- performance
def _agents(runs: list[AgentPair]) -> list[Agent]:
    trials: dict[tuple[str, str], set[int]] = defaultdict(set)
    for run, _ in runs:
        trials[run.model, run.strategy].add(run.trial)
    return [Agent(agent_label(m, s), m, s, len(t)) for (m, s), t in sorted(trials.items())]


def _family_results(
    items: list[StudyItem],
    attempts_by_item: dict[int, list[AttemptRow]],
    runs: list[AgentPair],
) -> list[FamilyResult]:
    runs_by_task: dict[str, list[AgentPair]] = defaultdict(list)
    for run, answer in runs:
        runs_by_task[answer.task].append((run, answer))
    rows = []
    for family in ordered_families():
        name = family.name
        family_items = [item for item in items if item.task == name]
        if not family_items:
            continue
        attempts = [a for item in family_items for a in attempts_by_item[row_id(item)]]
        rows.append(
            FamilyResult(
                family=family.abbrev,
                task=name,
                items=len(family_items),
                humans=_humans(family_items, attempts_by_item, attempts),
                agents=_agent_results(runs_by_task[name]),
            )
        )
    if rows:
        rows.append(_all_row(rows, items, attempts_by_item, runs))
    return rows


def _humans(
    items: list[StudyItem],
    attempts_by_item: dict[int, list[AttemptRow]],
    attempts: list[AttemptRow],
) -> HumanResult:
    scores = [attempt_score(a) for a in attempts]
    accuracy = sum(scores) / len(scores) if scores else None
    groups = [(item.task, _submissions(attempts_by_item[row_id(item)])) for item in items]
    agreement = mean_pairwise_agreement(
        [[(task, answer) for answer in answers] for task, answers in groups],
        lambda a, b: _pair_score(a[0], a[1], b[1]),
    )
    return HumanResult(
        answers=len(scores),
        accuracy=accuracy,
        interval=wilson_interval(sum(scores), len(scores)),
        active_ms=median_iqr([a.active_ms for a in attempts if a.active_ms is not None]),
        agreement=agreement,
        items_answered=sum(bool(attempts_by_item[row_id(item)]) for item in items),
    )


@lru_cache(maxsize=1 << 16)  # each family's pairs come again in ALL
def _pair_score(task: str, answer: str, other: str) -> float:
    return score(task, answer, other)


def _submissions(attempts: list[AttemptRow]) -> list[str]:
    return [answer for a in attempts if (answer := submission(a)) is not None]


def _agent_results(runs: list[AgentPair]) -> dict[str, AgentResult]:
    """Per agent; pass^k counts exact-match answers only (knowledge QA's F1 is no pass)."""
    by_agent: dict[str, list[AgentPair]] = defaultdict(list)
    for run, answer in runs:
        by_agent[agent_label(run.model, run.strategy)].append((run, answer))
    exact = {name for name, family in all_families().items() if family.metric == "exact_match"}
    results = {}
    for label, pairs in sorted(by_agent.items()):
        # one pass over the records; each sum below adds the same values in the same order
        rewards: list[float] = []
        differs = 0
        scores: list[float] = []
        trials: set[int] = set()
        no_submission = 0
        outcomes: dict[int, list[bool]] = defaultdict(list)
        for run, a in pairs:
            trials.add(run.trial)
            scores.append(a.score)
            if a.crmarena_reward is not None:
                rewards.append(a.crmarena_reward)
                differs += abs(a.score - a.crmarena_reward) > 1e-9
            if not is_submission(a.answer):
                no_submission += 1
            if a.task in exact:
                outcomes[a.idx].append(a.score >= 1.0)
        results[label] = AgentResult(
            trials=len(trials),
            answers=len(pairs),
            crmarena_success=sum(rewards) / len(rewards) if rewards else None,
            rescored_success=sum(scores) / len(pairs),
            no_submission=no_submission,
            differs_from_crmarena=differs if rewards else None,
            pass_hat_k=pass_hat_k_curve(list(outcomes.values())),
        )
    return results


def _all_row(
    rows: list[FamilyResult],
    items: list[StudyItem],
    attempts_by_item: dict[int, list[AttemptRow]],
    runs: list[AgentPair],
) -> FamilyResult:
    attempts = [a for item in items for a in attempts_by_item[row_id(item)]]
    pooled = _humans(items, attempts_by_item, attempts)
    accuracy = _all_of({r.family: r.humans.accuracy for r in rows})
    humans = HumanResult(
        answers=pooled.answers,
        accuracy=accuracy,
        interval=None
        if accuracy is None
        else wilson_interval(accuracy * pooled.answers, pooled.answers),
        active_ms=pooled.active_ms,
        agreement=pooled.agreement,
        items_answered=pooled.items_answered,
    )
    agents = {}
    for label, overall in _agent_results(runs).items():
        per_family = {r.family: r.agents[label] for r in rows if label in r.agents}
        agents[label] = AgentResult(
            trials=overall.trials,
            answers=overall.answers,
            crmarena_success=_all_of({f: r.crmarena_success for f, r in per_family.items()}),
            rescored_success=_all_of({f: r.rescored_success for f, r in per_family.items()}),
            no_submission=overall.no_submission,
            differs_from_crmarena=overall.differs_from_crmarena,
            pass_hat_k=overall.pass_hat_k,
        )
    return FamilyResult(family=ALL, task=None, items=len(items), humans=humans, agents=agents)


def _all_of(per_family: dict[str, float | None]) -> float | None:
    present = {family: value for family, value in per_family.items() if value is not None}
    return all_score(present) if present else None


# ----------------------------------------------------------------- realism
def _realism(study: Study, ratings: list[RealismRating], options: BootstrapOptions) -> Realism:
    questionnaire = study_protocol(study).questionnaire
    labels = {level.level: level.label for level in questionnaire.levels}
    by_target: dict[str, list[int]] = defaultdict(list)
    for rating in ratings:
        by_target[rating.target].append(rating.level)
    asked = rating_targets(study)
    order = [t for t in asked if t in by_target] + sorted(set(by_target) - set(asked))
    targets = []
    for target in order:
        levels = Counter(by_target[target])
        on_scale = sum(levels[level] for level in SCALE)
        realistic = sum(levels[level] for level in SCALE if level >= REALISTIC)
        targets.append(
            RealismTarget(
                target=target,
                counts={level: levels[level] for level in SCALE},
                dont_know=levels[0],
                realistic_share=realistic / on_scale if on_scale else None,
            )
        )
    units = [[level for level in by_target[target] if level in SCALE] for target in order]
    return Realism(
        annotators=len({r.annotator_id for r in ratings}),
        targets=targets,
        alpha=krippendorff_alpha(
            units,
            level="ordinal",
            value_domain=SCALE,
            bootstrap=options.resamples,
            seed=options.seed,
            confidence=options.confidence,
        ),
        level_labels=labels,
    )


# ----------------------------------------------------------------- audit
def _flag_counts(study: Study, flags: list[AuditFlag]) -> list[FlagCount]:
    taxonomy = study_protocol(study).taxonomy
    counts = []
    for category in taxonomy.categories:
        matching = [f for f in flags if f.category == category.key]
        counts.append(
            FlagCount(
                category=category.key,
                label=category.label,
                flags=len(matching),
                items=len({f.item_id for f in matching}),
            )
        )
    return counts


def _gold_text(gold: str | list[str | None] | None) -> str | None:
    return None if gold is None else gold_text(gold)


def _disputed(
    items: list[StudyItem], attempts_by_item: dict[int, list[AttemptRow]], flags: list[AuditFlag]
) -> list[DisputedItem]:
    """Items answered by at least two people, most of them wrong: candidate bad golds."""
    flags_per_item = Counter(f.item_id for f in flags)
    disputed = []
    for item in sorted(items, key=lambda i: i.idx):
        # a late or missing answer says nothing about the gold: submissions only
        attempts = [a for a in attempts_by_item[row_id(item)] if is_submission(submission(a))]
        if len(attempts) < 2:
            continue
        wrong = sum(not is_right(attempt_score(a)) for a in attempts) / len(attempts)
        if wrong <= 0.5:
            continue
        common, _ = Counter(a.answer_normalised or "None" for a in attempts).most_common(1)[0]
        disputed.append(
            DisputedItem(
                idx=item.idx,
                family=all_families()[item.task].abbrev,
                gold=_gold_text(json.loads(item.gold_json)),
                answers=len(attempts),
                wrong_share=wrong,
                common_answer=common,
                flags=flags_per_item[row_id(item)],
            )
        )
    return disputed
