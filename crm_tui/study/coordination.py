"""A study file as its coordinator works on it: the use cases of the `crm-tui study`,
`agents` and `web` commands, each one call, on the same store and rules the app's
`StudyService` uses. The command line reaches studies only through here and the service
(an import contract holds it to that); it parses options and prints, nothing more."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation
from crm_tui.study.exchange.copy import CopiedStudy, copy_study_file
from crm_tui.study.exchange.offline import ExportSummary, MergeCounts, export_work, merge_work
from crm_tui.study.results.agent_files import AgentResultFile
from crm_tui.study.results.agent_runs import (
    ImportSummary,
    check_agent_results,
    import_agent_results,
)
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Annotator, row_id
from crm_tui.study.work import invitations
from crm_tui.study.work.first_run import ensure_defaults
from crm_tui.study.work.invitations import InvitationRow, IssuedCode, parse_expiry
from crm_tui.study.work.logins import IssuedLogin, make_login
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.progress import StudySummary, study_summary
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import (
    check_study,
    list_studies,
    pick_study,
    solve_only_preset,
    with_overrides,
    write_study,
)
from crm_tui.tasks.taskset import CRMARENA, TaskSet, check_taskset_matches, load_taskset


@dataclass(frozen=True)
class CreatedStudy:
    """What `create_study` made, for the coordinator to read back."""

    name: str
    location: str  # the file, or the server's URL without its password
    items: int
    items_per_annotator: int
    annotators_per_item: int
    seed: int
    in_crmarena_org: bool  # CRMArena's own queries: solved in CRMArena's Salesforce org


def create_study(
    location: StudyLocation,
    name: str,
    *,
    preset: str | None,
    taskset_path: Path,
    org_path: Path | None,
    default_org: Callable[[], Path],
    items: int | None = None,
    **settings: Any,
) -> CreatedStudy:
    """Create study `name` over a task set, from a preset and/or settings. Everything is
    checked before the study file is opened (or made), once. `default_org` is asked for
    only when the task set needs an org and none is named (it may make the first one)."""
    from crm_tui.org.store.orgstore import OrgStore

    if preset:
        chosen, preset_path = load_preset(preset)
    else:
        chosen, preset_path = solve_only_preset(items or 5), None
    chosen = with_overrides(chosen, items=items, **settings)
    taskset = load_taskset(taskset_path)
    if taskset.fingerprint in (None, CRMARENA) and org_path is None:
        # CRMArena's own queries: their Ids live in CRMArena's Salesforce org, so the study
        # belongs to that org (solved with `crm-tui --salesforce`, or audited anywhere).
        fingerprint = CRMARENA
    else:
        with OrgStore.open(org_path or default_org()) as org:
            check_taskset_matches(taskset, org)
            fingerprint = org.fingerprint
    checked = check_study(
        name,
        chosen,
        instances=[inst.to_row() for inst in taskset.instances],
        org_fingerprint=fingerprint,
        preset_path=preset_path,
    )
    with StudyStore.open(location) as store:
        store.refuse_blinded()
        study = write_study(store, checked, task_set_hash=taskset.content_hash)
    return CreatedStudy(
        name=study.name,
        location=str(store.path),
        items=len(taskset),
        items_per_annotator=study.items_per_annotator,
        annotators_per_item=study.annotators_per_item,
        seed=study.seed,
        in_crmarena_org=fingerprint == CRMARENA,
    )


def copy_study(source: StudyLocation, out: Path, *, force: bool) -> CopiedStudy:
    """A whole copy of the study file `source` at `out`, with the writes still in its
    -wal (SQLite's backup API), for offline work."""
    return copy_study_file(source, out, force=force)


def check_reachable(location: StudyLocation) -> None:
    """Open and close an existing study store: one line if it is down or has no study."""
    with StudyStore.open_existing(location) as store:
        store.refuse_blinded()  # a server runs on the owner's URL


def study_to_serve(
    location: StudyLocation, shown: str, name: str | None, org_fingerprint: str | None
) -> str:
    """The name of the study a server would open; one line naming what is missing and the
    command that makes it."""
    import shlex

    create = f"crm-tui study create {shlex.quote(name or 'NAME')} --db {shown}"
    if isinstance(location, Path) and not location.is_file():
        raise CrmTuiError(f"no study file at {shown}: create a study with `{create}`")
    with StudyStore.open_read_only(location) as store:
        store.refuse_blinded()  # a server runs on the owner's URL
        if name is not None and name not in {s.name for s in list_studies(store)}:
            raise CrmTuiError(f"no study {name!r} in {shown}: create it with `{create}`")
        return pick_study(store, name, org_fingerprint).name


def check_agent_files(files: Sequence[AgentResultFile], taskset: TaskSet) -> None:
    """Refuse agent result files that do not fit the task set, before any store is opened."""
    check_agent_results(files, taskset)


__all__ = [
    "CreatedStudy",
    "StudyFile",
    "check_agent_files",
    "StudySummary",
    "check_reachable",
    "create_study",
    "ensure_defaults",
    "parse_expiry",
    "study_to_serve",
]


class StudyFile:
    """An open study file (or server) for the coordinator's commands. Open it with
    `open` (made if missing), `open_existing` or `open_read_only`, as a context manager."""

    def __init__(self, store: StudyStore) -> None:
        store.refuse_blinded()  # an annotator's login: none of these commands is theirs
        self._store = store

    @classmethod
    @contextmanager
    def open(cls, location: StudyLocation) -> Iterator[StudyFile]:
        with StudyStore.open(location) as store:
            yield cls(store)

    @classmethod
    @contextmanager
    def open_existing(cls, location: StudyLocation) -> Iterator[StudyFile]:
        with StudyStore.open_existing(location) as store:
            yield cls(store)

    @classmethod
    @contextmanager
    def open_read_only(cls, location: StudyLocation) -> Iterator[StudyFile]:
        with StudyStore.open_read_only(location) as store:
            yield cls(store)

    @property
    def location(self) -> str:
        """The file's path, or the server's URL without its password."""
        return str(self._store.path)

    @property
    def note(self) -> str | None:
        """How a read-only file is read, when that differs from plain reading."""
        return self._store.note

    def summaries(self) -> list[StudySummary]:
        """Every study's progress (counts only), oldest first."""
        return [study_summary(self._store, row_id(s)) for s in list_studies(self._store)]

    def add_profile(self, name: str, role: str, crm_years: float, mode: str) -> Annotator:
        return create_profile(self._store, name, role, crm_years, mode)

    def invite(
        self,
        name: str,
        mode: str,
        *,
        job_role: str,
        crm_years: float,
        study_name: str | None,
        expires_in: timedelta,
    ) -> IssuedCode:
        """Make the profile and its invitation code (returned once, never stored)."""
        return invitations.invite(
            self._store,
            name,
            mode,
            job_role=job_role,
            crm_years=crm_years,
            study_name=study_name,
            expires_in=expires_in,
        )

    def db_login(self, name: str, *, job_role: str, crm_years: float) -> IssuedLogin:
        """A PostgreSQL login of their own for annotator NAME (made if missing)."""
        return make_login(self._store, name, job_role=job_role, crm_years=crm_years)

    def revoke(self, name: str) -> int:
        """Revoke NAME's codes that still work; how many."""
        return invitations.revoke(self._store, name)

    def invitations(self) -> list[InvitationRow]:
        return invitations.list_invitations(self._store)

    def export_work(
        self, profile: str, out: Path, *, study_name: str | None, force: bool
    ) -> ExportSummary:
        return export_work(self._store, profile, out, study_name=study_name, force=force)

    def merge_work(
        self, files: Sequence[Path], *, study_name: str | None
    ) -> tuple[str, MergeCounts]:
        return merge_work(self._store, files, study_name=study_name)

    def import_agent_results(
        self, files: Sequence[AgentResultFile], taskset: TaskSet
    ) -> ImportSummary:
        return import_agent_results(self._store, files, taskset)
