"""Creating studies: a protocol, settings and the task instances copied in."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError
from sqlmodel import Session, col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import Study, StudyItem, row_id
from crm_tui.study.work.protocol import Preset, Protocol, resolve_protocol, validated
from crm_tui.study.work.quality_plan import draw_pools
from crm_tui.tasks.taskset import CRMARENA


class TaskMetadata(BaseModel):
    model_config = ConfigDict(extra="ignore")
    required: str
    optional: str = ""


class TaskInstance(BaseModel):
    """One instance in CRMArena's format; the paper-era file names `task` as `type`."""

    model_config = ConfigDict(extra="ignore")
    idx: int
    task: str = Field(validation_alias=AliasChoices("task", "type"))
    query: str
    answer: str | list[str | None] | None  # a list in CRMArena-Pro's form
    metadata: TaskMetadata
    reward_metric: Literal["exact_match", "fuzzy_match", "privacy_rejection"]
    crm_tui: dict[str, Any] | None = None


def _validated_instances(instances: Sequence[Mapping[str, Any]]) -> list[TaskInstance]:
    rows: list[TaskInstance] = []
    seen: set[int] = set()
    for position, data in enumerate(instances):
        row = validated(TaskInstance, dict(data), f"task instance [{position}]")
        if row.idx in seen:
            raise CrmTuiError(f"task instance [{position}]: idx {row.idx} appears twice")
        seen.add(row.idx)
        rows.append(row)
    if not rows:
        raise CrmTuiError("a study needs at least one task instance")
    return rows


@dataclass(frozen=True)
class CheckedStudy:
    """A study checked without its file, ready to be written by `write_study`."""

    name: str
    preset: Preset
    rows: list[TaskInstance]
    protocol: Protocol
    org_fingerprint: str


def check_study(
    name: str,
    preset: Preset,
    *,
    instances: Sequence[Mapping[str, Any]],
    org_fingerprint: str,
    preset_path: Path | None = None,
) -> CheckedStudy:
    """Everything `create_study` checks without the study file (so a command can refuse
    before the file is opened or made): the name, the rows and the protocol to store."""
    name = name.strip()
    if not name:
        raise CrmTuiError("study name: must not be empty")
    rows = _validated_instances(instances)
    for r in rows:
        org = (r.crm_tui or {}).get("org")
        if org not in (None, org_fingerprint):
            raise CrmTuiError(
                f"task instance idx {r.idx} belongs to org {org}, not {org_fingerprint}"
            )
    solve = preset.solve
    families = {r.task for r in rows}
    if solve.distinct_families and len(families) < solve.items:
        raise CrmTuiError(
            f"{preset.name}: parts.solve asks for {solve.items} queries from "
            f"different families, but the task set has {len(families)}"
        )
    protocol = draw_pools(
        resolve_protocol(preset, preset_path),
        [(r.idx, r.task) for r in rows],
        preset.seed,
        preset_path or preset.name,
    )
    return CheckedStudy(name, preset, rows, protocol, org_fingerprint)


def create_study(
    store: StudyStore,
    name: str,
    preset: Preset,
    *,
    instances: Sequence[Mapping[str, Any]],
    task_set_hash: str,
    org_fingerprint: str,
    preset_path: Path | None = None,
) -> Study:
    """Validate everything first, then write the study and its items in one transaction."""
    checked = check_study(
        name,
        preset,
        instances=instances,
        org_fingerprint=org_fingerprint,
        preset_path=preset_path,
    )
    return write_study(store, checked, task_set_hash=task_set_hash)


def write_study(store: StudyStore, checked: CheckedStudy, *, task_set_hash: str) -> Study:
    """Write a checked study and its items in one transaction (its name must be free)."""
    name, preset, rows, protocol = checked.name, checked.preset, checked.rows, checked.protocol
    org_fingerprint = checked.org_fingerprint
    solve = preset.solve
    with store.transaction() as session:
        lock(session, "studies")  # a name is checked free, then taken
        if session.exec(select(Study).where(Study.name == name)).first():
            raise CrmTuiError(f"study name: {name!r} already exists")
        study = Study(
            name=name,
            preset=preset.name,
            org_fingerprint=org_fingerprint,
            task_set_hash=task_set_hash,
            protocol_json=protocol.model_dump_json(),
            items_per_annotator=solve.items,
            annotators_per_item=preset.annotators_per_item,
            distinct_families=solve.distinct_families,
            seed=preset.seed,
            time_limit_s=(
                round(preset.time_limit_minutes * 60) if preset.time_limit_minutes else None
            ),
            training_feedback=preset.training_feedback,
            created_at=store.now()[0],
        )
        session.add(study)
        session.flush()
        session.add_all(
            StudyItem(
                study_id=row_id(study),
                idx=r.idx,
                task=r.task,
                query=r.query,
                metadata_json=r.metadata.model_dump_json(),
                reward_metric=r.reward_metric,
                gold_json=json.dumps(r.answer),
                extra_json=json.dumps(r.crm_tui, sort_keys=True) if r.crm_tui else None,
            )
            for r in rows
        )
    return study


def with_overrides(preset: Preset, **overrides: Any) -> Preset:
    """The preset with settings replaced (None = keep); `items` and `distinct_families`
    go to the solve part. Re-validated, so a bad option is named like a bad file key."""
    data = preset.model_dump()
    solve = next(p for p in data["parts"] if p["kind"] == "solve")
    for key, value in overrides.items():
        if value is None:
            continue
        (solve if key in ("items", "distinct_families") else data)[key] = value
    return validated(Preset, data, "study options")


def solve_only_preset(items: int) -> Preset:
    """A study made from options alone: one solve part."""
    return validated(
        Preset,
        {
            "kind": "study-preset",
            "name": "custom",
            "parts": [{"kind": "solve", "title": f"Solve {items} queries", "items": items}],
        },
        "study options",
    )


def study_fits_org(study: Study, org_fingerprint: str) -> bool:
    """Whether `study`'s queries can be solved on the org with this fingerprint: its own
    org, or, for CRMArena's own task set, a live Salesforce org (CRMArena's, we trust)."""
    return study.org_fingerprint == org_fingerprint or (
        study.org_fingerprint == CRMARENA and org_fingerprint.startswith("salesforce-")
    )


def get_study(session: Session, study_id: int) -> Study:
    study = session.get(Study, study_id)
    if study is None:
        raise CrmTuiError(f"no study with id {study_id}")
    return study


def find_study(store: StudyStore, name: str) -> Study:
    with store.transaction() as session:
        study = session.exec(select(Study).where(Study.name == name)).first()
    if study is None:
        raise CrmTuiError(f"no study named {name!r} in {store.path}")
    return study


def list_studies(store: StudyStore) -> list[Study]:
    with store.transaction() as session:
        return list(session.exec(select(Study).order_by(col(Study.id))))


def pick_study(
    store: StudyStore, name: str | None = None, org_fingerprint: str | None = None
) -> Study:
    """The one rule for which study the app, its results screen and `crm-tui results` work
    on: study `name` if given, else the newest. With `org_fingerprint`, only studies that
    fit that org count (their queries' Ids and golds belong to it)."""
    every = list_studies(store)
    studies = [s for s in every if org_fingerprint is None or study_fits_org(s, org_fingerprint)]
    where = "" if org_fingerprint is None else f" for this org ({org_fingerprint})"
    if name is not None:
        named = next((s for s in studies if s.name == name), None)
        if named is None:
            known = ", ".join(repr(s.name) for s in studies) or "none"
            elsewhere = next((s for s in every if s.name == name), None)
            other_org = (
                ""
                if elsewhere is None
                else f"; {name!r} is a study of org {elsewhere.org_fingerprint} (open that org)"
            )
            raise CrmTuiError(
                f"{store.path} holds no study {name!r}{where} (studies: {known}){other_org}"
                + _how_to_make(org_fingerprint)
            )
        return named
    if not studies:
        raise CrmTuiError(
            f"{store.path} holds no study{where} yet"
            + (_how_to_make(org_fingerprint) or ": create one with `crm-tui study create`")
        )
    return studies[-1]


def _how_to_make(org_fingerprint: str | None) -> str:
    """For a live Salesforce org, the one kind of study that opens on it; else nothing."""
    if org_fingerprint is None or not org_fingerprint.startswith("salesforce-"):
        return ""
    return (
        "; a live Salesforce org opens studies of CRMArena's task set: "
        "`crm-tui tasks fetch-crmarena --out crmarena.json`, then "
        "`crm-tui study create NAME --tasks crmarena.json`"
    )


def study_protocol(study: Study) -> Protocol:
    try:
        return Protocol.model_validate_json(study.protocol_json)
    except ValidationError as exc:  # bytes changed inside the study file
        first = exc.errors()[0]
        raise CrmTuiError(
            f"study {study.name!r}: its stored protocol is damaged ({first['msg']}); "
            "restore the study file from a copy"
        ) from None
