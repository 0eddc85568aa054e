"""Quality control as the coordinator reads it: per person their consent, qualification,
check-item accuracy, behaviour flags, exclusions and completion code, and the baseline
with and without the exclusions. For coordinators only (the live view, the report).

Behaviour flags come from what is already recorded:
- fast: a measured answer in less active time than the family's floor (the preset's
  `behaviour.fast_floor_s`, else the `fast_percentile` of everyone's active time there);
- straight-lining: every realism rating (1-5) at the same level, over enough ratings;
- repeated: an answer identical to the person's previous item's (not "None");
- idle: a span inside an attempt with nothing done for `behaviour.idle_s` (pauses and
  heartbeats aside).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from sqlmodel import Session, col, select

from crm_tui.study.results.baseline import attempt_score, baseline
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    AttemptStatus,
    Event,
    EventKind,
    Mode,
    RealismRating,
    Study,
    StudyItem,
    row_id,
)
from crm_tui.study.work import quality
from crm_tui.study.work.quality_protocol import QualityPlan

_ANSWERED = (AttemptStatus.SUBMITTED, AttemptStatus.EXPIRED)
_QUIET = {EventKind.HEARTBEAT.value}


@dataclass(frozen=True)
class PersonQuality:
    profile_id: int
    name: str
    consent: str | None  # "agreed", "declined" or None (not asked yet)
    consent_sha256: str | None
    consent_at: datetime | None
    qualification: str | None  # "passed", "failed", "in progress" or None (no gate)
    practice_right: list[int]  # right answers per complete try
    retries_allowed: int
    check_answers: int
    check_accuracy: float | None
    check_verdict: str | None  # "warn", "stop" or None
    answers: int  # measured answers
    fast_answers: int
    repeated_answers: int
    idle_spans: int
    straight_lining: bool
    flags: list[str]  # names of the flags raised: fast, repeated, idle, straight-lining
    excluded: str | None  # the reason, when the whole person is excluded
    excluded_attempts: dict[int, str] = field(default_factory=dict)  # attempt id -> reason
    completion_code: str | None = None
    post_study: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class QualityReport:
    practice_items: int
    check_items: int
    checks_per_person: int
    fast_floor_s: dict[str, float]  # family -> the floor used
    people: list[PersonQuality]
    excluded_people: int
    excluded_attempts: int
    accuracy_without_excluded: float | None  # measured answers, exclusions left out
    accuracy_with_excluded: float | None  # measured answers, exclusions kept in
    answers_without_excluded: int
    answers_with_excluded: int


def _idle_spans(events: Iterable[Event], idle_ms: float) -> int:
    spans, last, paused = 0, None, False
    for event in events:
        if event.kind in _QUIET:
            continue
        at = event.wall
        if last is not None and not paused and (at - last).total_seconds() * 1000 >= idle_ms:
            spans += 1
        paused = event.kind in (EventKind.PAUSED.value, EventKind.FOCUS_LOST.value)
        last = at
    return spans


def fast_floors(plan: QualityPlan, active: dict[str, list[int]]) -> dict[str, float]:
    """Seconds per family: the preset's floor, else the percentile of everyone's times."""
    named = {}
    for key, seconds in plan.behaviour.fast_floor_s.items():
        named[quality_family(key)] = seconds
    floors = {}
    for family, times in active.items():
        if family in named:
            floors[family] = named[family]
        elif times:
            floors[family] = float(np.percentile(times, plan.behaviour.fast_percentile)) / 1000
    return floors


def quality_family(key: str) -> str:
    from crm_tui.tasks.pro_families import all_families

    for family in all_families().values():
        if key in (family.name, family.abbrev):
            return family.name
    return key


def build_quality(session: Session, study: Study) -> QualityReport | None:
    plan = quality.plan_of(study)
    if plan is None:
        return None
    sid = row_id(study)
    items = {row_id(i): i for i in session.exec(select(StudyItem).where(StudyItem.study_id == sid))}
    unmeasured = quality.unmeasured_item_ids(session, study)
    check_ids = {i for i, item in items.items() if item.idx in plan.check_idx}
    positions = {
        a.id: a.position for a in session.exec(select(Assignment).where(Assignment.study_id == sid))
    }
    attempts = list(session.exec(select(Attempt).where(Attempt.study_id == sid)))
    measured = [a for a in attempts if a.item_id not in unmeasured and a.status in _ANSWERED]
    active: dict[str, list[int]] = defaultdict(list)
    for a in measured:
        if a.active_ms is not None:
            active[items[a.item_id].task].append(a.active_ms)
    floors = fast_floors(plan, active)
    events: dict[int, list[Event]] = defaultdict(list)
    for event in session.exec(
        select(Event)
        .where(Event.study_id == sid, col(Event.attempt_id).is_not(None))
        .order_by(col(Event.id))
    ):
        assert event.attempt_id is not None
        events[event.attempt_id].append(event)
    ratings: dict[int, list[int]] = defaultdict(list)
    for rating in session.exec(select(RealismRating).where(RealismRating.study_id == sid)):
        if rating.level > 0:
            ratings[rating.annotator_id].append(rating.level)
    records = quality.records_of(session, sid)
    by_person: dict[int, list[Attempt]] = defaultdict(list)
    for a in attempts:
        by_person[a.annotator_id].append(a)
    rules = quality.exclusions(session, sid)
    person_rule = {e.annotator_id: e.reason for e in rules if e.attempt_id is None}
    attempt_rules: dict[int, dict[int, str]] = defaultdict(dict)
    for e in rules:
        if e.attempt_id is not None:
            attempt_rules[e.annotator_id][e.attempt_id] = e.reason
    people_ids = {r.annotator_id for r in records} | set(by_person)
    names = {
        row_id(p): p
        for p in session.exec(select(Annotator).where(col(Annotator.id).in_(people_ids)))
    }
    people: list[PersonQuality] = []
    for pid in sorted(people_ids, key=lambda i: names[i].name):
        if names[pid].mode != Mode.ANNOTATOR:
            continue
        mine = [r for r in records if r.annotator_id == pid]
        consent_rows = [r for r in mine if r.kind == quality.Kind.CONSENT]
        consent = json.loads(consent_rows[-1].value or "{}") if consent_rows else None
        gate_text, rights, retries = None, [], 0
        if plan.qualification is not None:
            gate = quality.gate_state(session, study, plan, pid)
            rights, retries = list(gate.rights), gate.tries_allowed - plan.qualification.tries
            if gate.passed:
                gate_text = "passed"
            elif gate.tries_done >= gate.tries_allowed and not gate.current_open:
                gate_text = "failed"
            elif gate.tries_done or gate.current_open:
                gate_text = "in progress"
        checks = quality.check_state(session, study, plan, pid)
        own = sorted(
            (a for a in by_person[pid] if a.item_id not in unmeasured or a.item_id in check_ids),
            key=lambda a: positions.get(a.assignment_id, 0),
        )
        answered = [a for a in own if a.status in _ANSWERED and a.item_id not in check_ids]
        fast = sum(
            a.active_ms is not None
            and (floor := floors.get(items[a.item_id].task)) is not None
            and a.active_ms < floor * 1000
            for a in own
            if a.status in _ANSWERED
        )
        repeated, previous = 0, None
        for a in own:
            answer = a.answer_normalised if a.status in _ANSWERED else None
            if answer and answer != "None" and answer == previous:
                repeated += 1
            previous = answer
        idle = sum(
            _idle_spans(events[row_id(a)], plan.behaviour.idle_s * 1000) for a in by_person[pid]
        )
        levels = ratings[pid]
        straight = (
            len(levels) >= plan.behaviour.straight_lining_min_ratings and len(set(levels)) == 1
        )
        flags = [
            name
            for name, raised in (
                ("fast", fast > 0),
                ("repeated", repeated > 0),
                ("idle", idle > 0),
                ("straight-lining", straight),
            )
            if raised
        ]
        codes = [r.value for r in mine if r.kind == quality.Kind.COMPLETION]
        people.append(
            PersonQuality(
                profile_id=pid,
                name=names[pid].name,
                consent=None
                if consent is None
                else ("agreed" if consent.get("decision") == "agree" else "declined"),
                consent_sha256=(consent or {}).get("sha256"),
                consent_at=consent_rows[-1].made_at if consent_rows else None,
                qualification=gate_text,
                practice_right=rights,
                retries_allowed=retries,
                check_answers=checks.answered,
                check_accuracy=checks.accuracy,
                check_verdict=quality.check_verdict(plan, checks),
                answers=len(answered),
                fast_answers=fast,
                repeated_answers=repeated,
                idle_spans=idle,
                straight_lining=straight,
                flags=flags,
                excluded=person_rule.get(pid),
                excluded_attempts=attempt_rules.get(pid, {}),
                completion_code=codes[-1] if codes else None,
                post_study={
                    r.key: r.value or ""
                    for r in mine
                    if r.kind == quality.Kind.ANSWER and r.key is not None
                },
            )
        )
    # The report's baseline, with and without the exclusions: the same answers and scores
    kept_in = baseline(session, study, with_excluded=True).attempts
    kept = baseline(session, study).attempts
    dropped = quality.excluded(session, sid)
    return QualityReport(
        practice_items=len(plan.practice_idx),
        check_items=len(plan.check_idx),
        checks_per_person=plan.checks_per_person,
        fast_floor_s=dict(sorted(floors.items())),
        people=people,
        excluded_people=len(dropped.people),
        excluded_attempts=len(dropped.attempts),
        accuracy_without_excluded=_mean(attempt_score(a) for a in kept),
        accuracy_with_excluded=_mean(attempt_score(a) for a in kept_in),
        answers_without_excluded=len(kept),
        answers_with_excluded=len(kept_in),
    )


def _mean(scores: Iterable[float]) -> float | None:
    values = list(scores)
    return sum(values) / len(values) if values else None
