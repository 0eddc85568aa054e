"""Scores under the original gold and under the latest audited version, side by side.

The report's baseline (`results/baseline.py`): people's answers to the measured queries
(submitted, and expired ones as no submission), without the exclusions unless they are
kept, and agents' answers to the same queries, scored afresh by the one scorer against
each gold; a dropped query leaves the corrected columns. So the original column is the
report's own figure. "ALL" is the unweighted mean of the family scores, as in the report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from sqlmodel import Session

from crm_tui.study.adjudication.queue import study_taskset, version_taskset, versions
from crm_tui.study.results.agent_runs import agent_answers
from crm_tui.study.results.baseline import Baseline, baseline, submission
from crm_tui.study.results.summary import ALL, agent_label, ordered_families
from crm_tui.study.store.models import Study, row_id
from crm_tui.tasks.pro_scoring import score_instance
from crm_tui.tasks.scoring import all_score
from crm_tui.tasks.versions import CORRECT, DROP

Side = tuple[float | None, float | None]  # (under the original gold, under the corrected)


@dataclass(frozen=True)
class GoldRow:
    family: str  # abbreviation, or ALL
    items: int  # under the original gold
    corrected: int
    dropped: int
    humans: Side
    agents: dict[str, Side]


@dataclass(frozen=True)
class GoldComparison:
    version: int
    parent_hash: str
    content_hash: str
    agents: list[str]
    rows: list[GoldRow]
    with_excluded: bool = False  # the people and attempts a coordinator excluded kept in


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _all(values: Mapping[str, float | None]) -> float | None:
    present = {k: v for k, v in values.items() if v is not None}
    return all_score(present) if present else None


def gold_comparison(
    session: Session, study: Study, counted: Baseline | None = None, *, with_excluded: bool = False
) -> GoldComparison | None:
    """None until the study has an audited version. `counted`: the baseline, when the
    caller has it (else read here, keeping the exclusions when `with_excluded`)."""
    if not versions(session, row_id(study)):
        return None
    counted = counted or baseline(session, study, with_excluded=with_excluded)
    measured = {item.idx for item in counted.items}
    original = {
        inst.idx: inst for inst in study_taskset(session, study).instances if inst.idx in measured
    }
    corrected_set, info = version_taskset(session, study)
    corrected = {inst.idx: inst for inst in corrected_set.instances}
    decisions = {change.idx: change.decision for change in info.changes}
    idx_of = {row_id(item): item.idx for item in counted.items}
    answers: dict[int, list[tuple[str, str | None]]] = defaultdict(list)  # idx -> (who, answer)
    for attempt in counted.attempts:
        answers[idx_of[attempt.item_id]].append(("", submission(attempt)))
    labels: set[str] = set()
    for run, answer in agent_answers(session, study.task_set_hash):
        if answer.idx in original:
            label = agent_label(run.model, run.strategy)
            labels.add(label)
            answers[answer.idx].append((label, answer.answer))
    rows = []
    for family in ordered_families():
        idxs = sorted(i for i, inst in original.items() if inst.task == family.name)
        if not idxs:
            continue
        scored: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
        for idx in idxs:
            for who, given in answers[idx]:
                before, after = scored[who]
                before.append(score_instance(original[idx], given))
                if idx in corrected:
                    after.append(score_instance(corrected[idx], given))
        humans = scored.get("", ([], []))
        rows.append(
            GoldRow(
                family=family.abbrev,
                items=len(idxs),
                corrected=sum(decisions.get(i) == CORRECT for i in idxs),
                dropped=sum(decisions.get(i) == DROP for i in idxs),
                humans=(_mean(humans[0]), _mean(humans[1])),
                agents={
                    label: (_mean(scored[label][0]), _mean(scored[label][1]))
                    for label in sorted(labels)
                    if label in scored
                },
            )
        )
    if rows:
        rows.append(
            GoldRow(
                family=ALL,
                items=sum(r.items for r in rows),
                corrected=sum(r.corrected for r in rows),
                dropped=sum(r.dropped for r in rows),
                humans=(
                    _all({r.family: r.humans[0] for r in rows}),
                    _all({r.family: r.humans[1] for r in rows}),
                ),
                agents={
                    label: (
                        _all({r.family: r.agents.get(label, (None, None))[0] for r in rows}),
                        _all({r.family: r.agents.get(label, (None, None))[1] for r in rows}),
                    )
                    for label in sorted(labels)
                },
            )
        )
    return GoldComparison(
        version=info.number,
        parent_hash=info.parent_hash,
        content_hash=info.content_hash,
        agents=sorted(labels),
        rows=rows,
        with_excluded=counted.with_excluded,
    )


def _cell(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}"


def comparison_lines(comparison: GoldComparison) -> list[list[str]]:
    """The comparison as table rows (header first), for the terminal, the files and the app."""
    header = ["Family", "Queries", "Corrected", "Dropped", "Humans (original → corrected)"]
    header += [f"{label} (original → corrected)" for label in comparison.agents]
    lines = [header]
    for row in comparison.rows:
        line = [row.family, f"{row.items:,}", str(row.corrected), str(row.dropped)]
        line.append(f"{_cell(row.humans[0])} → {_cell(row.humans[1])}")
        for label in comparison.agents:
            before, after = row.agents.get(label, (None, None))
            line.append(f"{_cell(before)} → {_cell(after)}")
        lines.append(line)
    return lines
