"""What agents and customers say to each other after the case opens, per issue and step.

Shared by chats and e-mails. `[a|b]` marks alternatives (writing_style.vary). Only an
offer names a resolution (its name as the policy articles spell it): no acknowledgement,
follow-up or answer does, so a case's offer is made once, in one channel. The phrasings
live in data/agent_phrases.toml, read on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from crm_tui.org.generate.datafile import Table

Lines = tuple[str, ...]
Pairs = tuple[tuple[str, str], ...]  # (question, answer)


@dataclass(frozen=True)
class AgentPhrases:
    acks: Lines
    info: tuple[Pairs, ...]  # per issue: the agent's question and the customer's answer
    empathy: tuple[Lines, ...]  # per issue: the agent's understanding, before the offer
    offers: dict[str, Lines]  # per resolution
    timelines: dict[str, Lines]  # per resolution: how long it takes
    in_window: Lines
    accepts: Lines
    how_long: Lines
    declines: Lines
    alternative_leads: Lines
    confirms: Lines
    follow_ups: Lines
    chat_asks_status: Lines
    chat_status_answers: Lines
    afterthoughts: Pairs  # the customer's question after the confirmation, the answer
    nudges: Lines
    still_checking: Lines
    thanks: Lines
    finals: Lines
    issues: Lines  # the issue each entry of `info` and `empathy` is about


@cache
def agent_phrases() -> AgentPhrases:
    """The phrasings of data/agent_phrases.toml (read once)."""
    return read_agent_phrases(Table.read("agent_phrases.toml"))


def read_agent_phrases(doc: Table) -> AgentPhrases:
    def pairs(tables: tuple[Table, ...]) -> Pairs:
        return tuple((t.string("question"), t.string("answer")) for t in tables)

    def by_resolution(key: str) -> dict[str, Lines]:
        table = doc.table(key)
        return {name: table.strings(name) for name in table.keys()}

    issues = doc.tables("issues")
    return AgentPhrases(
        acks=doc.strings("acks"),
        info=tuple(pairs(t.tables("info")) for t in issues),
        empathy=tuple(t.strings("empathy") for t in issues),
        offers=by_resolution("offers"),
        timelines=by_resolution("timelines"),
        in_window=doc.strings("in_window"),
        accepts=doc.strings("accepts"),
        how_long=doc.strings("how_long"),
        declines=doc.strings("declines"),
        alternative_leads=doc.strings("alternative_leads"),
        confirms=doc.strings("confirms"),
        follow_ups=doc.strings("follow_ups"),
        chat_asks_status=doc.strings("chat_asks_status"),
        chat_status_answers=doc.strings("chat_status_answers"),
        afterthoughts=pairs(doc.tables("afterthoughts")),
        nudges=doc.strings("nudges"),
        still_checking=doc.strings("still_checking"),
        thanks=doc.strings("thanks"),
        finals=doc.strings("finals"),
        issues=tuple(t.string("issue") for t in issues),
    )
