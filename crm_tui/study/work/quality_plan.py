"""Resolving a preset's quality controls into the `QualityPlan` a study stores: the consent
and guideline texts read in, the rules across keys checked (each refusal one line naming
the key), and, when the task instances are known, the practice pool and check items drawn.

Pools named in the preset are used as they are; otherwise they are drawn with the study's
seed, spread over the task families, from instances outside the measured ones.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from crm_tui.errors import CrmTuiError
from crm_tui.study.work.quality_protocol import QualityPlan, read_text_file, text_sha256

if TYPE_CHECKING:
    from crm_tui.study.work.protocol import Preset, Protocol


def _family_name(key: str) -> str | None:
    from crm_tui.tasks.pro_families import all_families

    for family in all_families().values():
        if key in (family.name, family.abbrev):
            return family.name
    return None


def _first_shared(first: Sequence[int], second: Sequence[int]) -> int | None:
    shared = sorted(set(first) & set(second))
    return shared[0] if shared else None


def resolve_quality(preset: Preset, preset_path: Path | None = None) -> QualityPlan | None:
    """The preset's quality controls with their files read; None when it has none."""
    controls = (
        preset.consent,
        preset.qualification,
        preset.checks,
        preset.behaviour,
        preset.post_study,
        preset.completion_code,
    )
    if all(c is None for c in controls) and not preset.guidelines:
        return None
    source = preset_path or preset.name
    near = preset_path.parent if preset_path else None
    measured = preset.measured_items
    gate, checks = preset.qualification, preset.checks
    if gate is not None and gate.pool:
        if (idx := _first_shared(gate.pool, measured)) is not None:
            raise CrmTuiError(
                f"{source}: qualification.pool: idx {idx} is also a measured item "
                "(practice items are never measured)"
            )
        if checks is not None and (idx := _first_shared(gate.pool, checks.pool)) is not None:
            raise CrmTuiError(f"{source}: qualification.pool: idx {idx} is also a check item")
        if len(set(gate.pool)) < gate.items:
            raise CrmTuiError(
                f"{source}: qualification.pool: {len(set(gate.pool))} items, fewer than "
                f"the {gate.items} of one try"
            )
    if checks is not None and (idx := _first_shared(checks.pool, measured)) is not None:
        raise CrmTuiError(
            f"{source}: checks.pool: idx {idx} is also a measured item "
            "(check items never count in the baseline)"
        )
    items = preset.solve.items
    checks_per_person = 0
    if checks is not None:
        checks_per_person = max(1, round(items * checks.share))
        if checks_per_person >= items:
            raise CrmTuiError(
                f"{source}: checks.share: {checks.share} of {items} items leaves none measured"
            )
    guidelines: dict[str, str] = {}
    for key, file in preset.guidelines.items():
        family = _family_name(key)
        if family is None:
            raise CrmTuiError(f"{source}: guidelines.{key}: unknown task family")
        guidelines[family] = read_text_file(file, near, f"guidelines.{key}", source)
    consent_text = None
    if preset.consent is not None:
        consent_text = read_text_file(preset.consent.file, near, "consent.file", source)
    return QualityPlan(
        consent_title=preset.consent.title if preset.consent else None,
        consent_text=consent_text,
        consent_sha256=text_sha256(consent_text) if consent_text is not None else None,
        guidelines=guidelines,
        qualification=gate,
        practice_idx=sorted(set(gate.pool)) if gate else [],
        checks=checks,
        check_idx=sorted(set(checks.pool)) if checks else [],
        checks_per_person=checks_per_person,
        measured_idx=sorted(set(measured)),
        **({"behaviour": preset.behaviour} if preset.behaviour else {}),
        post_study=preset.post_study,
        completion=preset.completion_code,
    )


def _spread_draw(idx_by_family: dict[str, list[int]], count: int, seed_key: str) -> list[int]:
    """`count` instances, one family after another (families and members seed-shuffled)."""
    rng = random.Random(seed_key)
    lanes = []
    for family in sorted(idx_by_family):
        members = sorted(idx_by_family[family])
        rng.shuffle(members)
        lanes.append(members)
    rng.shuffle(lanes)
    drawn: list[int] = []
    while len(drawn) < count and any(lanes):
        for lane in lanes:
            if lane and len(drawn) < count:
                drawn.append(lane.pop())
    return sorted(drawn)


def draw_pools(
    protocol: Protocol, rows: Sequence[tuple[int, str]], seed: int, source: object
) -> Protocol:
    """The protocol with its practice pool and check items drawn from the task instances
    (`rows`: idx and family), and every named idx checked against them."""
    plan = protocol.quality
    if plan is None:
        return protocol
    known = {idx for idx, _ in rows}
    for key, named in (
        ("qualification.pool", plan.practice_idx),
        ("checks.pool", plan.check_idx),
        ("measured_items", plan.measured_idx),
    ):
        missing = sorted(set(named) - known)
        if missing:
            raise CrmTuiError(f"{source}: {key}: idx {missing[0]} is not in the task set")
    taken = set(plan.practice_idx) | set(plan.check_idx) | set(plan.measured_idx)
    free: dict[str, list[int]] = defaultdict(list)
    for idx, family in rows:
        if idx not in taken:
            free[family].append(idx)
    practice, checks = plan.practice_idx, plan.check_idx
    if plan.qualification is not None and not practice:
        practice = _spread_draw(free, plan.qualification.drawn_pool_size, f"{seed}/practice")
        if len(practice) < plan.qualification.items:
            raise CrmTuiError(
                f"{source}: qualification.pool: the task set leaves {len(practice)} "
                f"instances to practise on, fewer than {plan.qualification.items}"
            )
        free = {f: [i for i in members if i not in practice] for f, members in free.items()}
    if plan.checks is not None and not checks:
        checks = _spread_draw(free, plan.checks.pool_size, f"{seed}/checks")
        if not checks:
            raise CrmTuiError(f"{source}: checks.pool: the task set leaves no check items")
    reserved = set(practice) | set(checks)
    if not any(idx not in reserved for idx, _ in rows):
        raise CrmTuiError(f"{source}: measured_items: no task instance is left to measure")
    drawn = plan.model_copy(update={"practice_idx": practice, "check_idx": checks})
    return protocol.model_copy(update={"quality": drawn})
