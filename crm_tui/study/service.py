"""The study's one face for the app and the CLI: `StudyService`, bound to an open study
file, one study in it (chosen by `pick_study`), and one writer thread.

Every call runs on the writer thread, one after another in the order made: a pause is on
disk before its resume, and the app's UI loop never waits on a lock. The CLI and tests
call the methods directly (each blocks until done); the app queues them with `submit` or
awaits `run`. What comes back is plain frozen data, never a table row.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from crm_tui.errors import CrmTuiError
from crm_tui.study import attempts, drafts, events, my_work, ratings
from crm_tui.study import profiles as profile_rows
from crm_tui.study import progress as progress_counts
from crm_tui.study.attempts import AttemptView, Elapsed, SubmitResult
from crm_tui.study.audit import AuditItem, FlagRecord, audit_items
from crm_tui.study.clock import Clock
from crm_tui.study.db import StudyStore
from crm_tui.study.models import Mode, Study
from crm_tui.study.progress import PartProgress, StudySummary
from crm_tui.study.protocol import Protocol, Questionnaire, Taxonomy
from crm_tui.study.ratings import ORG_TARGET
from crm_tui.study.studies import get_study, pick_study
from crm_tui.study.timing import HEARTBEAT_S
from crm_tui.study.views import Profile, StudyInfo

if TYPE_CHECKING:
    from crm_tui.study.report import Report

# The face callers above the study layer import from: the service, the plain data it
# returns, and the constants that data is read with.
__all__ = [
    "HEARTBEAT_S",
    "ORG_TARGET",
    "RESULTS_ARE_FOR_COORDINATORS",
    "AttemptView",
    "AuditItem",
    "Clock",
    "Elapsed",
    "FlagRecord",
    "Mode",
    "PartProgress",
    "Profile",
    "Protocol",
    "Questionnaire",
    "StudyInfo",
    "StudyService",
    "StudySummary",
    "SubmitResult",
    "Taxonomy",
]

P = ParamSpec("P")
T = TypeVar("T")

RESULTS_ARE_FOR_COORDINATORS = (
    "Results are for study coordinators. Choose a coordinator profile (or run `crm-tui report`)."
)


def _on_writer(
    method: Callable[Concatenate[StudyService, P], T],
) -> Callable[Concatenate[StudyService, P], T]:
    """Run the method on the service's writer thread and wait for it; at once when the
    caller is the writer already (a call queued with `submit`)."""

    @wraps(method)
    def call(self: StudyService, /, *args: P.args, **kwargs: P.kwargs) -> T:
        if threading.current_thread() is self._writer_thread:
            return method(self, *args, **kwargs)
        return self._writer.submit(method, self, *args, **kwargs).result()

    return call


class StudyService:
    """One study of an open study file. Open it with `StudyService.open`; close it (or use
    it as a context manager) to finish the queued calls and release the file."""

    def __init__(self, store: StudyStore, study: Study) -> None:
        self._store = store
        self.study = StudyInfo.of(study)
        self._writer_thread: threading.Thread | None = None
        # One thread: calls run in the order they were made.
        self._writer = ThreadPoolExecutor(
            1, thread_name_prefix="study-writer", initializer=self._mark_writer
        )

    def _mark_writer(self) -> None:
        self._writer_thread = threading.current_thread()

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        name: str | None = None,
        org_fingerprint: str | None = None,
        clock: Clock | None = None,
    ) -> StudyService:
        """The study `pick_study` chooses in the file at `path`, which must exist (looking
        for a study never creates a file)."""
        store = StudyStore.open_existing(path, clock)
        try:
            study = pick_study(store, name, org_fingerprint)
        except BaseException:
            store.close()
            raise
        return cls(store, study)

    @property
    def path(self) -> Path:
        return self._store.path

    def monotonic_ms(self) -> int:
        """The study clock's monotonic time, which paces the app's timer between events
        (it reads no file, so any thread may ask)."""
        return self._store.clock.monotonic_ms()

    # ----------------------------------------------------------------- running calls
    def submit(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Queue `call` (a method of this service) on the writer, after every call before it."""
        return self._writer.submit(call, *args, **kwargs)

    async def run(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Await `call` from an asyncio loop (the app's): queued at once, never blocking."""
        return await asyncio.wrap_future(self.submit(call, *args, **kwargs))

    def flush(self) -> Future[None]:
        """Done once every call queued so far has run."""
        return self._writer.submit(lambda: None)

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self._store.close()

    def __enter__(self) -> StudyService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- profiles
    @_on_writer
    def profiles(self) -> list[Profile]:
        """Every profile of the file, by name."""
        return [Profile.of(row) for row in profile_rows.list_profiles(self._store)]

    @_on_writer
    def create_profile(
        self, name: str, role: str, crm_years: float, mode: str = Mode.ANNOTATOR
    ) -> Profile:
        return Profile.of(profile_rows.create_profile(self._store, name, role, crm_years, mode))

    # ----------------------------------------------------------------- progress
    @_on_writer
    def progress(self, profile_id: int) -> list[PartProgress]:
        """The profile's progress per protocol part, in the protocol's order."""
        return progress_counts.annotator_progress(self._store, self.study.id, profile_id)

    @_on_writer
    def summary(self) -> StudySummary:
        """The whole study's progress (counts only, no answers)."""
        return progress_counts.study_summary(self._store, self.study.id)

    @_on_writer
    def unfinished_attempt(self, profile_id: int) -> int | None:
        """The profile's attempt still in progress (one at most), or None."""
        return my_work.unfinished_attempt(self._store, self.study.id, profile_id)

    @_on_writer
    def my_ratings(self, profile_id: int) -> dict[str, int]:
        """The profile's own realism ratings so far: target -> level."""
        return my_work.my_ratings(self._store, self.study.id, profile_id)

    # ----------------------------------------------------------------- solving
    @_on_writer
    def open_next(self, profile_id: int) -> AttemptView | None:
        """Resume the profile's unfinished attempt, or start its next item; None when its
        queue is done."""
        return attempts.open_next(self._store, self.study.id, profile_id)

    @_on_writer
    def record_event(
        self, attempt_id: int, kind: str, payload: dict[str, Any] | None = None
    ) -> None:
        """An event of an attempt: pause, resume, focus, heartbeat, record viewed, ..."""
        attempts.record_event(self._store, attempt_id, kind, payload)

    @_on_writer
    def record_study_event(
        self, profile_id: int, kind: str, payload: dict[str, Any] | None = None
    ) -> None:
        """An event outside any attempt: exploring the org, browsing while rating."""
        events.record_study_event(self._store, self.study.id, profile_id, kind, payload)

    @_on_writer
    def save_draft(self, attempt_id: int, answer: str) -> None:
        """Keep the answer typed so far, so a crash or a restart brings it back."""
        attempts.save_draft(self._store, attempt_id, answer)

    @_on_writer
    def elapsed(self, attempt_id: int) -> Elapsed:
        return attempts.elapsed(self._store, attempt_id)

    @_on_writer
    def expire_if_over_limit(self, attempt_id: int) -> bool:
        return attempts.expire_if_over_limit(self._store, attempt_id)

    @_on_writer
    def submit_answer(
        self, attempt_id: int, answer: str | None, *, confidence: int | None = None
    ) -> SubmitResult:
        """Submit the answer (None = the explicit "None") with the person's confidence."""
        return attempts.submit(self._store, attempt_id, answer, confidence=confidence)

    @_on_writer
    def skip(self, attempt_id: int) -> None:
        attempts.skip(self._store, attempt_id)

    # ----------------------------------------------------------------- rating and flagging
    @_on_writer
    def rationale_so_far(self, profile_id: int, target: str) -> str:
        """The draft rationale for `target`, else the submitted one, else ""."""
        return drafts.rationale_so_far(self._store, self.study.id, profile_id, target)

    @_on_writer
    def save_rationale_draft(self, profile_id: int, target: str, text: str) -> None:
        drafts.save_text_draft(
            self._store, self.study.id, profile_id, drafts.realism_key(target), text
        )

    @_on_writer
    def rate_realism(
        self,
        profile_id: int,
        target: str,
        level: int,
        rationale: str | None = None,
        record_ids: Sequence[str] = (),
    ) -> dict[str, int]:
        """Rate the org or an object; returns the profile's ratings so far, this one in."""
        ratings.rate_realism(
            self._store, self.study.id, profile_id, target, level, rationale, record_ids
        )
        return my_work.my_ratings(self._store, self.study.id, profile_id)

    @_on_writer
    def flag_item(
        self,
        profile_id: int,
        item_id: int,
        category: str,
        comment: str | None = None,
        suggested_answer: str | None = None,
    ) -> FlagRecord:
        """Flag a query (annotators: only one of their own queue)."""
        flag = ratings.flag_item(
            self._store, self.study.id, profile_id, item_id, category, comment, suggested_answer
        )
        who = self._profile(profile_id).name
        return FlagRecord(who, flag.category, flag.comment, flag.suggested_answer)

    # ----------------------------------------------------------------- auditors, coordinators
    @_on_writer
    def audit_items(self, profile_id: int) -> list[AuditItem]:
        """Every item with its gold, the human answers and the flags (auditors and
        coordinators only)."""
        return audit_items(self._store, self.study.id, profile_id)

    @_on_writer
    def report(self) -> Report:
        """Humans next to agents, realism and audit: whoever holds the file (the CLI)."""
        from crm_tui.study.report import build_report  # numpy and the scorers: when asked

        with self._store.transaction() as session:
            return build_report(session, get_study(session, self.study.id))

    @_on_writer
    def report_for(self, profile_id: int | None) -> Report:
        """The report as the app shows it: to coordinators only, as annotators must not
        learn how others did while the study runs."""
        if profile_id is None or self._profile(profile_id).mode != Mode.COORDINATOR:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        return self.report()

    def _profile(self, profile_id: int) -> Profile:
        with self._store.transaction() as session:
            return Profile.of(profile_rows.get_profile(session, profile_id))
