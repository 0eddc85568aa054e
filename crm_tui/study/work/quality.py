"""Quality control of a study at work: consent, the qualification gate, hidden check items,
exclusions, post-study answers and completion codes (the plan: `quality_protocol.py`).

Where a person stands is worked out from what is stored, every time: their consent, their
practice attempts (the queue positions below zero, one block of N per try), their check
answers, the retries a coordinator allowed. Practice items come first in a queue; check
items sit at spaced places among the measured ones and are served, shown and logged like
any other item. Facts are `quality_record` rows, append-only: an exclusion is lifted by a
later row, never by an edit.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from sqlalchemy import insert
from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import (
    Annotator,
    Assignment,
    Attempt,
    AttemptStatus,
    Mode,
    QualityRecord,
    Study,
    StudyItem,
    row_id,
)
from crm_tui.study.work.profiles import get_profile
from crm_tui.study.work.quality_protocol import QualityPlan
from crm_tui.study.work.studies import get_study, study_protocol

PRACTICE_BASE = -1_000_000  # practice try t, item j sits at PRACTICE_BASE + t * N + j
RIGHT_FROM = 1.0  # a practice or check answer is right when it scores this (training feedback)


class Kind:
    CONSENT = "consent"
    RETRY = "retry_allowed"
    EXCLUDED = "excluded"
    READMITTED = "readmitted"
    ANSWER = "answer"
    POST_DONE = "post_study_done"
    GUIDELINES_SEEN = "guidelines_seen"
    COMPLETION = "completion"


class Stage:
    CONSENT = "consent"  # the consent text waits
    DECLINED = "declined"
    PRACTICE = "practice"  # the qualification's items
    FAILED = "failed"  # no try passed, none left: the coordinator may allow one more
    SOLVE = "solve"
    STOPPED = "stopped"  # check items answered too badly
    POST_STUDY = "post_study"
    DONE = "done"


STOPPED_TEXT = (
    "Your part in this study has ended. Thank you for your time: the study coordinator "
    "will be in touch."
)
FAILED_TEXT = (
    "You did not pass the qualification this time, so the study ends here for now. The "
    "study coordinator can let you try again."
)
DECLINED_TEXT = "You declined to take part. Nothing else about you is kept for this study."


@dataclass(frozen=True)
class Standing:
    """Where a person is, as they may see it (nothing about check items)."""

    stage: str
    consent_title: str | None = None
    consent_text: str | None = None
    practice_items: int = 0
    practice_try: int = 0  # 1-based: the try now, or the last one
    tries_allowed: int = 0
    practice_right: int = 0  # right answers in the current (or last) try
    pass_correct: int = 0
    completion_code: str | None = None


def plan_of(study: Study) -> QualityPlan | None:
    return study_protocol(study).quality


def _records(
    session: Session, study_id: int, annotator_id: int | None = None, kind: str | None = None
) -> list[QualityRecord]:
    query = select(QualityRecord).where(QualityRecord.study_id == study_id)
    if annotator_id is not None:
        query = query.where(QualityRecord.annotator_id == annotator_id)
    if kind is not None:
        query = query.where(QualityRecord.kind == kind)
    return list(session.exec(query.order_by(col(QualityRecord.id))))


def _add(
    session: Session,
    store: StudyStore,
    study_id: int,
    annotator_id: int,
    kind: str,
    *,
    key: str | None = None,
    value: str | None = None,
    attempt_id: int | None = None,
    made_by: int | None = None,
) -> QualityRecord:
    record = QualityRecord(
        study_id=study_id,
        annotator_id=annotator_id,
        kind=kind,
        key=key,
        value=value,
        attempt_id=attempt_id,
        made_by=made_by,
        made_at=store.now()[0],
    )
    session.add(record)
    session.flush()
    return record


# ----------------------------------------------------------------- drawing the queue
def _idx_to_ids(session: Session, study_id: int, idx: Iterable[int]) -> dict[int, int]:
    wanted = set(idx)
    return {
        i: item_id
        for item_id, i in session.exec(
            select(StudyItem.id, StudyItem.idx).where(StudyItem.study_id == study_id)
        )
        if i in wanted and item_id is not None
    }


def unmeasured_item_ids(session: Session, study: Study) -> set[int]:
    """Items never measured: the practice pool, the check items, and with `measured_items`
    every instance not named there."""
    plan = plan_of(study)
    if plan is None:
        return set()
    rows = session.exec(select(StudyItem.id, StudyItem.idx).where(StudyItem.study_id == study.id))
    measured = set(plan.measured_idx)
    return {
        item_id
        for item_id, idx in rows
        if item_id is not None and (idx in plan.reserved_idx or (measured and idx not in measured))
    }


def practice_item_ids(session: Session, study: Study) -> set[int]:
    """The qualification's practice items (shown as practice; check items never are)."""
    plan = plan_of(study)
    if plan is None or plan.qualification is None:
        return set()
    return set(_idx_to_ids(session, row_id(study), plan.practice_idx).values())


def measured_count(study: Study) -> int:
    """How many measured items a queue takes (the solve part's items less check items)."""
    plan = plan_of(study)
    return study.items_per_annotator - (plan.checks_per_person if plan else 0)


def place_queue(
    session: Session, study: Study, annotator: Annotator, measured: Sequence[int]
) -> list[tuple[int, int]]:
    """(item id, position) for a first draw: practice try 1 before everything, check items
    at spaced places among the measured ones (`measured`: item ids, in order)."""
    plan = plan_of(study)
    if plan is None:
        return list((item_id, position) for position, item_id in enumerate(measured))
    placed: list[tuple[int, int]] = []
    if plan.qualification is not None:
        placed += _practice_block(session, study, annotator, plan, 0, set())
    checks = _draw(session, study, plan.check_idx, plan.checks_per_person, annotator, "checks")
    total = len(measured) + len(checks)
    rng = random.Random(f"{study.seed}/{annotator.name}/places")
    check_places: set[int] = set()
    for k in range(len(checks)):
        low = k * total // len(checks)
        high = max(low, (k + 1) * total // len(checks) - 1)
        # Not first: a check item never opens a queue, so the first item is always measured.
        check_places.add(max(1, rng.randint(low, high)) if total > 1 else 0)
    measured_iter, checks_iter = iter(measured), iter(checks)
    for position in range(total):
        source = checks_iter if position in check_places else measured_iter
        item_id = next(source, None) or next(measured_iter, None) or next(checks_iter, None)
        if item_id is not None:
            placed.append((item_id, position))
    return placed


def _draw(
    session: Session, study: Study, pool: Sequence[int], count: int, who: Annotator, what: str
) -> list[int]:
    ids = _idx_to_ids(session, row_id(study), pool)
    order = sorted(ids)
    random.Random(f"{study.seed}/{who.name}/{what}").shuffle(order)
    return [ids[i] for i in order[:count]]


def _practice_block(
    session: Session, study: Study, who: Annotator, plan: QualityPlan, attempt: int, used: set[int]
) -> list[tuple[int, int]]:
    """Try `attempt`'s practice items: the pool in this person's order, past those used."""
    gate = plan.qualification
    assert gate is not None
    ids = _idx_to_ids(session, row_id(study), plan.practice_idx)
    order = sorted(ids)
    random.Random(f"{study.seed}/{who.name}/practice").shuffle(order)
    fresh = [ids[i] for i in order if ids[i] not in used]
    if len(fresh) < gate.items:  # a long run of retries: the pool again, in a new order
        fresh = [ids[i] for i in order]
        random.Random(f"{study.seed}/{who.name}/practice/{attempt}").shuffle(fresh)
    base = PRACTICE_BASE + attempt * gate.items
    return [(item_id, base + j) for j, item_id in enumerate(fresh[: gate.items])]


# ----------------------------------------------------------------- where a person stands
@dataclass(frozen=True)
class GateState:
    tries_done: int  # complete tries
    tries_allowed: int
    passed: bool
    current_open: bool  # a try begun and not finished
    right_last: int  # right answers in the current or last try
    rights: tuple[int, ...] = ()  # per complete try


def _practice_attempts(
    session: Session, study_id: int, annotator_id: int
) -> list[tuple[Assignment, Attempt | None]]:
    rows = session.exec(
        select(Assignment, Attempt)
        .join(Attempt, col(Attempt.assignment_id) == col(Assignment.id), isouter=True)
        .where(
            Assignment.study_id == study_id,
            Assignment.annotator_id == annotator_id,
            col(Assignment.position) < 0,
        )
        .order_by(col(Assignment.position))
    )
    return list(rows.all())


def gate_state(session: Session, study: Study, plan: QualityPlan, annotator_id: int) -> GateState:
    gate = plan.qualification
    assert gate is not None
    by_try: dict[int, list[Attempt | None]] = {}
    for assignment, attempt in _practice_attempts(session, row_id(study), annotator_id):
        by_try.setdefault((assignment.position - PRACTICE_BASE) // gate.items, []).append(attempt)
    retries = len(_records(session, row_id(study), annotator_id, Kind.RETRY))
    rights: list[int] = []
    current_open, right_last = False, 0
    for number in sorted(by_try):
        block = by_try[number]
        closed = [
            a
            for a in block
            if a is not None and a.status != AttemptStatus.IN_PROGRESS and not _unscored(a)
        ]
        right = sum((a.score or 0) >= RIGHT_FROM for a in closed)
        right_last = right
        if len(closed) < gate.items:
            current_open = True
        else:
            rights.append(right)
    return GateState(
        tries_done=len(rights),
        tries_allowed=gate.tries + retries,
        passed=any(r >= gate.pass_correct for r in rights),
        current_open=current_open,
        right_last=right_last,
        rights=tuple(rights),
    )


def _unscored(attempt: Attempt) -> bool:
    """An answer not scored yet: submitted through an annotator's login, which reads no
    gold (`store/db_logins.py`), until the coordinator's side scores it."""
    return attempt.answer_raw is not None and attempt.score is None


@dataclass(frozen=True)
class CheckState:
    answered: int
    right: int

    @property
    def accuracy(self) -> float | None:
        return self.right / self.answered if self.answered else None


def check_state(session: Session, study: Study, plan: QualityPlan, annotator_id: int) -> CheckState:
    ids = set(_idx_to_ids(session, row_id(study), plan.check_idx).values())
    scores = [
        a.score or 0.0
        for a in session.exec(
            select(Attempt).where(
                Attempt.study_id == study.id,
                Attempt.annotator_id == annotator_id,
                col(Attempt.item_id).in_(ids),
                col(Attempt.status).in_([AttemptStatus.SUBMITTED, AttemptStatus.EXPIRED]),
            )
        )
        if not _unscored(a)  # counted once the coordinator's side has scored it
    ]
    return CheckState(len(scores), sum(s >= RIGHT_FROM for s in scores))


def check_verdict(plan: QualityPlan, state: CheckState) -> str | None:
    """ "stop", "warn" or None for a person's check answers so far."""
    checks = plan.checks
    if checks is None or state.answered < checks.min_answered or state.accuracy is None:
        return None
    if state.accuracy < checks.stop_below:
        return "stop"
    if state.accuracy < checks.warn_below:
        return "warn"
    return None


def _consent(session: Session, study_id: int, annotator_id: int) -> dict[str, str] | None:
    records = _records(session, study_id, annotator_id, Kind.CONSENT)
    return json.loads(records[-1].value or "{}") if records else None


def _measured_open(session: Session, study_id: int, annotator_id: int) -> bool:
    """Whether the person's queue has measured or check items still to do (or none drawn)."""
    queue = session.exec(
        select(Assignment.id).where(
            Assignment.study_id == study_id,
            Assignment.annotator_id == annotator_id,
            col(Assignment.position) >= 0,
        )
    ).all()
    if not queue:
        return True
    closed = session.exec(
        select(Attempt.id).where(
            col(Attempt.assignment_id).in_(queue), Attempt.status != AttemptStatus.IN_PROGRESS
        )
    ).all()
    return len(closed) < len(queue)


def stage_of(
    session: Session, study: Study, plan: QualityPlan, annotator_id: int, parts_done: bool
) -> Standing:
    """Where the person stands (`parts_done`: every protocol part is complete)."""
    sid = row_id(study)
    gate = plan.qualification
    base: dict[str, object] = {}
    if gate is not None:
        state = gate_state(session, study, plan, annotator_id)
        base = {
            "practice_items": gate.items,
            "practice_try": state.tries_done + (1 if state.current_open else 0),
            "tries_allowed": state.tries_allowed,
            "practice_right": state.right_last,
            "pass_correct": gate.pass_correct,
        }
    if plan.consent_text is not None:
        consent = _consent(session, sid, annotator_id)
        if consent is None:
            return Standing(
                Stage.CONSENT, consent_title=plan.consent_title, consent_text=plan.consent_text
            )
        if consent.get("decision") != "agree":
            return Standing(Stage.DECLINED)
    if gate is not None and not state.passed:
        if state.current_open or state.tries_done < state.tries_allowed:
            return Standing(Stage.PRACTICE, **base)  # type: ignore[arg-type]
        return Standing(Stage.FAILED, **base)  # type: ignore[arg-type]
    if check_verdict(plan, check_state(session, study, plan, annotator_id)) == "stop":
        return Standing(Stage.STOPPED, **base)  # type: ignore[arg-type]
    if _measured_open(session, sid, annotator_id) or not parts_done:
        return Standing(Stage.SOLVE, **base)  # type: ignore[arg-type]
    if plan.post_study is not None and not _records(session, sid, annotator_id, Kind.POST_DONE):
        return Standing(Stage.POST_STUDY, **base)  # type: ignore[arg-type]
    codes = _records(session, sid, annotator_id, Kind.COMPLETION)
    return Standing(
        Stage.DONE,
        completion_code=codes[-1].value if codes else None,
        **base,  # type: ignore[arg-type]
    )


def standing(store: StudyStore, study_id: int, annotator_id: int, parts_done: bool) -> Standing:
    """Where the person stands; on reaching the end, their completion code (made once), and
    a practice try drawn when one is due."""
    with store.transaction() as session:
        lock(session, "queue", study_id, annotator_id)
        study = get_study(session, study_id)
        plan = plan_of(study)
        if plan is None:
            return Standing(Stage.SOLVE)
        now = stage_of(session, study, plan, annotator_id, parts_done)
        if now.stage == Stage.PRACTICE and plan.qualification is not None:
            _draw_try_if_due(session, study, plan, annotator_id)
        if now.stage == Stage.DONE and now.completion_code is None and plan.completion:
            code = _new_code(plan.completion.prefix)
            _add(session, store, study_id, annotator_id, Kind.COMPLETION, value=code)
            now = Standing(**{**now.__dict__, "completion_code": code})
        return now


def _new_code(prefix: str) -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    body = "".join(secrets.choice(alphabet) for _ in range(8))
    return f"{prefix}{'-' if prefix else ''}{body[:4]}-{body[4:]}"


def _draw_try_if_due(session: Session, study: Study, plan: QualityPlan, annotator_id: int) -> None:
    """The next try's practice items, once the last try is complete and failed."""
    state = gate_state(session, study, plan, annotator_id)
    if state.current_open or state.passed or state.tries_done >= state.tries_allowed:
        return
    if state.tries_done == 0:
        return  # the first try comes with the person's queue (`place_queue`)
    used = {a.item_id for a, _ in _practice_attempts(session, row_id(study), annotator_id)}
    who = get_profile(session, annotator_id)
    block = _practice_block(session, study, who, plan, state.tries_done, used)
    session.connection().execute(
        insert(Assignment),
        [
            {
                "study_id": row_id(study),
                "annotator_id": annotator_id,
                "item_id": item_id,
                "position": position,
            }
            for item_id, position in block
            if item_id not in used
        ],
    )


def may_open(standing: Standing) -> bool:
    return standing.stage in (Stage.PRACTICE, Stage.SOLVE)


def is_practice(study: Study, item: StudyItem) -> bool:
    plan = plan_of(study)
    return plan is not None and plan.qualification is not None and item.idx in plan.practice_idx


# ----------------------------------------------------------------- the person's answers
def give_consent(store: StudyStore, study_id: int, annotator_id: int, agree: bool) -> Standing:
    """Agree (the text's hash and the time are stored) or decline (only the decline is)."""
    with store.transaction() as session:
        study = get_study(session, study_id)
        plan = plan_of(study)
        if plan is None or plan.consent_text is None:
            raise CrmTuiError("This study asks for no consent.")
        if _consent(session, study_id, annotator_id) is not None:
            raise CrmTuiError("Consent was already given or declined.")
        value = {"decision": "agree" if agree else "decline"}
        if agree:
            value["sha256"] = plan.consent_sha256 or ""
        _add(session, store, study_id, annotator_id, Kind.CONSENT, value=json.dumps(value))
    return standing(store, study_id, annotator_id, parts_done=False)


def guidelines_due(store: StudyStore, study_id: int, annotator_id: int, family: str) -> str | None:
    """The family's guidelines the first time the person meets the family (then noted as
    seen); None after that or when the study has none for it."""
    with store.transaction() as session:
        plan = plan_of(get_study(session, study_id))
        text = plan.guidelines.get(family) if plan else None
        if text is None:
            return None
        seen = {r.key for r in _records(session, study_id, annotator_id, Kind.GUIDELINES_SEEN)}
        if family in seen:
            return None
        _add(session, store, study_id, annotator_id, Kind.GUIDELINES_SEEN, key=family)
        return text


def post_study_questions(study: Study, families: Sequence[str]) -> list[tuple[str, str, str]]:
    """(key, prompt, kind) of the post-study questions: difficulty per family met, then
    the preset's own."""
    plan = plan_of(study)
    if plan is None or plan.post_study is None:
        return []
    questions: list[tuple[str, str, str]] = []
    if plan.post_study.difficulty_per_family:
        from crm_tui.tasks.families import families as known

        labels = {f.name: f.abbrev for f in known().values()}
        for family in sorted(set(families)):
            questions.append(
                (
                    f"difficulty:{family}",
                    f"How hard were the {labels.get(family, family)} queries? "
                    "(1 very easy - 5 very hard)",
                    "scale",
                )
            )
    questions += [(q.key, q.prompt, q.kind) for q in plan.post_study.questions]
    return questions


def families_met(session: Session, study_id: int, annotator_id: int) -> list[str]:
    return sorted(
        set(
            session.exec(
                select(StudyItem.task)
                .join(Assignment, col(Assignment.item_id) == col(StudyItem.id))
                .where(
                    Assignment.study_id == study_id,
                    Assignment.annotator_id == annotator_id,
                    col(Assignment.position) >= 0,
                )
            ).all()
        )
    )


def answer_post_study(
    store: StudyStore, study_id: int, annotator_id: int, answers: dict[str, str]
) -> None:
    """Store the answers (a scale answer 1-5) and mark the part done."""
    with store.transaction() as session:
        study = get_study(session, study_id)
        questions = post_study_questions(study, families_met(session, study_id, annotator_id))
        kinds = {key: kind for key, _, kind in questions}
        for key, value in answers.items():
            if key not in kinds:
                raise CrmTuiError(f"post-study: no question {key!r}")
            if kinds[key] == "scale" and value not in {"1", "2", "3", "4", "5"}:
                raise CrmTuiError(f"post-study: {key}: answer 1 to 5")
        for key, value in answers.items():
            _add(session, store, study_id, annotator_id, Kind.ANSWER, key=key, value=value)
        _add(session, store, study_id, annotator_id, Kind.POST_DONE)


# ----------------------------------------------------------------- the coordinator's tools
def _coordinator(session: Session, profile_id: int | None) -> int | None:
    if profile_id is None:
        return None
    if get_profile(session, profile_id).mode != Mode.COORDINATOR:
        raise CrmTuiError("Only study coordinators may do this.")
    return profile_id


def _person(session: Session, name: str) -> Annotator:
    person = session.exec(select(Annotator).where(Annotator.name == name)).first()
    if person is None:
        raise CrmTuiError(f"no profile named {name!r}")
    return person


def allow_retry(store: StudyStore, study_id: int, name: str, by: int | None = None) -> int:
    """Give a person who failed the qualification one more try; returns their tries now."""
    with store.transaction() as session:
        made_by = _coordinator(session, by)
        study = get_study(session, study_id)
        plan = plan_of(study)
        if plan is None or plan.qualification is None:
            raise CrmTuiError("This study has no qualification.")
        person = _person(session, name)
        state = gate_state(session, study, plan, row_id(person))
        if state.passed or state.tries_done < state.tries_allowed or state.current_open:
            raise CrmTuiError(f"{name} has not failed the qualification: nothing to retry")
        _add(session, store, study_id, row_id(person), Kind.RETRY, made_by=made_by)
        return state.tries_allowed + 1


def exclude(
    store: StudyStore,
    study_id: int,
    name: str,
    reason: str,
    *,
    attempt_id: int | None = None,
    lift: bool = False,
    by: int | None = None,
) -> None:
    """Exclude a person (or one of their attempts) from the figures, with a reason; or
    lift that exclusion. Nothing is deleted."""
    if not reason.strip():
        raise CrmTuiError("exclusion: a reason is needed")
    with store.transaction() as session:
        made_by = _coordinator(session, by)
        person = _person(session, name)
        if attempt_id is not None:
            attempt = session.get(Attempt, attempt_id)
            if attempt is None or attempt.annotator_id != person.id or attempt.study_id != study_id:
                raise CrmTuiError(f"{name} has no attempt {attempt_id} in this study")
        _add(
            session,
            store,
            study_id,
            row_id(person),
            Kind.READMITTED if lift else Kind.EXCLUDED,
            attempt_id=attempt_id,
            value=reason.strip(),
            made_by=made_by,
        )


@dataclass(frozen=True)
class Exclusion:
    annotator_id: int
    attempt_id: int | None  # None: the whole person
    reason: str
    at: datetime


def exclusions(session: Session, study_id: int) -> list[Exclusion]:
    """The exclusions in force: each person's or attempt's latest record decides."""
    latest: dict[tuple[int, int | None], QualityRecord] = {}
    for record in _records(session, study_id):
        if record.kind in (Kind.EXCLUDED, Kind.READMITTED):
            latest[(record.annotator_id, record.attempt_id)] = record
    return [
        Exclusion(r.annotator_id, r.attempt_id, r.value or "", r.made_at)
        for r in latest.values()
        if r.kind == Kind.EXCLUDED
    ]


class _Whose(Protocol):
    """An attempt as the baseline sees it: whose it is, and which (a row or a table row)."""

    @property
    def annotator_id(self) -> int: ...

    @property
    def id(self) -> int | None: ...


@dataclass(frozen=True)
class Excluded:
    people: set[int] = field(default_factory=set)
    attempts: set[int] = field(default_factory=set)

    def drops(self, attempt: _Whose) -> bool:
        return attempt.annotator_id in self.people or attempt.id in self.attempts


def excluded(session: Session, study_id: int) -> Excluded:
    rules = exclusions(session, study_id)
    return Excluded(
        {e.annotator_id for e in rules if e.attempt_id is None},
        {e.attempt_id for e in rules if e.attempt_id is not None},
    )


def records_of(session: Session, study_id: int) -> list[QualityRecord]:
    return _records(session, study_id)
