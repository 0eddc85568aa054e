"""CRMArena-Pro's sales families generated on a local B2B org, with computed gold.

Each item is a row in CRMArena-Pro's form (`idx`, `task`, `query`, `answer` as a list,
`persona`, `metadata.required` with the family's policy text, `metadata.optional` the
domain details, `reward_metric`), so `crm-tui tasks import` and Pro scoring read it as they
read CRMArena-Pro's own file. Every gold comes from a function that applies the policy the
item shows; items whose answer would be a tie are skipped, and about a fifth of the
analytics items ask about a period in which nothing qualifies (gold `[None]`).

Families: sales_amount_understanding, sales_cycle_understanding,
conversion_rate_comprehension (agent analytics over a period before the item's "today"),
quote_approval and invalid_config (a quote against the quote articles), and
lead_qualification (the BANT factors a lead's latest sales call fails); and, from
`sales_pipeline`, lead_routing, activity_priority, wrong_stage_rectification and
sales_insight_mining.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from crm_tui.tasks.families import domain_details
from crm_tui.tasks.pro_families import pro_families

BANT = ("Budget", "Authority", "Need", "Timeline")
DISCOUNT_LIMIT = 20.0
QUANTITY_LIMIT = 500
LINE_LIMIT = 5
SALES_FAMILIES = (
    "sales_amount_understanding",
    "sales_cycle_understanding",
    "conversion_rate_comprehension",
    "quote_approval",
    "invalid_config",
    "lead_qualification",
    "lead_routing",
    "activity_priority",
    "wrong_stage_rectification",
    "sales_insight_mining",
)
NULL_SHARE = 0.2  # CRMArena-Pro's share of `[None]` answers in these families
MULTI_FACTOR_SHARE = 0.08  # of lead_qualification items, those failing two factors (as Pro)
# Shares of the analytics items that ask for the highest figure (the rest: the lowest), as
# in CRMArena-Pro's file: sales amounts mostly ask for the top seller.
HIGH_SHARE = {
    "sales_amount_understanding": 0.85,
    "sales_cycle_understanding": 0.5,
    "conversion_rate_comprehension": 0.5,
}
# The periods the analytics items ask about, as CRMArena-Pro's file words them: units, and
# how many quarters; sales amounts and conversion rates more often over quarters (up to
# six for conversion rates: a rate over a few weeks' leads is often a tie).
PERIOD_UNITS: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {
    "sales_amount_understanding": (("weeks", "months", "quarters", "quarters"), (2, 3, 4)),
    "sales_cycle_understanding": (("weeks", "months", "quarters"), (2, 3, 4)),
    "conversion_rate_comprehension": (
        ("weeks", "months", "quarters", "quarters", "quarters"),
        (2, 3, 4, 5, 6),
    ),
}
# At most this many items of a family have the same agent as their answer (while other
# agents can still be found), so that the answers spread over the team as CRMArena-Pro's
# do (None: no limit).
MAX_SAME_ANSWER: dict[str, int | None] = {
    "sales_amount_understanding": None,
    "sales_cycle_understanding": 2,
    "conversion_rate_comprehension": 2,
}
PERSONAS = (
    "You are analytical and data-focused, basing decisions on metrics and measurable results.",
    "You are detail-oriented, checking every figure before you act on it.",
    "You are pragmatic and results-driven, wanting a clear answer quickly.",
    "You are collaborative, weighing what each colleague needs before deciding.",
    "You are cautious, preferring to confirm facts before committing to a course.",
    "You are customer-focused, keeping the buyer's experience at the centre of decisions.",
)

AMOUNT_POLICY = """
        ## Sales Amount Policy
        - Definition: The sales amount for an order is calculated as the product of the quantity and the unit price from the Order object (Quantity * UnitPrice). An opportunity is eligible if its associated contract has a company signed date that falls within the time interval of interest.

        - Today's date: {today}
"""
CYCLE_POLICY = """
        ## Sales Cycle Policy
        - Definition: The sales cycle is measured as the number of days between an opportunity's creation date and the company signed date on the corresponding contract.

        ## Today's date: {today}
"""
CONVERSION_POLICY = """
        ## Conversion Rate Policy
        - Definition: The conversion rate is calculated as the ratio of converted leads to total leads within a specific time period.
        - Calculation Method: For leads created within a specific date range, count how many were converted within that same time window.
        - Formula: Conversion Rate = (Number of Converted Leads / Total Leads) × 100%
        - Comparison: When comparing agents, the one with the highest conversion rate is considered most effective at converting leads.

        ## Today's date: {today}
"""
QUOTE_POLICY = """
        ## Quote approval guide.
        Look for relevant knowledge articles to justify the quote approval.

        - Quote Id to be considered is: {record}
"""
CONFIG_POLICY = """
        ## Invalid config guide.
        Look for the relevant knowledge articles to justify the invalid config.

        - Quote Id to be considered is: {record}
"""
BANT_POLICY = """
        ## Lead qualification guide.
        Look for the voice call transcripts with the lead and relevant knowledge articles to justify the lead qualification.

        - Lead Id to be considered is: {record}
"""


@dataclass(frozen=True)
class Period:
    """An inclusive range of days before `today`, and how a query names it."""

    words: str
    start: date
    end: date


def periods(
    today: date,
    r: random.Random,
    units: tuple[str, ...] = ("weeks", "months", "quarters"),
    quarters: tuple[int, ...] = (2, 3, 4),
) -> Period:
    """A period ending on `today`: the past N weeks, months or quarters (a unit drawn from
    `units`, name one several times to make it likelier; N quarters drawn from
    `quarters`)."""
    unit = r.choice(units)
    if unit == "weeks":
        n = r.choice((4, 6, 8, 10))
        return Period(f"the past {n} weeks", today - timedelta(weeks=n), today)
    n = r.choice((3, 4, 5, 6)) if unit == "months" else r.choice(quarters)
    months = n if unit == "months" else 3 * n
    return Period(f"the past {n} {unit}", months_before(today, months), today)


def months_before(day: date, months: int) -> date:
    """The same day `months` calendar months earlier, or that month's last day when it is
    shorter (31 March -> 28 or 29 February, as a person counts back)."""
    y, m = divmod(day.month - 1 - months, 12)
    first = date(day.year + y, m + 1, 1)
    length = (first.replace(month=m + 2, day=1) if m < 11 else date(first.year + 1, 1, 1)) - first
    return first.replace(day=min(day.day, length.days))


# ------------------------------------------------------------------ the rules (gold)
def agent_sales_amounts(conn: sqlite3.Connection, p: Period) -> dict[str, float]:
    """Sales amount per agent (the opportunity's owner): Quantity * UnitPrice over the
    order lines of orders whose opportunity's contract was company-signed in `p`."""
    rows = conn.execute(
        "SELECT o.OwnerId, SUM(i.Quantity * i.UnitPrice) FROM OrderItem i "
        'JOIN "Order" r ON r.Id = i.OrderId JOIN Opportunity o ON o.Id = r.OpportunityId '
        "JOIN Contract k ON k.Id = o.ContractID__c "
        "WHERE k.CompanySignedDate BETWEEN ? AND ? GROUP BY o.OwnerId",
        (p.start.isoformat(), p.end.isoformat()),
    )
    return {owner: round(total, 2) for owner, total in rows}


def agent_cycle_days(conn: sqlite3.Connection, p: Period) -> dict[str, float]:
    """Average days from an opportunity's creation to its contract's company-signed date,
    per owner, over contracts company-signed in `p`."""
    rows = conn.execute(
        "SELECT o.OwnerId, AVG(julianday(k.CompanySignedDate) - "
        "julianday(substr(o.CreatedDate, 1, 10))) FROM Opportunity o "
        "JOIN Contract k ON k.Id = o.ContractID__c "
        "WHERE k.CompanySignedDate BETWEEN ? AND ? GROUP BY o.OwnerId",
        (p.start.isoformat(), p.end.isoformat()),
    )
    return {owner: round(days, 4) for owner, days in rows}


def agent_conversion_rates(conn: sqlite3.Connection, p: Period) -> dict[str, float]:
    """Per owner: leads created in `p` that were converted in `p`, over leads created in
    `p` (in percent)."""
    rows = conn.execute(
        "SELECT OwnerId, COUNT(*), SUM(IsConverted = 1 AND ConvertedDate BETWEEN ? AND ?) "
        "FROM Lead WHERE substr(CreatedDate, 1, 10) BETWEEN ? AND ? GROUP BY OwnerId",
        (p.start.isoformat(), p.end.isoformat()) * 2,
    )
    return {owner: round(100.0 * converted / total, 4) for owner, total, converted in rows}


def quote_articles(conn: sqlite3.Connection) -> dict[str, str]:
    """The quote rules' article Ids by rule: discount, quantity, duplicate, list_price,
    line_count (found by title)."""
    titles = {
        "Quote Discount Approval Policy": "discount",
        "Quote Line Quantity Limit": "quantity",
        "One Line per Product on a Quote": "duplicate",
        "Quote Sales Price and List Price": "list_price",
        "Products per Quote": "line_count",
    }
    rows = conn.execute("SELECT Title, Id FROM Knowledge__kav")
    return {titles[t]: i for t, i in rows if t in titles}


def quote_breaches(conn: sqlite3.Connection, quote_id: str) -> list[str]:
    """The rules (keys of `quote_articles`) that the quote's lines break."""
    lines = conn.execute(
        "SELECT l.Product2Id, l.Quantity, l.UnitPrice, l.Discount, e.UnitPrice "
        "FROM QuoteLineItem l LEFT JOIN PricebookEntry e ON e.Id = l.PricebookEntryId "
        "WHERE l.QuoteId = ?",
        (quote_id,),
    ).fetchall()
    broken = []
    if any(d is not None and d > DISCOUNT_LIMIT for _, _, _, d, _ in lines):
        broken.append("discount")
    if any(q > QUANTITY_LIMIT for _, q, _, _, _ in lines):
        broken.append("quantity")
    if len({p for p, *_ in lines}) < len(lines):
        broken.append("duplicate")
    if any(list_price is not None and abs(sp - list_price) > 0.005 for *_, sp, _, list_price in
           ((p, q, sp, d, lp) for p, q, sp, d, lp in lines)):  # fmt: skip
        broken.append("list_price")
    if len(lines) > LINE_LIMIT:
        broken.append("line_count")
    return broken


def bant_failures(transcript: str, fail_lines: dict[str, tuple[str, ...]]) -> list[str]:
    """The BANT factors a call fails: those whose prospect line says the factor is not met
    (`fail_lines`: factor -> the lines that say so, with any {placeholder} as a wildcard)."""
    said = transcript.splitlines()
    failed = []
    for factor in BANT:
        for template in fail_lines[factor]:
            head = template.split("{")[0]
            if any(line.startswith(head) for line in said):
                failed.append(factor)
                break
    return failed


# ------------------------------------------------------------------ the items
@dataclass
class _Ctx:
    conn: sqlite3.Connection
    r: random.Random
    first: date
    last: date


def _today(c: _Ctx) -> date:
    span = (c.last - c.first).days
    return c.first + timedelta(days=c.r.randrange(span))


def _agent_item(
    c: _Ctx,
    measure: Callable[[sqlite3.Connection, Period], dict[str, float]],
    policy: str,
    wording: dict[bool, tuple[str, ...]],
    empty: bool,
    high_share: float = 0.5,
    units: tuple[str, ...] = ("weeks", "months", "quarters"),
    quarters: tuple[int, ...] = (2, 3, 4),
) -> tuple[str, list[str | None], str] | None:
    """An analytics item: the agent with the highest (a `high_share` of the items) or
    lowest measure over a period (ties skipped), or, when `empty`, a period in which no
    agent has any."""
    today = _today(c)
    p = periods(today, c.r, units, quarters)
    values = measure(c.conn, p)
    highest = c.r.random() < high_share
    if empty != (not values):
        return None
    if values:
        ranked = sorted(values.items(), key=lambda kv: kv[1], reverse=highest)
        if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
            return None
        gold: list[str | None] = [ranked[0][0]]
    else:
        gold = [None]
    query = c.r.choice(wording[highest]).format(period=p.words)
    return query, gold, policy.format(today=today.isoformat())


AMOUNT_WORDING: dict[bool, tuple[str, ...]] = {
    True: ("Which agent achieved the highest total sales amount over {period}? "
           "Return only the Id of the agent.",
           "Identify the agent with the top sales total for orders made over {period}. "
           "Return only the Id of the agent."),
    False: ("Which agent had the lowest total sales amount over {period}? "
            "Return only the Id of the agent.",
            "Determine the agent who achieved the least total sales over {period}. "
            "Return only the Id of the agent."),
}  # fmt: skip
CYCLE_WORDING: dict[bool, tuple[str, ...]] = {
    True: ("Determine which agent had the highest average time to close opportunities in "
           "{period}. Return only the Id of the agent.",),
    False: ("Determine the agent with the quickest average time to close opportunities in "
            "{period}. Return only the Id of the agent.",),
}  # fmt: skip
CONVERSION_WORDING: dict[bool, tuple[str, ...]] = {
    True: ("Which agent achieved the highest lead conversion rate in {period}? "
           "Return only the Id of the agent.",),
    False: ("Which agent had the lowest lead conversion rate over {period}? "
            "Return only the Id of the agent.",),
}  # fmt: skip


def _quote_items(c: _Ctx, config: bool) -> Iterator[tuple[str, list[str | None], str]]:
    articles = quote_articles(c.conn)
    wanted = {"quantity", "duplicate", "list_price", "line_count"} if config else {"discount"}
    quotes = [q for (q,) in c.conn.execute(
        "SELECT Id FROM Quote WHERE Status != 'Accepted' ORDER BY Id")]  # fmt: skip
    c.r.shuffle(quotes)
    query = (
        "Is the product setup in this quotation, including elements like quantity and price, "
        "against company regulations? Return only the Id of the knowledge article that the "
        "invalid config violates."
        if config
        else "Does the price and configuration of this quote comply with company policy? If "
        "not, which knowledge article does it breach? Return only the Id of the knowledge "
        "article that the quote violates. If no violation is found, return None."
    )
    policy = CONFIG_POLICY if config else QUOTE_POLICY
    for quote in quotes:
        broken = quote_breaches(c.conn, quote)
        if len(broken) > 1 or (broken and broken[0] not in wanted):
            continue  # two rules broken, or one of the other family's
        gold: list[str | None] = [articles[broken[0]]] if broken else [None]
        yield query, gold, policy.format(record=quote)


def _lead_items(c: _Ctx) -> Iterator[tuple[str, list[str | None], str]]:
    from crm_tui.org.generate.sales import sales_data

    fails = {f: sales_data().bant[f][1] for f in BANT}
    rows = c.conn.execute(
        "SELECT LeadId__c, Body__c FROM VoiceCallTranscript__c WHERE LeadId__c IS NOT NULL "
        "ORDER BY LeadId__c, CreatedDate"
    ).fetchall()
    latest = {lead: body for lead, body in rows}  # the latest call per lead
    leads = sorted(latest)
    c.r.shuffle(leads)
    query = (
        "Should this lead be qualified based on their recent discussions? If not, which of "
        "'Budget', 'Authority', 'Need', or 'Timeline' does it fail? Return only one or several "
        "of the four BANT factors that the lead qualification fails to meet (i.e. 'Budget', "
        "'Authority', 'Need', 'Timeline')."
    )
    for lead in leads:
        failed = bant_failures(latest[lead], fails)
        gold: list[str | None] = [", ".join(failed)] if failed else [None]
        yield query, gold, BANT_POLICY.format(record=lead)


def generate_sales_items(
    conn: sqlite3.Connection, seed: int, per_family: int, first_idx: int = 0
) -> list[dict[str, Any]]:
    """`per_family` items of each sales family, in CRMArena-Pro's row form."""
    r = random.Random(f"crm-tui/sales-tasks/{seed}")
    ctx = _Ctx(conn, r, date(2021, 1, 1), date(2024, 12, 20))
    optional = domain_details()
    rows: list[dict[str, Any]] = []

    def add(task: str, item: tuple[str, list[str | None], str]) -> None:
        query, gold, required = item
        rows.append({
            "idx": first_idx + len(rows), "task": task, "query": query, "answer": gold,
            "persona": r.choice(PERSONAS),
            "metadata": {"required": required, "optional": optional},
            "reward_metric": pro_families()[task].metric,
        })  # fmt: skip

    analytics = (
        ("sales_amount_understanding", agent_sales_amounts, AMOUNT_POLICY, AMOUNT_WORDING),
        ("sales_cycle_understanding", agent_cycle_days, CYCLE_POLICY, CYCLE_WORDING),
        ("conversion_rate_comprehension", agent_conversion_rates, CONVERSION_POLICY,
         CONVERSION_WORDING),
    )  # fmt: skip
    for task, measure, policy, wording in analytics:
        high_share, (units, quarters), most = (
            HIGH_SHARE[task], PERIOD_UNITS[task], MAX_SAME_ANSWER[task])  # fmt: skip
        answered: Counter[str | None] = Counter()
        n_null = round(per_family * NULL_SHARE)
        for empty, want in ((True, n_null), (False, per_family - n_null)):
            made, tries = 0, 0
            while made < want and tries < want * 200:
                tries += 1
                if empty:  # a period before the org's first lead
                    ctx.first, ctx.last = date(2019, 6, 1), date(2019, 12, 31)
                item = _agent_item(
                    ctx, measure, policy, wording, empty, high_share, units, quarters)  # fmt: skip
                ctx.first, ctx.last = date(2021, 1, 1), date(2024, 12, 20)
                spread = most is not None and tries < want * 100  # then any agent, to fill up
                if item is not None and not empty and spread:
                    if answered[item[1][0]] >= (most or 0):
                        continue
                    answered[item[1][0]] += 1
                if item is not None:
                    add(task, item)
                    made += 1
    from crm_tui.tasks import sales_pipeline as pipe

    def period_words() -> Iterator[tuple[str, str, str, str]]:
        while True:
            today = _today(ctx)
            p = periods(today, r)
            yield p.words, p.start.isoformat(), p.end.isoformat(), today.isoformat()

    for task, items, null_share in (
        ("quote_approval", _quote_items(ctx, config=False), NULL_SHARE),
        ("invalid_config", _quote_items(ctx, config=True), NULL_SHARE),
        ("lead_qualification", _lead_items(ctx), NULL_SHARE),
        ("lead_routing", pipe.routing_items(conn, r), 0.0),
        ("activity_priority", pipe.activity_items(conn, r), NULL_SHARE),
        ("wrong_stage_rectification", pipe.stage_items(conn, r), NULL_SHARE),
        ("sales_insight_mining", pipe.insight_items(conn, r, period_words()), 0.0),
    ):
        n_null = round(per_family * null_share)
        # Leads failing two BANT factors: CRMArena-Pro's share of the items, no more.
        n_multi = round(per_family * MULTI_FACTOR_SHARE) if task == "lead_qualification" else None
        nulls = reals = multi = 0
        for item in items:
            several = n_multi is not None and ", " in str(item[1][0])
            if several and multi >= (n_multi or 0):
                continue
            if item[1] == [None] and nulls < n_null:
                nulls += 1
            elif item[1] != [None] and reals < per_family - n_null:
                reals += 1
                multi += several
            else:
                continue
            add(task, item)
            if nulls + reals == per_family:
                break
    return rows
