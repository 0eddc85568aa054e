"""Scores under the original gold and under the latest audited version, side by side.

People's answers (submitted, and expired ones as no submission) and agents' answers to the
study's queries are scored afresh by the one scorer against each gold; a dropped query
leaves the corrected columns. "ALL" is the unweighted mean of the family scores, as in
the report.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from sqlmodel import Session, select

from crm_tui.study.adjudication.queue import study_taskset, version_taskset, versions
from crm_tui.study.results.agent_runs import agent_answers
from crm_tui.study.results.summary import ALL, agent_label, ordered_families
from crm_tui.study.store.models import Attempt, AttemptStatus, Study, StudyItem, row_id
from crm_tui.tasks.pro_scoring import score_instance
from crm_tui.tasks.scoring import NO_SUBMISSION, all_score
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


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _all(values: Mapping[str, float | None]) -> float | None:
    present = {k: v for k, v in values.items() if v is not None}
    return all_score(present) if present else None


def gold_comparison(session: Session, study: Study) -> GoldComparison | None:
    """None until the study has an audited version."""
    if not versions(session, row_id(study)):
        return None
    original = {inst.idx: inst for inst in study_taskset(session, study).instances}
    corrected_set, info = version_taskset(session, study)
    corrected = {inst.idx: inst for inst in corrected_set.instances}
    decisions = {change.idx: change.decision for change in info.changes}
    idx_of = {
        row_id(item): item.idx
        for item in session.exec(select(StudyItem).where(StudyItem.study_id == study.id))
    }
    answers: dict[int, list[tuple[str, str | None]]] = defaultdict(list)  # idx -> (who, answer)
    for attempt in session.exec(select(Attempt).where(Attempt.study_id == study.id)):
        if attempt.status == AttemptStatus.SUBMITTED:
            answers[idx_of[attempt.item_id]].append(("", attempt.answer_raw))
        elif attempt.status == AttemptStatus.EXPIRED:
            answers[idx_of[attempt.item_id]].append(("", NO_SUBMISSION))
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
