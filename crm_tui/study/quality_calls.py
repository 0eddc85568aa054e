"""The study service's quality-control calls (`StudyService` takes them in): a person's
consent, where they stand, guidelines, post-study answers; and for coordinators only the
quality overview (check results, behaviour flags, exclusions), retries, exclusions and
completion codes. Annotators learn nothing about check items through any of them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import wraps
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from crm_tui.errors import CrmTuiError
from crm_tui.study.work import progress as progress_counts
from crm_tui.study.work import quality
from crm_tui.study.work.quality import Stage, Standing
from crm_tui.study.work.studies import get_study

if TYPE_CHECKING:
    from crm_tui.study.results.quality_report import QualityReport
    from crm_tui.study.store.db import StudyStore
    from crm_tui.study.views import Profile, StudyInfo

P = ParamSpec("P")
T = TypeVar("T")
Q = TypeVar("Q", bound="QualityCalls")

QUALITY_IS_FOR_COORDINATORS = (
    "Quality control is for study coordinators: they reach their profile with their "
    "invitation code (or run `crm-tui study quality`)."
)
NOT_YET = {
    Stage.CONSENT: "Agree to the consent text first.",
    Stage.DECLINED: quality.DECLINED_TEXT,
    Stage.FAILED: quality.FAILED_TEXT,
    Stage.STOPPED: quality.STOPPED_TEXT,
}


def require_admitted(standing: Standing) -> None:
    """Refuse work to someone who has not consented, failed the gate or was stopped."""
    if standing.stage in NOT_YET:
        raise CrmTuiError(NOT_YET[standing.stage])


def _on_writer(method: Callable[Concatenate[Q, P], T]) -> Callable[Concatenate[Q, P], T]:
    """As `service._on_writer`: run on the service's one writer thread, in order."""

    @wraps(method)
    def call(self: Q, /, *args: P.args, **kwargs: P.kwargs) -> T:
        if threading.current_thread() is self._writer_thread:
            return method(self, *args, **kwargs)
        return self._writer.submit(method, self, *args, **kwargs).result()

    return call


class QualityCalls:
    """Quality-control calls of `StudyService` (its store, study and checks of who acts)."""

    _store: StudyStore
    study: StudyInfo
    _writer: ThreadPoolExecutor
    _writer_thread: threading.Thread | None
    _person_session: bool

    def _acting(self, profile_id: int | None) -> Profile | None:  # pragma: no cover
        raise NotImplementedError

    def _coordinator_acting(self, profile_id: int | None) -> None:  # pragma: no cover
        raise NotImplementedError

    # ----------------------------------------------------------------- the person's
    def _standing(self, profile_id: int) -> Standing:
        parts = progress_counts.annotator_progress(self._store, self.study.id, profile_id)
        done = all(p.complete for p in parts)
        return quality.standing(self._store, self.study.id, profile_id, done)

    @_on_writer
    def standing(self, profile_id: int) -> Standing:
        """Where the person stands: consent to give, practising, failed, solving, stopped,
        post-study questions, done (with the completion code)."""
        self._acting(profile_id)
        return self._standing(profile_id)

    @_on_writer
    def give_consent(self, profile_id: int, agree: bool) -> Standing:
        """Agree to the consent text (its hash and the time are kept) or decline."""
        self._acting(profile_id)
        quality.give_consent(self._store, self.study.id, profile_id, agree)
        return self._standing(profile_id)

    def guidelines(self, family: str) -> str | None:
        """The family's guidelines, any time (they hold no answers)."""
        plan = self.study.protocol.quality
        return plan.guidelines.get(family) if plan else None

    @_on_writer
    def guidelines_due(self, profile_id: int, family: str) -> str | None:
        """The family's guidelines when the person first meets it, else None."""
        self._acting(profile_id)
        return quality.guidelines_due(self._store, self.study.id, profile_id, family)

    @_on_writer
    def post_study_questions(self, profile_id: int) -> list[tuple[str, str, str]]:
        """(key, prompt, "scale" or "text") of the post-study part."""
        self._acting(profile_id)
        with self._store.transaction() as session:
            study = get_study(session, self.study.id)
            met = quality.families_met(session, self.study.id, profile_id)
            return quality.post_study_questions(study, met)

    @_on_writer
    def answer_post_study(self, profile_id: int, answers: dict[str, str]) -> Standing:
        self._acting(profile_id)
        if self._standing(profile_id).stage != Stage.POST_STUDY:
            raise CrmTuiError("The questions come once every part is done.")
        quality.answer_post_study(self._store, self.study.id, profile_id, answers)
        return self._standing(profile_id)

    # ----------------------------------------------------------------- coordinators
    def _coordinator(self, profile_id: int | None) -> None:
        """A coordinator, or the file holder's CLI (no profile)."""
        if profile_id is None and not self._person_session:
            return
        try:
            self._coordinator_acting(profile_id)
        except CrmTuiError:
            raise CrmTuiError(QUALITY_IS_FOR_COORDINATORS) from None

    @_on_writer
    def quality_overview(self, profile_id: int | None = None) -> QualityReport | None:
        """Per person: consent, qualification, check accuracy, flags, exclusions, codes."""
        self._coordinator(profile_id)
        from crm_tui.study.results.quality_report import build_quality

        with self._store.transaction(snapshot=True) as session:
            return build_quality(session, get_study(session, self.study.id))

    @_on_writer
    def allow_retry(self, name: str, profile_id: int | None = None) -> int:
        """One more qualification try for `name`; returns their tries now."""
        self._coordinator(profile_id)
        return quality.allow_retry(self._store, self.study.id, name, profile_id)

    @_on_writer
    def exclude(
        self,
        name: str,
        reason: str,
        *,
        attempt_id: int | None = None,
        lift: bool = False,
        profile_id: int | None = None,
    ) -> None:
        """Exclude `name` (or one attempt of theirs) from the figures, or lift it."""
        self._coordinator(profile_id)
        quality.exclude(
            self._store,
            self.study.id,
            name,
            reason,
            attempt_id=attempt_id,
            lift=lift,
            by=profile_id,
        )

    @_on_writer
    def completion_codes(self, profile_id: int | None = None) -> list[tuple[str, str]]:
        """(name, code) of everyone who finished, by name."""
        self._coordinator(profile_id)
        from crm_tui.study.results.quality_report import build_quality

        with self._store.transaction(snapshot=True) as session:
            overview = build_quality(session, get_study(session, self.study.id))
        if overview is None:
            return []
        return [(p.name, p.completion_code) for p in overview.people if p.completion_code]
