"""A preset's quality controls as data: consent, guidelines, the qualification gate, hidden
check items, behaviour flags and post-study questions (`annotations/human-baseline.toml`).

Each is an optional top-level table of the preset, validated on load like the rest of it;
a bad value names its key (`checks.share`, `qualification.pass_correct`). What a study
runs is resolved once, when it is created, into a `QualityPlan` stored with its protocol:
the consent text and its hash, the guidelines' texts, and which task instances are the
practice pool and the check items. Later edits to the files change nothing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    PositiveFloat,
    ValidationInfo,
    field_validator,
)

from crm_tui.errors import CrmTuiError
from crm_tui.study.work.bounds import Count


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Consent(_Strict):
    """A Markdown text to agree to before anything else; declining ends the session."""

    title: str = "Consent"
    file: str  # Markdown, beside the preset or in annotations/


class Qualification(_Strict):
    """N practice items with known answers; `pass_correct` of them right passes."""

    title: str = "Qualification"
    items: Count = 5
    pass_correct: Count = 4
    tries: Count = 2
    pool: list[int] = []  # task instance idx; empty: drawn when the study is created
    pool_size: Count | None = None  # drawn pool's size (default items * (tries + 1))

    @field_validator("pass_correct")
    @classmethod
    def _not_more_than_items(cls, value: int, info: ValidationInfo) -> int:
        items = info.data.get("items")
        if items is not None and value > items:
            raise ValueError(f"{value} right answers asked of {items} practice items")
        return value

    @property
    def drawn_pool_size(self) -> int:
        return self.pool_size or self.items * (self.tries + 1)


class Checks(_Strict):
    """Solve items with known answers mixed into each queue, never counted in the
    baseline; a person's accuracy on them warns the coordinator or stops the person."""

    share: Annotated[float, Field(gt=0, le=0.5)] = 0.1
    pool: list[int] = []  # task instance idx; empty: drawn when the study is created
    pool_size: Count = 20
    warn_below: Annotated[float, Field(ge=0, le=1)] = 0.8
    stop_below: Annotated[float, Field(ge=0, le=1)] = 0.5
    min_answered: Count = 3  # thresholds apply from this many check answers on

    @field_validator("stop_below")
    @classmethod
    def _stop_not_above_warn(cls, value: float, info: ValidationInfo) -> float:
        warn = info.data.get("warn_below")
        if warn is not None and value > warn:
            raise ValueError(f"stopping below {value} is above warning below {warn}")
        return value


class Behaviour(_Strict):
    """When a flag is raised: answers faster than a floor per family (seconds; families
    not named use the 5th percentile of everyone's active time), idle spans inside an
    attempt, straight-lined realism ratings, answers identical to the previous item's."""

    fast_floor_s: dict[str, PositiveFloat] = {}
    fast_percentile: Annotated[float, Field(gt=0, lt=50)] = 5
    idle_s: PositiveFloat = 300
    straight_lining_min_ratings: Annotated[int, Field(ge=2)] = 4


class PostQuestion(_Strict):
    key: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    prompt: str
    kind: str = Field(default="text", pattern=r"^(text|scale)$")


class PostStudy(_Strict):
    """Short questions at the end: difficulty per family (1-5), then free text."""

    title: str = "A few questions"
    difficulty_per_family: bool = True
    questions: list[PostQuestion] = []


class CompletionCode(_Strict):
    """A code shown when every part is done, for crowd platforms."""

    prefix: Annotated[str, Field(pattern=r"^[A-Z0-9-]{0,12}$")] = ""


# ----------------------------------------------------------------- resolved plan
class QualityPlan(_Strict):
    """What a study's quality controls are, resolved and frozen when it is created."""

    consent_title: str | None = None
    consent_text: str | None = None
    consent_sha256: str | None = None
    guidelines: dict[str, str] = {}  # task family -> Markdown
    qualification: Qualification | None = None
    practice_idx: list[int] = []
    checks: Checks | None = None
    check_idx: list[int] = []
    checks_per_person: NonNegativeInt = 0
    measured_idx: list[int] = []  # empty: every instance outside the two pools
    behaviour: Behaviour = Behaviour()
    post_study: PostStudy | None = None
    completion: CompletionCode | None = None

    @property
    def reserved_idx(self) -> set[int]:
        return set(self.practice_idx) | set(self.check_idx)


def text_sha256(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_text_file(name: str, near: Path | None, key: str, source: object) -> str:
    """A Markdown file named by the preset (beside it, else in annotations/)."""
    from crm_tui import paths

    candidate = Path(name)
    folders = [f for f in (near, paths.bundled_dir("annotations")) if f is not None]
    tried = [candidate] if candidate.is_absolute() else [f / candidate for f in folders]
    for path in tried:
        if path.is_file():
            try:
                return path.read_text(encoding="utf-8")
            except OSError as exc:
                raise CrmTuiError(f"{source}: {key}: cannot read {path} ({exc.strerror})") from None
    raise CrmTuiError(f"{source}: {key}: no such file {name!r}")
