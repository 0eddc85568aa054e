"""Knowledge article texts: the issue policies and the product and service guides.

In the sentences, `{{...}}` marks a fact span: the text between the braces is written into
the article verbatim and is the answer of a question-answer pair (latent `ARTICLE_QA`).
`<<Type Noun>>` is replaced by the name of a generated product of that type. The texts
live in data/kbtexts.toml, read on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TypedDict

from crm_tui.org.generate.datafile import Table

NO_LIMIT = "no limit"  # a resolution's window in the data file when it has none


class Policy(TypedDict):
    """One issue's policy article."""

    issue: str  # Issue__c name
    phrase: str  # "an incorrect item"
    title: str
    summary: str
    resolutions: dict[str, int | None]  # resolution -> window in days (None: no limit)
    intro: str
    facts: list[tuple[str, str]]  # (sentence with a {{span}}, its question)


# A guide: title, summary, and its sentences with the question each span answers (or None).
Guide = tuple[str, str, list[tuple[str, str | None]]]


@dataclass(frozen=True)
class KnowledgeTexts:
    resolutions: dict[str, str]  # resolutions agents may offer -> a sentence describing each
    policies: tuple[Policy, ...]  # one per issue, in the order of the issues
    intro_questions: dict[str, list[str]]  # issue -> questions for its intro's {{spans}}
    guides: tuple[Guide, ...]


@cache
def kbtexts() -> KnowledgeTexts:
    """The texts of data/kbtexts.toml (read once)."""
    return read_kbtexts(Table.read("kbtexts.toml"))


def resolutions() -> dict[str, str]:
    """Resolutions agents may offer, with a sentence describing each (in the file's order)."""
    return kbtexts().resolutions


def read_kbtexts(doc: Table) -> KnowledgeTexts:
    described = doc.table("resolutions")
    offered = {name: described.string(name) for name in described.keys()}
    intro = doc.table("intro_questions")
    return KnowledgeTexts(
        resolutions=offered,
        policies=tuple(policy(t, offered) for t in doc.tables("policies")),
        intro_questions={issue: list(intro.strings(issue)) for issue in intro.keys()},
        guides=tuple(
            (
                t.string("title"),
                t.string("summary"),
                [
                    (s.string("sentence"), s.string("question") if "question" in s.value else None)
                    for s in t.tables("sentences")
                ],
            )
            for t in doc.tables("guides")
        ),
    )


def policy(t: Table, offered: dict[str, str]) -> Policy:
    allowed = t.table("resolutions")
    windows: dict[str, int | None] = {}
    for name in allowed.keys():
        if name not in offered:
            raise allowed.error(name, "a resolution of the [resolutions] table")
        if allowed.get(name) == NO_LIMIT:
            windows[name] = None
        elif isinstance(allowed.get(name), int):
            windows[name] = allowed.integer(name)
        else:
            raise allowed.error(name, f'a window in days or "{NO_LIMIT}"')
    return Policy(
        issue=t.string("issue"),
        phrase=t.string("phrase"),
        title=t.string("title"),
        summary=t.string("summary"),
        resolutions=windows,
        intro=t.string("intro"),
        facts=[(f.string("sentence"), f.string("question")) for f in t.tables("facts")],
    )
