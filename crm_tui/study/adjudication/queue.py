"""The adjudication queue, decisions on gold and the task-set versions they make.

Adjudicators are coordinators and auditors (the profiles that see gold). The queue holds
the flagged queries and those where at least two people gave the same answer and it is not
the gold, ordered by the weight of evidence:
- each flag weighs 1, and 1 more when it suggests an answer;
- the largest group of people agreeing on an answer other than the gold weighs 1 a person
  (from two people up) and 0.5 an agent answer in the same group.
People's answers are those the report counts (`results/baseline.py`): measured queries
only, never a practice or check answer, and nothing a coordinator excluded.
Undecided queries come first. A decision (keep, correct with a new gold checked against
the family's answer type, or drop) names a category of the study's audit taxonomy and a
note; who and when are stored, and deciding again adds a row. Each person's latest
decision counts; without the two-person rule the latest of all is in force, with it a
correction or a drop is in force once two people's latest decisions agree on it.
A version applies the decisions in force to the study's own task set (its parent): a new
set, stored whole with its change log; nothing is edited in place.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.results.agent_runs import agent_answers
from crm_tui.study.results.baseline import baseline
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import (
    Adjudication,
    Annotator,
    AttemptStatus,
    AuditFlag,
    Mode,
    Study,
    StudyItem,
    TaskSetVersion,
    row_id,
)
from crm_tui.study.work.profiles import find_profile, require_mode
from crm_tui.study.work.studies import get_study, study_protocol
from crm_tui.tasks.gold_queries import GoldQuery, gold_queries
from crm_tui.tasks.scoring import score
from crm_tui.tasks.taskset import CRMARENA, Gold, Instance, TaskSet, gold_fields, sealed
from crm_tui.tasks.versions import (
    CORRECT,
    DECISIONS,
    DROP,
    KEEP,
    Change,
    apply_changes,
    changes_json,
    changes_of,
    checked_gold,
)

ADJUDICATORS = (Mode.COORDINATOR, Mode.AUDITOR)
RIGHT_FROM = 0.5  # an answer this close to the gold agrees with it (knowledge QA is F1)
AGENT_WEIGHT = 0.5
HIDDEN_EXTRA = {"org", "taskset_hash", "persona", "answer_type"}  # known without the card


@dataclass(frozen=True)
class AnswerGroup:
    """Answers that score as the same answer, with who gave them."""

    answer: str | None  # None: the None answer
    humans: int
    agents: int
    agrees_with_gold: bool


@dataclass(frozen=True)
class QueueFlag:
    annotator: str
    category: str
    comment: str | None
    suggested_answer: str | None


@dataclass(frozen=True)
class Decision:
    adjudicator: str
    decision: str
    category: str
    new_gold: Gold
    note: str | None
    decided_at: str  # ISO 8601, UTC


@dataclass(frozen=True)
class QueueItem:
    item_id: int
    idx: int
    task: str
    query: str
    gold: Gold
    weight: float
    reasons: tuple[str, ...]
    answers: tuple[AnswerGroup, ...]
    flags: tuple[QueueFlag, ...]
    derivation: dict[str, Any]  # how the gold was made: the `crm_tui` metadata, `required`
    decisions: tuple[Decision, ...]  # oldest first
    status: str  # open, kept, corrected, dropped, awaiting a second adjudicator
    # The SOQL showing the rows the gold rests on (generated task sets; `gold_queries.py`).
    gold_queries: tuple[GoldQuery, ...] = ()

    @property
    def decided(self) -> bool:
        return self.status != "open"


@dataclass(frozen=True)
class VersionInfo:
    number: int
    parent_hash: str
    content_hash: str
    changes: tuple[Change, ...]
    made_by: str
    made_at: str
    instances: int

    @property
    def summary(self) -> str:
        counts = {d: sum(c.decision == d for c in self.changes) for d in DECISIONS}
        return (
            f"version {self.number} ({self.content_hash[:12]}, {self.instances:,} queries): "
            f"{counts[CORRECT]} corrected, {counts[DROP]} dropped, {counts[KEEP]} kept"
        )


# ----------------------------------------------------------------- the original set
def study_taskset(session: Session, study: Study) -> TaskSet:
    """The study's task set, rebuilt from its items (the parent of every version)."""
    instances = []
    for item in session.exec(select(StudyItem).where(StudyItem.study_id == study.id)):
        metadata = json.loads(item.metadata_json)
        answer, answer_list = gold_fields(json.loads(item.gold_json))
        instances.append(
            Instance(
                item.idx,
                item.task,
                item.query,
                answer,
                metadata.get("required", ""),
                metadata.get("optional", ""),
                item.reward_metric,
                json.loads(item.extra_json) if item.extra_json else {},
                answer_list,
            )
        )
    instances.sort(key=lambda i: i.idx)
    return TaskSet(instances, study.org_fingerprint)


# ----------------------------------------------------------------- the queue
def _grouped(
    task: str, gold: str | None, humans: list[str | None], agents: list[str | None]
) -> list[AnswerGroup]:
    """Answers grouped as the scorer sees them (an answer joins the first group it matches)."""
    representatives: list[str | None] = []
    counts: list[list[int]] = []
    for who, answers in ((0, humans), (1, agents)):
        for answer in answers:
            text = "None" if answer is None else answer
            at = next(
                (i for i, rep in enumerate(representatives) if score(task, text, rep) >= 1.0),
                None,
            )
            if at is None:
                representatives.append(answer)
                counts.append([0, 0])
                at = len(representatives) - 1
            counts[at][who] += 1
    groups = [
        AnswerGroup(
            rep,
            humans_n,
            agents_n,
            score(task, "None" if rep is None else rep, gold) >= RIGHT_FROM,
        )
        for rep, (humans_n, agents_n) in zip(representatives, counts)
    ]
    return sorted(groups, key=lambda g: (-g.humans - g.agents, str(g.answer)))


def _gold_queries(item: StudyItem) -> tuple[GoldQuery, ...]:
    extra = json.loads(item.extra_json) if item.extra_json else {}
    params = extra.get("params") if isinstance(extra, dict) else None
    return tuple(gold_queries(item.task, params if isinstance(params, dict) else None))


def _derivation(item: StudyItem) -> dict[str, Any]:
    extra: dict[str, Any] = json.loads(item.extra_json) if item.extra_json else {}
    shown = {k: v for k, v in sorted(extra.items()) if k not in HIDDEN_EXTRA}
    required = json.loads(item.metadata_json).get("required")
    if required:
        shown["required"] = required
    return shown


def _weight(groups: list[AnswerGroup], flags: list[QueueFlag]) -> tuple[float, list[str]]:
    weight = float(sum(1 + (f.suggested_answer is not None) for f in flags))
    reasons = [f"{len(flags)} flag{'s' * (len(flags) != 1)}"] if flags else []
    against = [g for g in groups if not g.agrees_with_gold and g.humans >= 2]
    if against:
        top = max(against, key=lambda g: (g.humans, g.agents))
        weight += top.humans + AGENT_WEIGHT * top.agents
        agents = f" and {top.agents} agent answer{'s' * (top.agents != 1)}" if top.agents else ""
        reasons.append(f"{top.humans} people{agents} agree on {top.answer!r}, not the gold")
    return weight, reasons


def _latest_by_person(rows: list[Adjudication]) -> dict[int, Adjudication]:
    latest: dict[int, Adjudication] = {}
    for row in sorted(rows, key=row_id):
        latest[row.annotator_id] = row
    return latest


def _in_force(rows: list[Adjudication], two_person: bool) -> tuple[Adjudication, list[int]] | None:
    """The decision in force on an item and who made it, or None (none yet, or a change
    still waiting for a second adjudicator)."""
    if not rows:
        return None
    latest = max(rows, key=row_id)
    if not two_person or latest.decision == KEEP:
        return latest, [latest.annotator_id]
    agreeing = [
        row
        for row in _latest_by_person(rows).values()
        if row.decision == latest.decision and _same_gold(row, latest)
    ]
    if len(agreeing) < 2:
        return None
    return latest, sorted(row.annotator_id for row in agreeing)


def _same_gold(a: Adjudication, b: Adjudication) -> bool:
    if a.decision != CORRECT:
        return True
    return a.new_gold_json == b.new_gold_json  # both written by json.dumps


def _status(rows: list[Adjudication], two_person: bool) -> str:
    if not rows:
        return "open"
    in_force = _in_force(rows, two_person)
    if in_force is None:
        return "awaiting a second adjudicator"
    return {KEEP: "kept", CORRECT: "corrected", DROP: "dropped"}[in_force[0].decision]


def _iso(row: Adjudication) -> str:
    stamp = row.decided_at
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.astimezone(UTC).isoformat(timespec="seconds")


def adjudication_queue(store: StudyStore, study_id: int, actor_id: int) -> list[QueueItem]:
    """The queue (flagged queries, people agreeing against the gold), heaviest evidence
    first, decided queries last."""
    with store.transaction(snapshot=True) as session:
        require_mode(session, actor_id, *ADJUDICATORS)
        study = get_study(session, study_id)
        two_person = study_protocol(study).two_person_rule
        names = dict(session.exec(select(Annotator.id, Annotator.name)).all())
        humans: dict[int, list[str | None]] = defaultdict(list)
        for attempt in baseline(session, study).attempts:  # never a practice or check answer
            if attempt.status == AttemptStatus.SUBMITTED:
                humans[attempt.item_id].append(attempt.answer_raw)
        agents: dict[int, list[str | None]] = defaultdict(list)
        for _, answer in agent_answers(session, study.task_set_hash):
            if answer.answer is not None:  # no submission says nothing about the gold
                agents[answer.idx].append(answer.answer)
        flags: dict[int, list[QueueFlag]] = defaultdict(list)
        for flag in session.exec(
            select(AuditFlag).where(AuditFlag.study_id == study_id).order_by(col(AuditFlag.id))
        ):
            flags[flag.item_id].append(
                QueueFlag(
                    names[flag.annotator_id], flag.category, flag.comment, flag.suggested_answer
                )
            )
        decisions = _decisions(session, study_id)
        queue = []
        for item in session.exec(select(StudyItem).where(StudyItem.study_id == study_id)):
            item_id = row_id(item)
            gold = json.loads(item.gold_json)
            groups = _grouped(item.task, gold, humans[item_id], agents[item.idx])
            weight, reasons = _weight(groups, flags[item_id])
            rows = decisions.get(item_id, [])
            if not reasons and not rows:
                continue
            queue.append(
                QueueItem(
                    item_id=item_id,
                    idx=item.idx,
                    task=item.task,
                    query=item.query,
                    gold=gold,
                    weight=weight,
                    reasons=tuple(reasons),
                    answers=tuple(groups),
                    flags=tuple(flags[item_id]),
                    derivation=_derivation(item),
                    gold_queries=_gold_queries(item),
                    decisions=tuple(
                        Decision(
                            names[r.annotator_id],
                            r.decision,
                            r.category,
                            json.loads(r.new_gold_json) if r.new_gold_json else None,
                            r.note,
                            _iso(r),
                        )
                        for r in sorted(rows, key=row_id)
                    ),
                    status=_status(rows, two_person),
                )
            )
        return sorted(queue, key=lambda q: (q.decided, -q.weight, q.idx))


def _decisions(session: Session, study_id: int) -> dict[int, list[Adjudication]]:
    rows: dict[int, list[Adjudication]] = defaultdict(list)
    for row in session.exec(select(Adjudication).where(Adjudication.study_id == study_id)):
        rows[row.item_id].append(row)
    return rows


# ----------------------------------------------------------------- decisions
def adjudicator_id(store: StudyStore, name: str) -> int:
    """The profile id of adjudicator `name` (the CLI's --as)."""
    with store.transaction() as session:
        profile = find_profile(session, name)
        if profile is None:
            raise CrmTuiError(f"no profile named {name!r}")
        return row_id(require_mode(session, row_id(profile), *ADJUDICATORS))


def decide(
    store: StudyStore,
    study_id: int,
    actor_id: int,
    idx: int,
    decision: str,
    category: str,
    note: str | None = None,
    new_gold: str | None = None,
    task_set: str | None = None,
) -> Decision:
    """Record a decision on query `idx` of the study's task set (`task_set`, if given, must
    be that set's hash or one of its versions'). A correction's gold must fit the family."""
    note = (note or "").strip() or None
    with store.transaction() as session:
        adjudicator = require_mode(session, actor_id, *ADJUDICATORS)
        study = get_study(session, study_id)
        lock(session, "adjudication", study_id)
        if task_set is not None and task_set not in _known_hashes(session, study):
            raise CrmTuiError(
                f"task set {task_set[:12]} is not study {study.name!r}'s "
                f"({study.task_set_hash[:12]}) nor one of its versions: nothing was decided"
            )
        if decision not in DECISIONS:
            raise CrmTuiError(f"decision {decision!r}: use {', '.join(DECISIONS)}")
        study_protocol(study).category(category)
        item = session.exec(
            select(StudyItem).where(StudyItem.study_id == study_id, StudyItem.idx == idx)
        ).first()
        if item is None:
            raise CrmTuiError(
                f"query {idx} is not in study {study.name!r}'s task set: nothing was decided"
            )
        gold_json = None
        if decision == CORRECT:
            corrected = checked_gold(item.task, new_gold)
            if corrected == json.loads(item.gold_json):
                raise CrmTuiError(
                    f"query {idx}: the correction equals the gold; decide keep instead"
                )
            gold_json = json.dumps(corrected)
        elif new_gold is not None:
            raise CrmTuiError(f"a new gold goes with a correction, not with {decision}")
        row = Adjudication(
            study_id=study_id,
            item_id=row_id(item),
            annotator_id=actor_id,
            decision=decision,
            category=category,
            new_gold_json=gold_json,
            note=note,
            decided_at=store.now()[0],
        )
        session.add(row)
        session.flush()
        return Decision(
            adjudicator.name,
            decision,
            category,
            json.loads(gold_json) if gold_json else None,
            note,
            _iso(row),
        )


def _known_hashes(session: Session, study: Study) -> set[str]:
    versions = session.exec(
        select(TaskSetVersion.content_hash).where(TaskSetVersion.study_id == study.id)
    )
    return {study.task_set_hash, *versions}


# ----------------------------------------------------------------- versions
def changes_in_force(session: Session, study: Study) -> list[Change]:
    """A Change for each query with a decision in force, in idx order."""
    two_person = study_protocol(study).two_person_rule
    names = dict(session.exec(select(Annotator.id, Annotator.name)).all())
    items = {
        row_id(item): item
        for item in session.exec(select(StudyItem).where(StudyItem.study_id == study.id))
    }
    changes = []
    for item_id, rows in _decisions(session, row_id(study)).items():
        in_force = _in_force(rows, two_person)
        if in_force is None:
            continue
        row, who = in_force
        item = items[item_id]
        changes.append(
            Change(
                idx=item.idx,
                task=item.task,
                decision=row.decision,
                category=row.category,
                note=row.note,
                old_gold=json.loads(item.gold_json),
                new_gold=json.loads(row.new_gold_json) if row.new_gold_json else None,
                decided_by=tuple(names[i] for i in who),
                decided_at=_iso(row),
            )
        )
    return sorted(changes, key=lambda c: c.idx)


def make_version(store: StudyStore, study_id: int, actor_id: int) -> VersionInfo:
    """A new task-set version from the decisions in force; refused when nothing changed
    since the latest version."""
    with store.transaction() as session:
        maker = require_mode(session, actor_id, *ADJUDICATORS)
        study = get_study(session, study_id)
        lock(session, "adjudication", study_id)
        changes = changes_in_force(session, study)
        if not changes:
            raise CrmTuiError(f"study {study.name!r} has no decisions in force: no version made")
        parent = study_taskset(session, study)
        corrected = apply_changes(parent, changes)
        latest = _version_rows(session, study_id)
        if latest and changes_of(json.loads(latest[-1].changes_json)) == changes:
            raise CrmTuiError(
                f"nothing was decided since version {latest[-1].number}: no version made"
            )
        row = TaskSetVersion(
            study_id=study_id,
            number=(latest[-1].number if latest else 0) + 1,
            parent_hash=parent.content_hash,
            content_hash=corrected.content_hash,
            rows_json=json.dumps(
                [inst.to_row() for inst in corrected.instances], ensure_ascii=False
            ),
            changes_json=json.dumps(changes_json(changes), ensure_ascii=False),
            made_by=actor_id,
            made_at=store.now()[0],
        )
        session.add(row)
        session.flush()
        return _info(row, maker.name)


def _version_rows(session: Session, study_id: int) -> list[TaskSetVersion]:
    return list(
        session.exec(
            select(TaskSetVersion)
            .where(TaskSetVersion.study_id == study_id)
            .order_by(col(TaskSetVersion.number))
        )
    )


def _info(row: TaskSetVersion, maker: str) -> VersionInfo:
    stamp = row.made_at if row.made_at.tzinfo else row.made_at.replace(tzinfo=UTC)
    return VersionInfo(
        number=row.number,
        parent_hash=row.parent_hash,
        content_hash=row.content_hash,
        changes=tuple(changes_of(json.loads(row.changes_json))),
        made_by=maker,
        made_at=stamp.astimezone(UTC).isoformat(timespec="seconds"),
        instances=len(json.loads(row.rows_json)),
    )


def versions(session: Session, study_id: int) -> list[VersionInfo]:
    names = dict(session.exec(select(Annotator.id, Annotator.name)).all())
    return [_info(row, names[row.made_by]) for row in _version_rows(session, study_id)]


def version_taskset(
    session: Session, study: Study, number: int | None = None
) -> tuple[TaskSet, VersionInfo]:
    """Version `number` (the latest when None) as a task set, with its record."""
    rows = _version_rows(session, row_id(study))
    if not rows:
        raise CrmTuiError(
            f"study {study.name!r} has no audited version yet: make one in the "
            "adjudication queue or with `crm-tui audit version`"
        )
    chosen = rows[-1] if number is None else next((r for r in rows if r.number == number), None)
    if chosen is None:
        raise CrmTuiError(
            f"study {study.name!r} has no version {number} (versions 1-{rows[-1].number})"
        )
    instances = [_instance(data) for data in json.loads(chosen.rows_json)]
    taskset = sealed(instances, study.org_fingerprint or CRMARENA)
    if taskset.content_hash != chosen.content_hash:
        raise CrmTuiError(f"version {chosen.number} of study {study.name!r} is damaged")
    names = dict(session.exec(select(Annotator.id, Annotator.name)).all())
    return taskset, _info(chosen, names[chosen.made_by])


def _instance(row: dict[str, Any]) -> Instance:
    answer, answer_list = gold_fields(row["answer"])
    return Instance(
        row["idx"],
        row["task"],
        row["query"],
        answer,
        row["metadata"]["required"],
        row["metadata"]["optional"],
        row["reward_metric"],
        dict(row.get("crm_tui", {})),
        answer_list,
    )
