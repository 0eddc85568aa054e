"""Phrasings of case subjects and descriptions, per issue (in the order of texts' issues).

`[a|b]` marks alternatives (writing_style.vary); `{slot}`s are filled from
descriptions.case_slots. The first core of a description names the product; a second
one gets the product's type noun in its place. Subject pronouns are {they} ("it"/"they"),
object pronouns {it} ("it"/"them"). The phrasings live in data/description_phrases.toml,
read on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from crm_tui.org.generate.datafile import Table

Lines = tuple[str, ...]


@dataclass(frozen=True)
class DescriptionPhrases:
    subjects: tuple[Lines, ...]  # per issue
    subject_prefixes: Lines
    openers: Lines
    cores: tuple[Lines, ...]  # per issue
    extras: tuple[tuple[tuple[int, ...], str], ...]  # (issues they fit, empty = any; phrasing)
    generic_extras: Lines  # said by some customers whatever the issue
    asks: dict[str, Lines]  # per tone
    issues: Lines  # the issue each entry of `subjects` and `cores` is about


@cache
def description_phrases() -> DescriptionPhrases:
    """The phrasings of data/description_phrases.toml (read once)."""
    return read_description_phrases(Table.read("description_phrases.toml"))


def read_description_phrases(doc: Table) -> DescriptionPhrases:
    per_issue = doc.tables("issues")
    issues = tuple(t.string("issue") for t in per_issue)

    def fits(t: Table) -> tuple[int, ...]:
        names = t.strings("issues", empty=True)
        if unknown := [name for name in names if name not in issues]:
            raise t.error("issues", f"issues of the [[issues]] tables, not {unknown[0]!r}")
        return tuple(issues.index(name) for name in names)

    asks = doc.table("asks")
    return DescriptionPhrases(
        subjects=tuple(t.strings("subjects") for t in per_issue),
        subject_prefixes=doc.strings("subject_prefixes"),
        openers=doc.strings("openers"),
        cores=tuple(t.strings("cores") for t in per_issue),
        extras=tuple((fits(t), t.string("text")) for t in doc.tables("extras")),
        generic_extras=doc.strings("generic_extras"),
        asks={tone: asks.strings(tone) for tone in asks.keys()},
        issues=issues,
    )
