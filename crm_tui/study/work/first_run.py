"""First run: everything a newcomer needs, made with no step of their own.

Plain `crm-tui` calls `ensure_defaults` before opening the app: the local default org
(seed 1, scale 1), the default task set generated from it, and a practice study on the
paper's expert-study preset. Each piece is made only if missing, and each is written
whole or not at all, so an interrupted first run simply resumes on the next start.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from crm_tui.org.generate.build_file import generate as generate_org
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, list_studies
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.taskset import check_taskset_matches, load_taskset, write_taskset

DEFAULT_STUDY = "Practice study"
DEFAULT_PRESET = "paper-expert-study"

Progress = Callable[[float, str], None]


def ensure_defaults(
    org_path: Path, taskset_path: Path, study_path: Path, progress: Progress | None = None
) -> list[str]:
    """Make whichever of org, task set and study is missing; returns what was made."""
    report = progress or (lambda fraction, label: None)
    made: list[str] = []
    if not org_path.exists():
        generate_org(org_path, seed=1, scale=1.0, progress=lambda f, label: report(0.8 * f, label))
        made.append(f"org {org_path}")
    with OrgStore.open(org_path) as org:
        if not taskset_path.exists():
            report(0.8, "generating the task set")
            write_taskset(generate_taskset(org, seed=1), taskset_path)
            made.append(f"task set {taskset_path}")
        taskset = load_taskset(taskset_path)
        check_taskset_matches(taskset, org)
        fingerprint = org.fingerprint
    with StudyStore.open(study_path) as store:  # makes the folders it needs, private
        if not any(s.org_fingerprint == fingerprint for s in list_studies(store)):
            report(0.95, "creating the practice study")
            preset, preset_path = load_preset(DEFAULT_PRESET)
            create_study(
                store,
                _free_name(store),
                preset,
                preset_path=preset_path,
                instances=[inst.to_row() for inst in taskset.instances],
                task_set_hash=taskset.content_hash,
                org_fingerprint=fingerprint,
            )
            made.append(f"study {DEFAULT_STUDY!r} in {study_path}")
    report(1.0, "ready")
    return made


def _free_name(store: StudyStore) -> str:
    taken = {s.name for s in list_studies(store)}
    name, n = DEFAULT_STUDY, 2
    while name in taken:
        name, n = f"{DEFAULT_STUDY} {n}", n + 1
    return name
