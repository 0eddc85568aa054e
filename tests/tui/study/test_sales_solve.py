"""One item of each sales family solved in the app on a B2B org, the way a person would:
record pages, related lists, list views with filters and reports, never the SOQL console.
Each test reads the answer off the screens by the rule the item shows, types it and
submits it; the attempt scores 1 and the answer is the item's gold."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from crm_tui.org.backends.interface import Filter, Operator
from crm_tui.org.generate.sales import sales_data
from crm_tui.org.schema.b2b import STAGES
from crm_tui.tasks.sales_families import BANT, DISCOUNT_LIMIT, LINE_LIMIT, QUANTITY_LIMIT
from crm_tui.tasks.sales_pipeline import OPPORTUNITY_ASKS, call_insights
from tests.helpers.sales_pilot import (
    article_id,
    considered,
    fields,
    links,
    open_list,
    open_record,
    query_period,
    run_report,
    solve_sales_item,
    take_group,
    user_id,
)


def number(text: str) -> float:
    return float(text.replace(",", "").replace("$", "") or "nan")


def guide_stages(item: dict[str, Any]) -> dict[str, str]:
    """The activity priority guide the item shows: each task subject -> its stage."""
    stages, stage = {}, None
    for line in item["metadata"]["required"].splitlines():
        head = line.strip()
        if head.split(":")[0] in STAGES:
            stage = head.split(":")[0]
        elif head.startswith("- ") and stage and "to be considered" not in head:
            stages[head[2:].rstrip(".")] = stage
    return stages


# ------------------------------------------------------------------ record pages
async def wrong_stage(pilot, item) -> str:
    """The opportunity's Tasks: the latest stage they belong to (the stage article)."""
    opportunity = considered(item)
    record = await open_record(pilot, opportunity)
    assert "Tasks" in record.related
    tasks = await open_list(pilot, "Task", record.related["Tasks"].filter)
    stage_of = {s: stage for stage, subjects in sales_data().stage_tasks.items() for s in subjects}
    latest = max((stage_of[t["Subject"]] for t in tasks), key=STAGES.index)
    return "None" if latest == fields(record)["StageName"] else latest


async def activity_priority(pilot, item) -> str:
    """Not Started tasks whose subject the guide lists under another stage than the
    opportunity's."""
    record = await open_record(pilot, considered(item))
    stage = fields(record)["StageName"]
    tasks = await open_list(pilot, "Task", record.related["Tasks"].filter)
    guide = guide_stages(item)
    off = [t["Id"] for t in tasks if t["Status"] == "Not Started" and guide[t["Subject"]] != stage]
    return ", ".join(off) or "None"


async def lead_qualification(pilot, item) -> str:
    """The lead's latest call: the BANT factors its prospect says are not met."""
    lead = await open_record(pilot, considered(item))
    calls = await open_list(
        pilot, "VoiceCallTranscript__c", lead.related["VoiceCallTranscripts__r"].filter
    )
    latest = max(calls, key=lambda c: c["CreatedDate"])
    body = fields(await open_record(pilot, latest["Id"]))["Body__c"].splitlines()
    not_met = {f: [t.split("{")[0] for t in sales_data().bant[f][1]] for f in BANT}
    failed = [f for f in BANT if any(line.startswith(h) for h in not_met[f] for line in body)]
    return ", ".join(failed) or "None"


async def quote_lines(pilot, quote: str) -> list[dict[str, str]]:
    """Each line of the quote as its record page shows it, with the list price of its
    price book entry."""
    record = await open_record(pilot, quote)
    rows = await open_list(pilot, "QuoteLineItem", record.related["QuoteLineItems"].filter)
    lines = []
    for row in rows:
        line = await open_record(pilot, row["Id"])
        shown, linked = fields(line), links(line)
        entry = await open_record(pilot, linked["PricebookEntryId"])
        lines.append(
            shown | {"Product": linked["Product2Id"], "ListPrice": fields(entry)["UnitPrice"]}
        )
    return lines


async def quote_approval(pilot, item) -> str:
    """A line discounted above the limit breaks the discount article."""
    lines = await quote_lines(pilot, considered(item))
    if any(line["Discount"] and number(line["Discount"]) > DISCOUNT_LIMIT for line in lines):
        return await article_id(pilot, "Quote Discount Approval Policy")
    return "None"


async def invalid_config(pilot, item) -> str:
    """The configuration article the quote's lines break."""
    lines = await quote_lines(pilot, considered(item))
    products = Counter(line["Product"] for line in lines)
    broken = [
        title
        for title, breaks in (
            ("Quote Line Quantity Limit",
             any(number(line["Quantity"]) > QUANTITY_LIMIT for line in lines)),
            ("One Line per Product on a Quote", max(products.values()) > 1),
            ("Quote Sales Price and List Price",
             any(line["UnitPrice"] != line["ListPrice"] for line in lines)),
            ("Products per Quote", len(lines) > LINE_LIMIT),
        )
        if breaks
    ]  # fmt: skip
    assert len(broken) <= 1
    return await article_id(pilot, broken[0]) if broken else "None"


async def sales_insight_mining(pilot, item) -> str:
    """The opportunity's calls: the subtopics or competitors its buyers name as asked."""
    kind, polarity = next(ask for ask, words in OPPORTUNITY_ASKS.items() if item["query"] in words)
    record = await open_record(pilot, considered(item))
    calls = await open_list(
        pilot, "VoiceCallTranscript__c", record.related["VoiceCallTranscripts__r"].filter
    )
    named: list[str] = []
    for call in sorted(calls, key=lambda c: c["CreatedDate"]):
        body = fields(await open_record(pilot, call["Id"]))["Body__c"]
        for k, name, p in call_insights(body):
            if (k, p) == (kind, polarity) and name not in named:
                named.append(name)
    return ", ".join(named)


# ------------------------------------------------------------------ list views and reports
async def lead_routing(pilot, item) -> str:
    """The territory listing the region; its agents; the most Accepted quotes (a report
    by the quote's opportunity's owner); then the fewest unconverted leads (a report)."""
    found = re.search(r"Lead's region: (\S+)", item["metadata"]["required"])
    assert found
    region = found.group(1)
    territories = await open_list(pilot, "Territory2")
    matching = []
    for territory in territories:
        shown = fields(await open_record(pilot, territory["Id"]))
        if region in [s.strip() for s in shown["Description"].split(",")]:
            matching.append(territory["Id"])
    assert len(matching) == 1
    members = await open_list(pilot, "UserTerritory2Association",
                              Filter("Territory2Id", Operator.EQ, matching[0]))  # fmt: skip
    agents = {row["UserId"] for row in members}
    accepted = dict(await run_report(pilot, '''
        object = "Quote"
        filters = [{field = "Status", operator = "=", value = "Accepted"}]
        groupings = [{field = "Opportunity.OwnerId"}]'''))  # fmt: skip
    top = max(accepted.get(a, (0,))[0] for a in agents)
    best = [a for a in agents if accepted.get(a, (0,))[0] == top]
    if len(best) > 1:
        open_leads = dict(await run_report(pilot, '''
            object = "Lead"
            filters = [{field = "IsConverted", operator = "=", value = "false"}]
            groupings = [{field = "OwnerId"}]'''))  # fmt: skip
        best = [min(best, key=lambda a: open_leads.get(a, (0,))[0])]
    return await user_id(pilot, best[0])


def highest(item) -> bool:
    return any(w in item["query"] for w in ("highest", "top", "longest"))


async def sales_amount(pilot, item) -> str:
    """Order lines whose order's contract was company-signed in the period, summed by the
    opportunity's owner."""
    groups = await run_report(pilot, f'''
        object = "OrderItem"
        date_ranges = [{{field = "Order.Contract.CompanySignedDate", range = "{query_period(item)}"}}]
        groupings = [{{field = "Order.Opportunity.OwnerId"}}]
        summaries = ["SUM(TotalPrice)"]''')  # fmt: skip
    if not groups:
        return "None"
    pick = max if highest(item) else min
    return await user_id(pilot, pick(groups, key=lambda g: g[1][1])[0])


async def sales_cycle(pilot, item) -> str:
    """Opportunities whose contract was company-signed in the period: average days from
    creation to that signature, by owner."""
    groups = await run_report(pilot, f'''
        object = "Opportunity"
        date_ranges = [{{field = "ContractID__r.CompanySignedDate", range = "{query_period(item)}"}}]
        durations = [{{name = "Cycle", start = "CreatedDate", end = "ContractID__r.CompanySignedDate", unit = "days"}}]
        groupings = [{{field = "OwnerId"}}]
        summaries = ["AVG(Cycle)"]''')  # fmt: skip
    if not groups:
        return "None"
    pick = max if highest(item) else min
    return await user_id(pilot, pick(groups, key=lambda g: g[1][1])[0])


async def conversion_rate(pilot, item) -> str:
    """Leads created in the period by owner, and those of them converted in it."""
    period = query_period(item)
    created = dict(await run_report(pilot, f'''
        object = "Lead"
        date_ranges = [{{field = "CreatedDate", range = "{period}"}}]
        groupings = [{{field = "OwnerId"}}]'''))  # fmt: skip
    converted = dict(await run_report(pilot, f'''
        object = "Lead"
        date_ranges = [{{field = "CreatedDate", range = "{period}"}},
                       {{field = "ConvertedDate", range = "{period}"}}]
        groupings = [{{field = "OwnerId"}}]'''))  # fmt: skip
    if not created:
        return "None"
    rate = {a: converted.get(a, (0,))[0] / n[0] for a, n in created.items()}
    pick = max if highest(item) else min
    return await user_id(pilot, pick(rate, key=rate.__getitem__))


FINDERS = {
    "wrong_stage_rectification": wrong_stage,
    "activity_priority": activity_priority,
    "lead_qualification": lead_qualification,
    "quote_approval": quote_approval,
    "invalid_config": invalid_config,
    "sales_insight_mining": sales_insight_mining,
    "lead_routing": lead_routing,
    "sales_amount_understanding": sales_amount,
    "sales_cycle_understanding": sales_cycle,
    "conversion_rate_comprehension": conversion_rate,
}


def pick_item(sales_items: list[dict], task: str) -> dict:
    """The family's first item with an answer (for insight mining: about one
    opportunity's calls)."""
    return next(
        i for i in sales_items
        if i["task"] == task and i["answer"] != [None]
        and (task != "sales_insight_mining" or "to be considered" in i["metadata"]["required"])
    )  # fmt: skip


@pytest.mark.parametrize("task", sorted(FINDERS))
async def test_a_sales_item_solved_in_the_browser_scores_right(
    task, b2b_org_path, sales_items, tmp_path
) -> None:
    item = pick_item(sales_items, task)
    attempt, answer = await solve_sales_item(b2b_org_path, item, tmp_path, FINDERS[task])
    assert (attempt.answer_raw, attempt.score) == (answer, 1.0)
    assert sorted(a.strip() for a in answer.split(",")) == sorted(
        v for gold in item["answer"] for v in gold.split(", ")
    )


async def test_the_top_seller_taken_with_u_from_a_report_group_is_the_answer(
    b2b_org_path, sales_items, tmp_path
) -> None:
    """An agent answer need not be typed: `u` on the report's group takes its owner."""
    item = pick_item(sales_items, "sales_amount_understanding")

    async def take_top(pilot, item) -> None:
        groups = await run_report(pilot, f'''
            object = "OrderItem"
            date_ranges = [{{field = "Order.Contract.CompanySignedDate", range = "{query_period(item)}"}}]
            groupings = [{{field = "Order.Opportunity.OwnerId"}}]
            summaries = ["SUM(TotalPrice)"]''')  # fmt: skip
        totals = [values[1] for _, values in groups]
        pick = max if highest(item) else min
        await take_group(pilot, totals.index(pick(totals)))
        return None

    attempt, answer = await solve_sales_item(b2b_org_path, item, tmp_path, take_top)
    assert [answer] == item["answer"]
    assert (attempt.answer_raw, attempt.score) == (answer, 1.0)
