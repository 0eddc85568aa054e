"""CRMArena-Pro's pipeline families on a local B2B org, with computed gold: lead_routing,
activity_priority, wrong_stage_rectification and sales_insight_mining.

Each gold comes from a function that applies the rule the item shows (the lead routing
policy, the activity priority guide, the stage article, what the sales calls say), and an
item is made only where every reasonable reading of that rule gives the same answer: ties
are skipped, as are opportunities whose completed tasks alone would show another stage, and
subtopics whose most-mentioned and best-net readings differ.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from functools import cache

from crm_tui.org.generate.sales import POLARITIES, sales_data, stage_of_subject
from crm_tui.org.schema.b2b import STAGES

Item = tuple[str, list[str | None], str]

ROUTING_POLICY = """
        ## Lead Routing Policy
        The lead routing policy determines the best agent to assign the given new lead based on the following criteria:
        - Territory Match: First, find the territory that matches the lead's region by comparing with the territory description (comma-separated list of states/regions).
        - Quote Success: Among agents associated with the matching territory, select those with the highest number of quotes with status "Accepted" (find the agent ID through the associated opportunity ID).
        - Workload Balance: If there's still a tie, select the agent with the fewest unconverted (open) leads.

        ## Lead's region: {region}
"""
STAGE_GOALS = {
    "Qualification": "The goal is to determine if the prospect has the potential to become a "
    "customer based on certain criteria.",
    "Discovery": "The goal is to develop a detailed, nuanced view of the prospect's situation "
    "to tailor solutions effectively.",
}
STAGE_RECORD = """- Opportunity Id to be considered is: {record}"""
INSIGHT_POLICY = """
        ## Sales Insight Mining
        Sales insight mining is the process of extracting insights from the sales data to help the sales team improve their performance.
        You will need to analyze conversations based on the VoiceCallTranscript__c object.
        {scope}
"""

ROUTING_WORDING = (
    "Who should be allocated as the agent for this lead? Return only the Id of the agent.",
    "Which agent would be the best fit for this lead? Return only the Id of the agent.",
    "Which agent ought to handle this lead? Return only the Id of the agent.",
    "Who is the most suitable agent to take on this lead? Return only the Id of the agent.",
)
ACTIVITY_WORDING = (
    "Choose 'Not Started' tasks that do not match the opportunity's stage for this "
    "opportunity. Return only the Id of the tasks.",
    "For this opportunity, choose tasks marked as 'Not Started' that do not match the "
    "opportunity's stage. Return only the Id of the tasks.",
    "Choose tasks marked as 'Not Started' that do not correspond with the opportunity's "
    "stage. Return only the Id of the tasks.",
)
_STAGE_LABELS = "('Qualification', 'Discovery', 'Quote', 'Negotiation', 'Closed')"
STAGE_WORDING = (
    "Is the stage name accurately representing the tasks for this opportunity? If it is not, "
    f"what should the appropriate stage name be? Return only the correct stage label among "
    f"{_STAGE_LABELS}.",
    "Is the current stage name appropriate for the tasks associated with this opportunity? "
    "If it isn't, what should the appropriate stage be? Return only the correct stage label "
    f"among {_STAGE_LABELS}.",
)
# What a question about one opportunity asks for: (kind, polarity) -> wordings.
OPPORTUNITY_ASKS: dict[tuple[str, str], tuple[str, ...]] = {
    ("subtopic", "positive"): (
        "What subtopics in sales discussions regarding our solutions have a positive "
        "sentiment for this opportunity?",
        "In this opportunity, which aspects of sales conversations show positive sentiment "
        "when discussing our solutions?",
    ),
    ("subtopic", "negative"): (
        "What subtopics in sales discussions express negative sentiment regarding our "
        "solutions in this opportunity?",
        "Which sales conversation subtopics related to our solutions are viewed negatively "
        "in this opportunity?",
    ),
    ("competitor", "advantage"): (
        "In terms of sales discussions, which competitors do we have competitive advantages "
        "over for this opportunity?",
        "Regarding this opportunity, over which competitors do our sales conversations "
        "indicate we have an edge?",
    ),
    ("competitor", "disadvantage"): (
        "Which competitors are we at a disadvantage against in sales discussions for this "
        "opportunity?",
        "In this opportunity, which competitors do we face disadvantages against based on "
        "sales discussions?",
    ),
    ("competitor", "offer"): (
        "Who are the competitors providing rival offers for this opportunity?",
        "Which competitors have made competing offers in the sales discussions for this "
        "opportunity?",
    ),
}
# Questions over every call in a period: (kind, polarity or "" for any mention) -> wording.
PERIOD_ASKS: dict[tuple[str, str], tuple[str, ...]] = {
    ("competitor", ""): (
        "Which competitor has been referenced the most in sales discussions over {period}?",
        "Over {period}, which competing company came up most often during sales discussions?",
    ),
    ("competitor", "offer"): (
        "Over {period}, which competitor has presented the most competing offers in sales "
        "discussions across all opportunities?",
    ),
    ("competitor", "advantage"): (
        "Over {period}, which competitor do we have the greatest edge over in all sales "
        "discussions?",
    ),
    ("competitor", "disadvantage"): (
        "Over {period}, which competitor has posed the greatest challenges to us in all sales "
        "discussions?",
    ),
    ("subtopic", "positive"): (
        "Over {period}, which subtopic in all sales discussions has shown the most positive "
        "sentiment regarding our solutions?",
    ),
    ("subtopic", "negative"): (
        "Which subtopic in all sales discussions has shown the most negative sentiment "
        "regarding our solutions over {period}?",
    ),
}
_OPPOSITE = {"positive": "negative", "negative": "positive", "advantage": "disadvantage",
             "disadvantage": "advantage"}  # fmt: skip


def activity_guide(record: str) -> str:
    """The activity priority guide: CRMArena-Pro's, with this org's tasks for each stage."""
    parts = [
        "\n        ## Activity priority guide.\n"
        "        Each stage of the opportunity has a list of tasks that are prioritized. "
        "Below are the lists of tasks for each stage.\n"
        "        Examples of task for each stage:\n"
    ]
    for stage, subjects in sales_data().stage_tasks.items():
        goal = f" {STAGE_GOALS[stage]}" if stage in STAGE_GOALS else ""
        bullets = "".join(f"            - {s}.\n" for s in subjects)
        parts.append(f"\n        {stage}:{goal}\n{bullets}")
    parts.append(f"\n        - Opportunity Id to be considered is: {record}\n")
    return "".join(parts)


# ------------------------------------------------------------------ the rules (gold)
def route_lead(conn: sqlite3.Connection, region: str) -> str | None:
    """The lead routing policy: the agents of the territory whose description lists
    `region`, the most Accepted quotes (through the quote's opportunity's owner), then the
    fewest unconverted leads. None when no territory matches, when a tie remains, or when
    counting open leads (status Open or Working) instead of unconverted ones would pick
    another agent."""
    territories = [
        t for t, description in conn.execute("SELECT Id, Description FROM Territory2")
        if region in [s.strip() for s in (description or "").split(",")]
    ]  # fmt: skip
    if len(territories) != 1:
        return None
    agents: list[str] = [a for (a,) in conn.execute(
        "SELECT UserId FROM UserTerritory2Association WHERE Territory2Id = ?", territories)]  # fmt: skip
    accepted = dict(conn.execute(
        "SELECT o.OwnerId, COUNT(*) FROM Quote q JOIN Opportunity o ON o.Id = q.OpportunityId "
        "WHERE q.Status = 'Accepted' GROUP BY o.OwnerId"))  # fmt: skip
    top = max((accepted.get(a, 0) for a in agents), default=None)
    best = [a for a in agents if accepted.get(a, 0) == top]
    if len(best) == 1:
        return best[0]
    picks: set[str] = set()
    for where in ("coalesce(IsConverted, 0) = 0",
                  "Status IN ('Open - Not Contacted', 'Working - Contacted')"):  # fmt: skip
        load = dict(conn.execute(f"SELECT OwnerId, COUNT(*) FROM Lead WHERE {where} GROUP BY 1"))
        fewest = min(load.get(a, 0) for a in best)
        winners = [a for a in best if load.get(a, 0) == fewest]
        if len(winners) != 1:
            return None
        picks.add(winners[0])
    return picks.pop() if len(picks) == 1 else None


def mismatched_tasks(conn: sqlite3.Connection, opportunity: str) -> list[str]:
    """The activity priority guide: the opportunity's Not Started tasks whose subject
    belongs to a stage other than the opportunity's, by Id."""
    (stage,) = conn.execute(
        "SELECT StageName FROM Opportunity WHERE Id = ?", (opportunity,)
    ).fetchone()
    rows = conn.execute(
        "SELECT Id, Subject FROM Task WHERE WhatId = ? AND Status = 'Not Started' ORDER BY Id",
        (opportunity,),
    )
    return [task for task, subject in rows if stage_of_subject(subject) != stage]


def task_stage(conn: sqlite3.Connection, opportunity: str) -> str | None:
    """The stage article: the latest stage the opportunity's tasks belong to. None when its
    completed tasks alone would show another stage (a reading the item leaves open)."""
    rows = conn.execute("SELECT Subject, Status FROM Task WHERE WhatId = ?", (opportunity,))
    stages = [(STAGES.index(stage_of_subject(s)), status == "Completed") for s, status in rows]
    if not stages:
        return None
    latest = max(k for k, _ in stages)
    if max((k for k, done in stages if done), default=-1) != latest:
        return None
    return STAGES[latest]


@cache
def _insight_patterns() -> tuple[tuple[re.Pattern[str], str, str], ...]:
    """One pattern per buyer line: (pattern with a `name` group, kind, polarity)."""
    data = sales_data()
    out = []
    for kind, polarities in POLARITIES.items():
        for polarity in polarities:
            for line in data.insight_lines[polarity]:
                slot = "{topic}" if kind == "subtopic" else "{competitor}"
                head, tail = line.split(slot)
                out.append((re.compile(f"^{re.escape(head)}(?P<name>.+?){re.escape(tail)}$"),
                            kind, polarity))  # fmt: skip
    return tuple(out)


def call_insights(body: str) -> list[tuple[str, str, str]]:
    """What a sales call says: (kind, name, polarity) per buyer line about a subtopic or a
    competitor, names as the org spells them."""
    data = sales_data()
    names = {n.casefold(): n for n in (*data.subtopics, *data.competitors)}
    said = []
    for line in body.splitlines():
        for pattern, kind, polarity in _insight_patterns():
            match = pattern.match(line)
            if match and match["name"].casefold() in names:
                said.append((kind, names[match["name"].casefold()], polarity))
                break
    return said


def opportunity_insights(
    conn: sqlite3.Connection, opportunity: str, kind: str, polarity: str
) -> list[str]:
    """The subtopics or competitors the opportunity's calls name with `polarity`, in the
    order first said."""
    rows = conn.execute(
        "SELECT Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = ? "
        "ORDER BY CreatedDate, Id",
        (opportunity,),
    )
    found: list[str] = []
    for (body,) in rows:
        for k, name, p in call_insights(body):
            if k == kind and p == polarity and name not in found:
                found.append(name)
    return found


def period_insight(
    conn: sqlite3.Connection, start: str, end: str, kind: str, polarity: str
) -> str | None:
    """The subtopic or competitor named most often with `polarity` (any, when empty) in
    the calls of days `start` to `end`. None on a tie, with nothing said, or when netting
    the opposite statements off would pick another."""
    rows = conn.execute(
        "SELECT Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c IS NOT NULL "
        "AND substr(CreatedDate, 1, 10) BETWEEN ? AND ?",
        (start, end),
    )
    counts: Counter[str] = Counter()
    net: Counter[str] = Counter()
    for (body,) in rows:
        for k, name, p in call_insights(body):
            if k != kind:
                continue
            if not polarity or p == polarity:
                counts[name] += 1
                net[name] += 1
            elif _OPPOSITE.get(polarity) == p:
                net[name] -= 1
    if not counts:
        return None
    ranked = counts.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    winner = ranked[0][0]
    if any(v >= net[winner] for n, v in net.items() if n != winner):
        return None
    return winner


# ------------------------------------------------------------------ the items
def routing_items(conn: sqlite3.Connection, r: random.Random) -> Iterator[Item]:
    """Leads from every state the territories cover, routed by the policy."""
    states = sorted({
        s.strip()
        for (d,) in conn.execute("SELECT Description FROM Territory2")
        for s in (d or "").split(",")
    })  # fmt: skip
    gold = {s: route_lead(conn, s) for s in states}
    usable = [s for s in states if gold[s] is not None]
    while usable:
        state = r.choice(usable)
        yield r.choice(ROUTING_WORDING), [gold[state]], ROUTING_POLICY.format(region=state)


def activity_items(conn: sqlite3.Connection, r: random.Random) -> Iterator[Item]:
    """Opportunities with Not Started tasks: those not of its stage, or None."""
    opps = [o for (o,) in conn.execute(
        "SELECT DISTINCT WhatId FROM Task WHERE Status = 'Not Started' ORDER BY WhatId")]  # fmt: skip
    r.shuffle(opps)
    for opp in opps:
        tasks = mismatched_tasks(conn, opp)
        gold: list[str | None] = list(tasks) if tasks else [None]
        yield r.choice(ACTIVITY_WORDING), gold, activity_guide(opp)


def stage_items(conn: sqlite3.Connection, r: random.Random) -> Iterator[Item]:
    """Opportunities whose tasks show a stage: that stage where the record differs, or
    None; each answer in turn, so the rarer stages are asked about too."""
    opps = list(conn.execute("SELECT Id, StageName FROM Opportunity ORDER BY Id"))
    r.shuffle(opps)
    by_gold: dict[str | None, list[tuple[str, str | None]]] = {}
    for opp, recorded in opps:
        shown = task_stage(conn, opp)
        if shown is not None:
            gold = shown if shown != recorded else None
            by_gold.setdefault(gold, []).append((opp, gold))
    queues = [by_gold[g] for g in (*STAGES, None) if g in by_gold]
    while any(queues):
        for queue in queues:
            if queue:
                opp, gold = queue.pop(0)
                yield r.choice(STAGE_WORDING), [gold], STAGE_RECORD.format(record=opp)


def insight_items(
    conn: sqlite3.Connection, r: random.Random, periods: Iterator[tuple[str, str, str, str]]
) -> Iterator[Item]:
    """Half about one opportunity's calls, half about every call in a period (`periods`
    yields (words, start, end, today))."""
    opps = [o for (o,) in conn.execute(
        "SELECT DISTINCT OpportunityId__c FROM VoiceCallTranscript__c "
        "WHERE OpportunityId__c IS NOT NULL ORDER BY 1")]  # fmt: skip
    r.shuffle(opps)
    for opp in opps:
        if r.random() < 0.5:
            for _ in range(20):
                words, start, end, today = next(periods)
                kind, polarity = r.choice(sorted(PERIOD_ASKS))
                winner = period_insight(conn, start, end, kind, polarity)
                if winner is not None:
                    query = r.choice(PERIOD_ASKS[kind, polarity]).format(period=words)
                    scope = f"\n        ## Today's date: {today}"
                    yield query, [winner], INSIGHT_POLICY.format(scope=scope)
                    break
            continue
        asks = sorted(OPPORTUNITY_ASKS)
        r.shuffle(asks)
        if r.random() < 0.8:  # lists of subtopics vary more than one competitor's name
            asks.sort(key=lambda ask: ask[0] != "subtopic")
        for kind, polarity in asks:
            names = opportunity_insights(conn, opp, kind, polarity)
            if names:
                scope = f"- Opportunity Id to be considered is: {opp}"
                query = r.choice(OPPORTUNITY_ASKS[kind, polarity])
                yield query, [", ".join(names)], INSIGHT_POLICY.format(scope=scope)
                break
