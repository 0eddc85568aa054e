"""Plain frozen data about a study file's profiles and studies, for callers above the
study layer (the app, the CLI): they hold these, never the table rows they are read from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from crm_tui.study.work.modes import Mode as Mode  # callers above read modes from here

if TYPE_CHECKING:  # the rows and the protocol load SQLModel and pydantic: only where read
    from crm_tui.study.store.models import Annotator, Study
    from crm_tui.study.work.protocol import Protocol


@dataclass(frozen=True)
class Profile:
    """Who is working: their background and what they may see."""

    id: int
    name: str
    role: str
    crm_years: float
    mode: Mode

    @property
    def sees_gold(self) -> bool:
        """Auditors and coordinators see gold answers (the audit screen)."""
        return self.mode in (Mode.AUDITOR, Mode.COORDINATOR)

    @classmethod
    def of(cls, row: Annotator) -> Profile:
        assert row.id is not None, "a profile is read after it is written"
        return cls(row.id, row.name, row.role, row.crm_years, Mode(row.mode))


@dataclass(frozen=True)
class StudyInfo:
    """A study's settings and its resolved protocol, as created."""

    id: int
    name: str
    preset: str | None
    org_fingerprint: str
    task_set_hash: str
    items_per_annotator: int
    annotators_per_item: int
    seed: int
    protocol: Protocol
    rating_targets: tuple[str, ...]  # what the rate part asks about: "org" first, then objects

    @classmethod
    def of(cls, row: Study) -> StudyInfo:
        from crm_tui.study.work.ratings import rating_targets
        from crm_tui.study.work.studies import study_protocol

        assert row.id is not None, "a study is read after it is written"
        return cls(
            id=row.id,
            name=row.name,
            preset=row.preset,
            org_fingerprint=row.org_fingerprint,
            task_set_hash=row.task_set_hash,
            items_per_annotator=row.items_per_annotator,
            annotators_per_item=row.annotators_per_item,
            seed=row.seed,
            protocol=study_protocol(row),
            rating_targets=tuple(rating_targets(row)),
        )
