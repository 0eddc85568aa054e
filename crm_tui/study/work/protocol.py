"""Annotation protocols as data: the realism questionnaire, the audit taxonomy and study
presets, read from TOML in `annotations/` and validated on load.

A bad file raises CrmTuiError naming the file and the key (e.g. `parts[1].minutes`).
A study stores its resolved `Protocol` so later edits to the files change nothing.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from crm_tui import paths
from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.catalogue import get_object, has_object
from crm_tui.study.work.bounds import Count, Minutes, Seed
from crm_tui.study.work.quality_protocol import (
    Behaviour,
    Checks,
    CompletionCode,
    Consent,
    PostStudy,
    Qualification,
    QualityPlan,
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _known_objects(names: list[str]) -> list[str]:
    unknown = [n for n in names if not has_object(n)]
    if unknown:
        raise ValueError(f"unknown object {unknown[0]!r}")
    return [get_object(n).name for n in names]


# ----------------------------------------------------------------- questionnaire
class Level(_Strict):
    level: int
    label: str
    anchor: str


class OrgQuestion(_Strict):
    prompt: str


class ObjectQuestion(_Strict):
    prompt: str
    sample_records: Count = 5


class RationaleQuestion(_Strict):
    prompt: str
    required: bool = False


class Questionnaire(_Strict):
    kind: Literal["questionnaire"]
    name: str
    title: str
    levels: list[Level]
    dont_know: Level
    org: OrgQuestion
    object: ObjectQuestion
    rationale: RationaleQuestion

    @field_validator("levels")
    @classmethod
    def _five_ordered_levels(cls, levels: list[Level]) -> list[Level]:
        if [lv.level for lv in levels] != [1, 2, 3, 4, 5]:
            raise ValueError("must be levels 1, 2, 3, 4, 5 in that order")
        return levels

    @field_validator("dont_know")
    @classmethod
    def _dont_know_is_zero(cls, level: Level) -> Level:
        if level.level != 0:
            raise ValueError("level must be 0")
        return level


# ----------------------------------------------------------------- audit taxonomy
class Category(_Strict):
    key: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    label: str
    description: str
    suggest_answer: bool = False


class Taxonomy(_Strict):
    kind: Literal["taxonomy"]
    name: str
    categories: Annotated[list[Category], Field(min_length=1)]

    @field_validator("categories")
    @classmethod
    def _unique_keys(cls, categories: list[Category]) -> list[Category]:
        keys = [c.key for c in categories]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise ValueError(f"category key {duplicates[0]!r} appears twice")
        return categories


# ----------------------------------------------------------------- study presets
class ExplorePart(_Strict):
    kind: Literal["explore"]
    title: str
    minutes: Minutes | None = None
    objects: list[str] = []

    _objects = field_validator("objects")(_known_objects)


class SolvePart(_Strict):
    kind: Literal["solve"]
    title: str
    minutes: Minutes | None = None
    items: Count
    distinct_families: bool = False
    # Multi-turn solving (`conversations.py`): "all" items, or "alternate" (every other
    # item per person, the other half for the next person: the same items both ways).
    interactive: Literal["off", "all", "alternate"] = "off"
    # "person": a participant with the customer role types the customer's side
    simulated_user: Literal["scripted", "llm", "person"] = "scripted"
    max_user_turns: Count = 10


class RatePart(_Strict):
    kind: Literal["rate"]
    title: str
    minutes: Minutes | None = None
    org: bool = True
    objects: list[str] = []

    _objects = field_validator("objects")(_known_objects)


Part = Annotated[ExplorePart | SolvePart | RatePart, Field(discriminator="kind")]


class Preset(_Strict):
    kind: Literal["study-preset"]
    name: str
    description: str = ""
    questionnaire: str = "realism"
    taxonomy: str = "audit-taxonomy"
    annotators_per_item: Count = 1
    seed: Seed = 0
    time_limit_minutes: Minutes | None = None  # per attempt, in active time
    training_feedback: bool = False
    two_person_rule: bool = False  # a correction or a drop counts once two adjudicators agree
    parts: Annotated[list[Part], Field(min_length=1)]
    # Quality controls (`quality_protocol.py`), each optional.
    consent: Consent | None = None
    guidelines: dict[str, str] = {}  # task family (name or abbreviation) -> Markdown file
    qualification: Qualification | None = None
    checks: Checks | None = None
    behaviour: Behaviour | None = None
    post_study: PostStudy | None = None
    completion_code: CompletionCode | None = None
    measured_items: list[int] = []  # task instance idx measured; empty: all outside the pools

    @model_validator(mode="after")
    def _one_part_of_each_kind(self) -> Preset:
        kinds = [p.kind for p in self.parts]
        for kind in set(kinds):
            if kinds.count(kind) > 1:
                raise ValueError(f"more than one {kind!r} part")
        if "solve" not in kinds:
            raise ValueError("a study needs a 'solve' part")
        return self

    @property
    def solve(self) -> SolvePart:
        return next(p for p in self.parts if isinstance(p, SolvePart))


class Protocol(_Strict):
    """What a study runs, resolved and frozen into the study row."""

    parts: list[Part]
    questionnaire: Questionnaire
    taxonomy: Taxonomy
    two_person_rule: bool = False  # the preset's: see `adjudication.py`
    quality: QualityPlan | None = None  # consent, gate, check items...: `quality_protocol.py`

    @property
    def rate(self) -> RatePart | None:
        return next((p for p in self.parts if isinstance(p, RatePart)), None)

    def category(self, key: str) -> Category:
        for category in self.taxonomy.categories:
            if category.key == key:
                return category
        known = ", ".join(c.key for c in self.taxonomy.categories)
        raise CrmTuiError(f"unknown flag category {key!r} (one of: {known})")


# ----------------------------------------------------------------- loading
def _error_location(loc: tuple[Any, ...]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part not in ("explore", "solve", "rate"):  # discriminator tags add nothing
            text += f".{part}" if text else str(part)
    return text or "(top level)"


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], data: dict[str, Any], source: object) -> M:
    """`model` built from `data`, or CrmTuiError naming `source` and the first bad key."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise CrmTuiError(f"{source}: {_error_location(first['loc'])}: {first['msg']}") from None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CrmTuiError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise CrmTuiError(f"{path}: cannot read ({exc.strerror})") from None


def protocol_file(name_or_path: str | Path, near: Path | None = None) -> Path:
    """A protocol by file path, or by name in `near` (a preset's folder) or `annotations/`."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".toml" or candidate.is_file():
        if not candidate.is_file():
            raise CrmTuiError(f"{candidate}: no such protocol file")
        return candidate
    folders = [f for f in (near, paths.bundled_dir("annotations")) if f is not None]
    for folder in folders:
        if (folder / f"{name_or_path}.toml").is_file():
            return folder / f"{name_or_path}.toml"
    raise CrmTuiError(
        f"no protocol named {str(name_or_path)!r} in "
        f"{', '.join(map(str, folders))} (presets: {', '.join(preset_names())})"
    )


def load_preset(name_or_path: str | Path) -> tuple[Preset, Path]:
    path = protocol_file(name_or_path)
    return validated(Preset, _read_toml(path), path), path


def resolve_protocol(preset: Preset, preset_path: Path | None = None) -> Protocol:
    """The preset's parts with its questionnaire and taxonomy files loaded in."""
    near = preset_path.parent if preset_path else None
    q_path = protocol_file(preset.questionnaire, near)
    t_path = protocol_file(preset.taxonomy, near)
    from crm_tui.study.work.quality_plan import resolve_quality

    return Protocol(
        parts=preset.parts,
        questionnaire=validated(Questionnaire, _read_toml(q_path), q_path),
        taxonomy=validated(Taxonomy, _read_toml(t_path), t_path),
        two_person_rule=preset.two_person_rule,
        quality=resolve_quality(preset, preset_path),
    )


def preset_names() -> list[str]:
    """Bundled presets: the `annotations/*.toml` files whose kind is study-preset."""
    folder = paths.bundled_dir("annotations")
    names = []
    for path in sorted(folder.glob("*.toml")):
        try:
            if tomllib.loads(path.read_text(encoding="utf-8")).get("kind") == "study-preset":
                names.append(path.stem)
        except (tomllib.TOMLDecodeError, OSError):
            continue  # a broken file is reported when someone loads it by name
    return names
