"""The nine task families, read from the TOML definitions in the bundled `tasks/` folder.

A family's wording (templates, suffix, policy text) is data; its gold rule is code
(`gold.py`). Loading validates every file and names the file and key at fault.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.catalogue import has_object
from crm_tui.paths import bundled_dir

PERSONAS = {
    "service_manager": "Service Manager",
    "service_agent": "Service Agent",
    "service_analyst": "Service Analyst",
    "sales_agent": "Sales Agent",  # CRMArena-Pro's sales families (`pro_families`)
}
ANSWER_TYPES = ("record_id", "month", "state", "text")
METRICS = ("exact_match", "fuzzy_match")
DOMAIN_DETAILS_FILE = "domain_details.md"


@dataclass(frozen=True)
class Family:
    name: str
    abbrev: str
    block: int  # position in CRMArena's idx order (blocks of 130)
    persona: str
    answer_type: str
    answer_object: str | None  # the object whose Id answers a record_id family
    metric: str
    false_presupposition: bool
    templates: tuple[str, ...]
    suffix: str
    required: str
    details: str = ""  # appended after the suffix (NCR's "## Given Case" block)
    words: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def persona_label(self) -> str:
        return PERSONAS[self.persona]


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], source: Path) -> Any:
    if key not in data:
        raise CrmTuiError(f"{source}: missing key {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CrmTuiError(f"{source}: key {key!r} has the wrong type ({type(value).__name__})")
    return value


def _parse_family(data: dict[str, Any], source: Path) -> Family:
    def choice(key: str, allowed: Collection[str]) -> str:
        value: str = _require(data, key, str, source)
        if value not in allowed:
            raise CrmTuiError(
                f"{source}: key {key!r} must be one of {sorted(allowed)}, not {value!r}"
            )
        return value

    answer_type = choice("answer_type", ANSWER_TYPES)
    answer_object = data.get("answer_object")
    if (answer_type == "record_id") != bool(answer_object) or (
        answer_object and not has_object(answer_object)
    ):
        raise CrmTuiError(
            f"{source}: key 'answer_object' must name a catalogue object "
            "exactly when answer_type is 'record_id'"
        )
    templates = _require(data, "templates", list, source)
    if not templates or not all(isinstance(t, str) and t.strip() for t in templates):
        raise CrmTuiError(f"{source}: key 'templates' must be a non-empty list of strings")
    name = _require(data, "name", str, source)
    if name != source.stem:
        raise CrmTuiError(f"{source}: key 'name' is {name!r} but the file is {source.name}")
    return Family(
        name=name,
        abbrev=_require(data, "abbrev", str, source),
        block=_require(data, "block", int, source),
        persona=choice("persona", PERSONAS),
        answer_type=answer_type,
        answer_object=answer_object,
        metric=choice("metric", METRICS),
        false_presupposition=_require(data, "false_presupposition", bool, source),
        templates=tuple(templates),
        suffix=_require(data, "suffix", str, source),
        required=_require(data, "required", str, source),
        details=data.get("details", ""),
        words=data.get("words", {}),
    )


def load_families(folder: Path) -> dict[str, Family]:
    """Every `*.toml` family in `folder`, keyed by task name, in CRMArena's block order."""
    families = []
    for source in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(source.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CrmTuiError(f"{source}: not valid TOML ({exc})") from None
        families.append(_parse_family(data, source))
    families.sort(key=lambda f: f.block)
    if [f.block for f in families] != list(range(len(families))):
        raise CrmTuiError(f"{folder}: family blocks must be 0..{len(families) - 1}, each once")
    return {f.name: f for f in families}


@cache
def families() -> dict[str, Family]:
    """The bundled families (cached)."""
    return load_families(bundled_dir("tasks"))


def get_family(name: str) -> Family:
    try:
        return families()[name]
    except KeyError:
        raise CrmTuiError(f"Unknown task {name!r}; known tasks: {', '.join(families())}") from None


@cache
def domain_details() -> str:
    """The `metadata.optional` block shared by every generated instance."""
    return (bundled_dir("tasks") / DOMAIN_DETAILS_FILE).read_text(encoding="utf-8").strip()
