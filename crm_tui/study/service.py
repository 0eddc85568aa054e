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
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation
from crm_tui.study.quality_calls import QualityCalls, require_admitted
from crm_tui.study.store import events
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import AttemptStatus, Mode, Study
from crm_tui.study.views import Profile, StudyInfo
from crm_tui.study.work import (
    attempts,
    conversations,
    customer_role,
    drafts,
    invitations,
    live,
    my_work,
    quality,
    ratings,
)
from crm_tui.study.work import profiles as profile_rows
from crm_tui.study.work import progress as progress_counts
from crm_tui.study.work.attempts import AttemptView, Elapsed, SubmitResult
from crm_tui.study.work.audit import AnswerRecord, AuditItem, FlagRecord, audit_items
from crm_tui.study.work.clock import Clock
from crm_tui.study.work.live import AnnotatorLive, LiveProgress, Reassigned, StaleQuery
from crm_tui.study.work.progress import PartProgress, StudySummary
from crm_tui.study.work.protocol import Protocol, Questionnaire, Taxonomy
from crm_tui.study.work.quality import Standing
from crm_tui.study.work.ratings import ORG_TARGET
from crm_tui.study.work.studies import get_study, pick_study
from crm_tui.study.work.timing import HEARTBEAT_S

if TYPE_CHECKING:
    from crm_tui.study.adjudication.queue import Decision, QueueItem, VersionInfo
    from crm_tui.study.adjudication.ratings_release import RatingsRelease
    from crm_tui.study.adjudication.rescore import GoldComparison
    from crm_tui.study.results.replay import Replay
    from crm_tui.study.results.summary import Report, ReportOptions
    from crm_tui.tasks.taskset import TaskSet

# The face callers above the study layer import from: the service, the plain data it
# returns, and the constants that data is read with.
Conversation = conversations.Conversation
CustomerView = customer_role.CustomerView

__all__ = [
    "HEARTBEAT_S",
    "LIVE_IS_FOR_COORDINATORS",
    "ORG_TARGET",
    "RESULTS_ARE_FOR_COORDINATORS",
    "AnnotatorLive",
    "AnswerRecord",
    "AttemptStatus",
    "AttemptView",
    "AuditItem",
    "Clock",
    "Conversation",
    "CustomerView",
    "Elapsed",
    "FlagRecord",
    "LiveProgress",
    "Mode",
    "PartProgress",
    "Profile",
    "Protocol",
    "Questionnaire",
    "Reassigned",
    "StaleQuery",
    "Standing",
    "StudyInfo",
    "StudyService",
    "StudySummary",
    "SubmitResult",
    "Taxonomy",
]

P = ParamSpec("P")
T = TypeVar("T")

RESULTS_ARE_FOR_COORDINATORS = (
    "Results are for study coordinators and auditors: they reach their profile with their "
    "invitation code (or run `crm-tui results`)."
)
EXCLUSIONS_ARE_FOR_COORDINATORS = (
    "Exclusions are for study coordinators: figures with the exclusions kept in are theirs."
)
LIVE_IS_FOR_COORDINATORS = (
    "Live progress is for study coordinators: they reach their profile with their invitation code."
)
NOT_YOUR_PROFILE = "This session works for one profile only: the one its code opened."
CODE_FIRST = "Enter your invitation code first."


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


class StudyService(QualityCalls):
    """One study of an open study file. Open it with `StudyService.open`; close it (or use
    it as a context manager) to finish the queued calls and release the file."""

    def __init__(self, store: StudyStore, study: Study, *, person_session: bool = False) -> None:
        self._store = store
        self.study = StudyInfo.of(study)
        # A person's session (the app) acts for one profile at a time and only as someone
        # may: the profile its code opened, or else an annotator picked from the list. The
        # CLI and tests hold the whole file (the coordinator at their own machine).
        self._person_session = person_session
        self._codes_required = False
        self._reached: Profile | None = None  # the profile an invitation code opened
        self._my_attempts: set[int] = set()  # attempts this session opened
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
        path: StudyLocation,
        *,
        name: str | None = None,
        org_fingerprint: str | None = None,
        clock: Clock | None = None,
        person_session: bool = False,
        read_only: bool = False,
    ) -> StudyService:
        """The study `pick_study` chooses in the file at `path`, which must exist (looking
        for a study never creates a file). `person_session`: for the app (see __init__).
        `read_only`: for commands that only read (`StudyStore.open_read_only`)."""
        if read_only:
            store = StudyStore.open_read_only(path, clock)
        else:
            store = StudyStore.open_existing(path, clock)
        try:  # a refusal (no such study, its protocol damaged) leaves no file open
            if not person_session:
                store.refuse_blinded()  # the CLI's commands are the coordinator's
            study = pick_study(store, name, org_fingerprint)
            service = cls(store, study, person_session=person_session)
            if person_session and store.login_profile_id is not None:
                # An annotator's own PostgreSQL login: it is the credential, no code.
                service._reached = service._profile(store.login_profile_id)
            else:
                attempts.score_pending(store)  # answers given through logins
            return service
        except BaseException:
            store.close()
            raise

    @property
    def path(self) -> StudyLocation:
        """The study file, or the server's URL without its password."""
        return self._store.path

    @property
    def note(self) -> str | None:
        """How a read-only file was read, when the reader should know (`StudyStore.note`)."""
        return self._store.note

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

    async def run_beside(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Await `call` on a thread of its own: for a method that waits on something slow
        between its turns on the writer (`reply_to_customer`), which it queues itself."""
        return await asyncio.to_thread(call, *args, **kwargs)

    def _writer_call(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`call` on the writer, waited for; at once when the caller is the writer."""
        if threading.current_thread() is self._writer_thread:
            return call(*args, **kwargs)
        return self._writer.submit(call, *args, **kwargs).result()

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
        """Every profile of the file, by name (the file holder's view)."""
        if self._person_session:
            raise CrmTuiError(NOT_YOUR_PROFILE)
        return [Profile.of(row) for row in profile_rows.list_profiles(self._store)]

    @_on_writer
    def pickable_profiles(self) -> list[Profile]:
        """The profiles a person may pick from a list: annotators, and none at all when
        the session needs an invitation code."""
        if self._store.login_profile_id is not None and self._reached is not None:
            return [self._reached]  # an annotator's login: that person only
        if self._codes_required:
            return []
        return [Profile.of(row) for row in profile_rows.list_profiles(self._store, Mode.ANNOTATOR)]

    @_on_writer
    def create_profile(
        self, name: str, role: str, crm_years: float, mode: str = Mode.ANNOTATOR
    ) -> Profile:
        if self._person_session and (self._codes_required or mode != Mode.ANNOTATOR):
            # Roles that see gold come only from a code (or the CLI).
            raise CrmTuiError("Profiles here are made by invitation: ask for your code.")
        return Profile.of(profile_rows.create_profile(self._store, name, role, crm_years, mode))

    # ----------------------------------------------------------------- invitation codes
    @_on_writer
    def codes_required(self, required: bool = False) -> bool:
        """Whether this session starts with an invitation code: `required` (the app was
        started with --require-code) or anyone was ever invited to the file. Once true,
        it stays so for the session."""
        if self._store.login_profile_id is not None:
            return False  # an annotator's login opens that person's profile, no code
        self._codes_required = (
            self._codes_required or required or invitations.has_invitations(self._store)
        )
        return self._codes_required

    @_on_writer
    def redeem_code(self, code: str, source: str) -> Profile:
        """The profile `code` opens, which this session then works for; a bad code is one
        CrmTuiError, counted against `source` (who tried: the terminal, a browser)."""
        if self._reached is not None:
            raise CrmTuiError(NOT_YOUR_PROFILE)
        self._reached = Profile.of(invitations.redeem(self._store, code, source))
        return self._reached

    def _acting(self, profile_id: int | None) -> Profile | None:
        """The profile a call acts for, if this session may act for it (the writer only).
        None for the file holder's session, which may act for anyone."""
        if not self._person_session:
            return None
        if self._reached is not None:
            if profile_id != self._reached.id:
                raise CrmTuiError(NOT_YOUR_PROFILE)
            return self._reached
        if self._codes_required or profile_id is None:
            raise CrmTuiError(CODE_FIRST)
        profile = self._profile(profile_id)
        if profile.mode != Mode.ANNOTATOR:
            raise CrmTuiError(CODE_FIRST)  # gold-seeing roles: only through a code
        return profile

    def _own_attempt(self, attempt_id: int) -> None:
        if self._person_session and attempt_id not in self._my_attempts:
            raise CrmTuiError(NOT_YOUR_PROFILE)

    # ----------------------------------------------------------------- progress
    @_on_writer
    def progress(self, profile_id: int) -> list[PartProgress]:
        """The profile's progress per protocol part, in the protocol's order."""
        self._acting(profile_id)
        return progress_counts.annotator_progress(self._store, self.study.id, profile_id)

    @_on_writer
    def summary(self) -> StudySummary:
        """The whole study's progress (counts only, no answers)."""
        return progress_counts.study_summary(self._store, self.study.id)

    @_on_writer
    def unfinished_attempt(self, profile_id: int) -> int | None:
        """The profile's attempt still in progress (one at most), or None."""
        self._acting(profile_id)
        return my_work.unfinished_attempt(self._store, self.study.id, profile_id)

    @_on_writer
    def my_ratings(self, profile_id: int) -> dict[str, int]:
        """The profile's own realism ratings so far: target -> level."""
        self._acting(profile_id)
        return my_work.my_ratings(self._store, self.study.id, profile_id)

    # ----------------------------------------------------------------- solving
    @_on_writer
    def open_next(self, profile_id: int) -> AttemptView | None:
        """Resume the profile's unfinished attempt, or start its next item; None when its
        queue is done."""
        self._acting(profile_id)
        if self.study.protocol.quality is not None and not quality.may_open(
            self._standing(profile_id)
        ):
            return None  # consent, the qualification or check items stand in the way
        view = attempts.open_next(self._store, self.study.id, profile_id)
        if view is not None:
            self._my_attempts.add(view.attempt_id)
        return view

    @_on_writer
    def record_event(
        self, attempt_id: int, kind: str, payload: dict[str, Any] | None = None
    ) -> None:
        """An event of an attempt: pause, resume, focus, heartbeat, record viewed, ..."""
        self._own_attempt(attempt_id)
        attempts.record_event(self._store, attempt_id, kind, payload)

    @_on_writer
    def record_study_event(
        self, profile_id: int, kind: str, payload: dict[str, Any] | None = None
    ) -> None:
        """An event outside any attempt: exploring the org, browsing while rating."""
        self._acting(profile_id)
        events.record_study_event(self._store, self.study.id, profile_id, kind, payload)

    @_on_writer
    def save_draft(self, attempt_id: int, answer: str, edited: str | None = None) -> None:
        """Keep the answer typed so far, so a crash or a restart brings it back; `edited`:
        a text the answer settled on, logged for the replay."""
        self._own_attempt(attempt_id)
        attempts.save_draft(self._store, attempt_id, answer, edited)

    @_on_writer
    def elapsed(self, attempt_id: int) -> Elapsed:
        self._own_attempt(attempt_id)
        return attempts.elapsed(self._store, attempt_id)

    @_on_writer
    def expire_if_over_limit(self, attempt_id: int) -> bool:
        self._own_attempt(attempt_id)
        return attempts.expire_if_over_limit(self._store, attempt_id)

    @_on_writer
    def submit_answer(
        self, attempt_id: int, answer: str | None, *, confidence: int | None = None
    ) -> SubmitResult:
        """Submit the answer (None = the explicit "None") with the person's confidence."""
        self._own_attempt(attempt_id)
        return attempts.submit(self._store, attempt_id, answer, confidence=confidence)

    # ----------------------------------------------------------------- multi-turn solving
    @_on_writer
    def is_interactive(self, attempt_id: int) -> bool:
        """Whether the attempt is solved in conversation with a simulated customer."""
        self._own_attempt(attempt_id)
        return conversations.is_interactive(self._store, attempt_id)

    def open_conversation(self, attempt_id: int) -> conversations.Conversation:
        """The conversation so far; the customer's opener the first time. The customer is
        asked on the calling thread (see `reply_to_customer`)."""
        begun = self._writer_call(self._begin_conversation, attempt_id)
        if isinstance(begun, conversations.Conversation):
            return begun
        return self._writer_call(conversations.customer_said, self._store, begun, begun.ask())

    def reply_to_customer(self, attempt_id: int, text: str) -> conversations.Conversation:
        """The person's reply and the customer's answer; the attempt is submitted with the
        reply as the answer when the customer stops. Only the reading and writing run on
        the writer: the customer (an LLM may take seconds) is asked on the calling thread
        in between, so the app awaits this with `run_beside`, and other calls go on."""
        due = self._writer_call(self._say_to_customer, attempt_id, text)
        if isinstance(due, conversations.Conversation):  # a person answers in time
            return due
        return self._writer_call(conversations.customer_said, self._store, due, due.ask())

    def conversation(self, attempt_id: int) -> conversations.Conversation:
        """The conversation so far, read again: a customer played by a person answers in
        their own time, so the solver's screen asks for it."""
        return self._writer_call(self._conversation, attempt_id)

    def _conversation(self, attempt_id: int) -> conversations.Conversation:
        self._own_attempt(attempt_id)
        return conversations.current_conversation(self._store, attempt_id)

    # ----------------------------------------------------------------- the customer role
    @_on_writer
    def customer_conversations(self, profile_id: int) -> list[customer_role.CustomerView]:
        """The conversations a customer may write in (`customer_role`)."""
        self._acting(profile_id)
        return customer_role.customer_conversations(self._store, self.study.id, profile_id)

    @_on_writer
    def customer_says(
        self, profile_id: int, attempt_id: int, text: str, *, stop: bool = False
    ) -> customer_role.CustomerView:
        """The customer's turn; `stop` ends the conversation on the solver's last reply."""
        self._acting(profile_id)
        return customer_role.customer_says(self._store, attempt_id, profile_id, text, stop=stop)

    def _begin_conversation(
        self, attempt_id: int
    ) -> conversations.Conversation | conversations.CustomerTurnDue:
        self._own_attempt(attempt_id)
        return conversations.begin_conversation(self._store, attempt_id)

    def _say_to_customer(
        self, attempt_id: int, text: str
    ) -> conversations.CustomerTurnDue | conversations.Conversation:
        self._own_attempt(attempt_id)
        return conversations.say_to_customer(self._store, attempt_id, text)

    @_on_writer
    def skip(self, attempt_id: int) -> None:
        self._own_attempt(attempt_id)
        attempts.skip(self._store, attempt_id)

    # ----------------------------------------------------------------- rating and flagging
    @_on_writer
    def rationale_so_far(self, profile_id: int, target: str) -> str:
        """The draft rationale for `target`, else the submitted one, else ""."""
        self._acting(profile_id)
        return drafts.rationale_so_far(self._store, self.study.id, profile_id, target)

    @_on_writer
    def save_rationale_draft(self, profile_id: int, target: str, text: str) -> None:
        self._acting(profile_id)
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
        self._acting(profile_id)
        if self.study.protocol.quality is not None:
            require_admitted(self._standing(profile_id))
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
        self._acting(profile_id)
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
        self._acting(profile_id)
        attempts.score_pending(self._store)
        return audit_items(self._store, self.study.id, profile_id)

    @_on_writer
    def report(self, options: ReportOptions | None = None) -> Report:
        """Humans next to agents, realism and audit: whoever holds the file (the CLI);
        a person's session asks with `report_for`. `options`: the intervals' level, the
        bootstrap's resamples and seed."""
        if self._person_session:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        from crm_tui.study.results.summary import build_report  # numpy and the scorers: when asked

        attempts.score_pending(self._store)
        with self._store.transaction(snapshot=True) as session:
            return build_report(session, get_study(session, self.study.id), options)

    def _require_gold_viewer(self, profile_id: int | None) -> Profile:
        """Refuse, with one message whatever the reason, anyone but a coordinator or an
        auditor: what follows shows gold answers and other people's work."""
        try:
            acting = self._acting(profile_id)
        except CrmTuiError:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS) from None
        if acting is None and profile_id is not None:
            acting = self._profile(profile_id)
        if acting is None or not acting.sees_gold:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        return acting

    @_on_writer
    def report_for(self, profile_id: int | None, *, with_excluded: bool = False) -> Report:
        """The report as the app shows it (`with_excluded`: the exclusions kept in): to
        coordinators and auditors only, as annotators must not learn how others did while
        the study runs. Only coordinators see check results, flags and exclusions: an
        auditor's report has no quality-control section and says nothing of exclusions."""
        acting = self._require_gold_viewer(profile_id)
        coordinator = acting.mode == Mode.COORDINATOR
        if with_excluded and not coordinator:
            raise CrmTuiError(EXCLUSIONS_ARE_FOR_COORDINATORS)
        from crm_tui.study.results.summary import ReportOptions, as_auditors_see, build_report

        attempts.score_pending(self._store)
        options = ReportOptions(with_excluded=with_excluded)
        with self._store.transaction(snapshot=True) as session:
            report = build_report(session, get_study(session, self.study.id), options)
        return report if coordinator else as_auditors_see(report)

    @_on_writer
    def replay_for(self, profile_id: int | None, idx: int) -> Replay:
        """One item's solves step by step, people's and agents' (`replay.py`): to
        coordinators and auditors only, as steps show the gold; practice and check items
        to coordinators only."""
        acting = self._require_gold_viewer(profile_id)
        from crm_tui.study.results.replay import replay_item

        with self._store.transaction() as session:
            study = get_study(session, self.study.id)
            return replay_item(session, study, idx, measured_only=acting.mode != Mode.COORDINATOR)

    # ----------------------------------------------------------------- adjudication
    @_on_writer
    def adjudication_queue(self, profile_id: int | None) -> list[QueueItem]:
        """Flagged queries and those people agree on against the gold, heaviest evidence
        first (`adjudication/queue.py`): coordinators and auditors only."""
        self._require_gold_viewer(profile_id)
        from crm_tui.study.adjudication.queue import adjudication_queue

        assert profile_id is not None
        return adjudication_queue(self._store, self.study.id, profile_id)

    @_on_writer
    def decide(
        self,
        profile_id: int | None,
        idx: int,
        decision: str,
        category: str,
        note: str | None = None,
        new_gold: str | None = None,
        task_set: str | None = None,
    ) -> Decision:
        """Keep, correct (with `new_gold`) or drop query `idx`, with a taxonomy category."""
        self._require_gold_viewer(profile_id)
        from crm_tui.study.adjudication.queue import decide

        assert profile_id is not None
        return decide(
            self._store,
            self.study.id,
            profile_id,
            idx,
            decision,
            category,
            note,
            new_gold,
            task_set,
        )

    @_on_writer
    def make_version(self, profile_id: int | None) -> VersionInfo:
        """A new task-set version from the decisions in force."""
        self._require_gold_viewer(profile_id)
        from crm_tui.study.adjudication.queue import make_version

        assert profile_id is not None
        return make_version(self._store, self.study.id, profile_id)

    @_on_writer
    def gold_comparison(
        self, profile_id: int | None = None, *, with_excluded: bool = False
    ) -> GoldComparison | None:
        """Scores under the original and the latest corrected gold, over the report's
        baseline (`with_excluded`: the exclusions kept in); None before a version.
        The file holder (profile None) or a coordinator or auditor; the exclusions kept
        in, not to an auditor."""
        if self._person_session or profile_id is not None:
            acting = self._require_gold_viewer(profile_id)
            if with_excluded and acting.mode != Mode.COORDINATOR:
                raise CrmTuiError(EXCLUSIONS_ARE_FOR_COORDINATORS)
        from crm_tui.study.adjudication.rescore import gold_comparison

        with self._store.transaction(snapshot=True) as session:
            study = get_study(session, self.study.id)
            return gold_comparison(session, study, with_excluded=with_excluded)

    @_on_writer
    def adjudicator(self, name: str) -> int:
        """The file holder's CLI acts as adjudicator `name` (a coordinator or auditor)."""
        if self._person_session:
            raise CrmTuiError(NOT_YOUR_PROFILE)
        from crm_tui.study.adjudication.queue import adjudicator_id

        return adjudicator_id(self._store, name)

    @_on_writer
    def task_set_versions(self) -> list[VersionInfo]:
        """The study's audited versions, oldest first (the file holder's view)."""
        if self._person_session:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        from crm_tui.study.adjudication.queue import versions

        with self._store.transaction() as session:
            return versions(session, self.study.id)

    @_on_writer
    def audited_task_set(self, number: int | None = None) -> tuple[TaskSet, VersionInfo]:
        """Version `number` (default the latest) as a task set, to export."""
        if self._person_session:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        from crm_tui.study.adjudication.queue import version_taskset

        with self._store.transaction() as session:
            return version_taskset(session, get_study(session, self.study.id), number)

    @_on_writer
    def ratings_release(self) -> RatingsRelease:
        """The study's realism ratings (people as R1, R2, ...) and their agreement."""
        if self._person_session:
            raise CrmTuiError(RESULTS_ARE_FOR_COORDINATORS)
        from crm_tui.study.adjudication.ratings_release import ratings_release

        with self._store.transaction(snapshot=True) as session:
            return ratings_release(session, get_study(session, self.study.id))

    # ----------------------------------------------------------------- watching a study live
    @_on_writer
    def live_progress(self, profile_id: int | None) -> LiveProgress:
        """Each annotator's progress, who is at work now and the stale queries, read fresh
        (coordinators only: it shows how everyone is doing)."""
        self._coordinator_acting(profile_id)
        assert profile_id is not None
        attempts.score_pending(self._store)  # check items count once scored
        return live.live_progress(self._store, self.study.id, profile_id)

    @_on_writer
    def reassign(self, profile_id: int | None, attempt_id: int, to_profile_id: int) -> Reassigned:
        """Give an open query to another annotator; its attempt and events stay, closed
        as skipped (coordinators only)."""
        self._coordinator_acting(profile_id)
        assert profile_id is not None
        return live.reassign(self._store, self.study.id, profile_id, attempt_id, to_profile_id)

    def _coordinator_acting(self, profile_id: int | None) -> None:
        """Refuse unless `profile_id` is a coordinator this session may act for."""
        try:
            acting = self._acting(profile_id)
        except CrmTuiError:
            raise CrmTuiError(LIVE_IS_FOR_COORDINATORS) from None
        if acting is None and profile_id is not None:
            acting = self._profile(profile_id)
        if acting is None or acting.mode != Mode.COORDINATOR:
            raise CrmTuiError(LIVE_IS_FOR_COORDINATORS)

    def _profile(self, profile_id: int) -> Profile:
        with self._store.transaction() as session:
            return Profile.of(profile_rows.get_profile(session, profile_id))
