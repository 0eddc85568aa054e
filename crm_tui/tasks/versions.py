"""Audited task-set versions: a decision per query (keep, correct, drop) applied to a parent
set makes a new set, never an edit in place.

The new set's rows carry, under `crm_tui`, the parent's content hash (`parent_taskset`)
and, on a corrected row, what the audit changed (`audit`: the original answer, the
category and the note). The change log (`Change`) lists every decision, kept ones too, with
who decided and when; it travels with an exported set (`release.py`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.ids import is_valid_id
from crm_tui.tasks.families import get_family
from crm_tui.tasks.periods import MONTHS
from crm_tui.tasks.pro_families import pro_families, pro_only_names
from crm_tui.tasks.pro_scoring import parse_values
from crm_tui.tasks.scoring import STATE_RE, normalize_exact
from crm_tui.tasks.taskset import CRMARENA, Gold, Instance, TaskSet, gold_fields, sealed

KEEP, CORRECT, DROP = "keep", "correct", "drop"
DECISIONS = (KEEP, CORRECT, DROP)
PARENT_KEY = "parent_taskset"
AUDIT_KEY = "audit"


@dataclass(frozen=True)
class Change:
    """One decision on one query, as a version records it."""

    idx: int
    task: str
    decision: str  # keep, correct or drop
    category: str  # a key of the audit taxonomy
    note: str | None
    old_gold: Gold
    new_gold: Gold  # the corrected gold (correct only; None may be the None answer)
    decided_by: tuple[str, ...]  # two names under the two-person rule
    decided_at: str  # ISO 8601, UTC

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["decided_by"] = list(self.decided_by)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Change:
        return cls(**{**data, "decided_by": tuple(data["decided_by"])})


def checked_gold(task: str, answer: str | None) -> Gold:
    """`answer` as a gold of `task`'s answer type (stripped), or one CrmTuiError line.

    None (or "None") is the None answer, allowed only where the family has false
    premises; a record Id must be a valid Salesforce Id, a month a month name, a state a
    two-letter code; free text must not be empty. A family CRMArena-Pro adds takes its
    list form (`_checked_list_gold`)."""
    if task in pro_only_names():
        return _checked_list_gold(task, answer)
    family = get_family(task)
    given = normalize_exact(answer)
    if given is None:
        if family.false_presupposition:
            return None
        raise CrmTuiError(f"{task} always has an answer: a correction cannot be None")
    kind = family.answer_type
    if kind == "record_id" and not is_valid_id(given):
        raise CrmTuiError(
            f"{given!r} is not a record Id: {task} expects the Id of a {family.answer_object}"
        )
    if kind == "month":
        month = next((m for m in MONTHS if m.casefold() == given.casefold()), None)
        if month is None:
            raise CrmTuiError(f"{given!r} is not a month name: {task} expects one (e.g. March)")
        return month
    if kind == "state":
        if not STATE_RE.match(given):
            raise CrmTuiError(f"{given!r} is not a state code: {task} expects two letters (GA)")
        return given.upper()
    return given


_KIND_WORDS = {
    "id": "record Id",
    "bant": "BANT factor (Budget, Authority, Need, Timeline)",
    "stage": "stage (Qualification, Discovery, Quote, Negotiation, Closed)",
    "month": "month name",
    "state": "state code",
}


def _checked_list_gold(task: str, answer: str | None) -> list[str | None]:
    """The values of the family's kind that `answer` names, as a list gold (`[None]` for
    the None answer, which every such family may have); free text as one item."""
    family = pro_families()[task]
    if normalize_exact(answer) is None:
        return [None]
    assert answer is not None
    if family.metric != "exact_match":
        return [answer.strip()]
    kind = family.values or "id"
    parsed = parse_values(answer, kind)
    if not parsed.parsed:
        raise CrmTuiError(f"{answer.strip()!r} names no {_KIND_WORDS[kind]}: {task} expects one")
    return list(parsed.values)


def apply_changes(parent: TaskSet, changes: Sequence[Change]) -> TaskSet:
    """A new sealed set: `parent`'s rows with the corrections and without the drops.

    Every change must name a row of `parent` (by idx and task), once."""
    by_idx = {inst.idx: inst for inst in parent.instances}
    seen: set[int] = set()
    for change in changes:
        inst = by_idx.get(change.idx)
        if inst is None or inst.task != change.task:
            raise CrmTuiError(
                f"query {change.idx} ({change.task}) is not in the task set {parent.content_hash[:12]}"
            )
        if change.idx in seen:
            raise CrmTuiError(f"query {change.idx} has two decisions in one version")
        if change.decision not in DECISIONS:
            raise CrmTuiError(f"decision {change.decision!r}: use {', '.join(DECISIONS)}")
        seen.add(change.idx)
    decided = {change.idx: change for change in changes}
    parent_hash = parent.content_hash
    rows: list[Instance] = []
    for inst in sorted(parent.instances, key=lambda i: i.idx):
        made = decided.get(inst.idx)
        if made is not None and made.decision == DROP:
            continue
        row = copy.deepcopy(inst)
        row.extra[PARENT_KEY] = parent_hash
        if made is not None and made.decision == CORRECT:
            row.answer, row.answer_list = gold_fields(made.new_gold)
            row.extra[AUDIT_KEY] = {
                "original_answer": made.old_gold,
                "category": made.category,
                "note": made.note,
            }
        rows.append(row)
    if not rows:
        raise CrmTuiError("every query would be dropped: a task set needs at least one")
    return sealed(rows, parent.fingerprint or CRMARENA)


def changes_json(changes: Iterable[Change]) -> list[dict[str, Any]]:
    return [change.to_json() for change in changes]


def changes_of(data: Iterable[dict[str, Any]]) -> list[Change]:
    return [Change.from_json(item) for item in data]
