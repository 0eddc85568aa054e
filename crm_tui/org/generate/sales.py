"""The B2B org's sales stage: territories, leads, opportunities, quotes, contracts, orders,
sales calls and activities, written after the service stages.

Latent variables (in `_latent`, read by the sales task families and the tests):

- User `sales_conversion`: the agent's chance of converting a lead (from their skill);
- User `sales_cycle_days`: the agent's typical days from opportunity to signed contract;
- Territory2 `strength`: a factor on conversion in the territory's states;
- Lead `bant_gaps`: the BANT factors its latest call fails (a list, maybe empty);
- Quote `violation`: the Knowledge__kav Id of the rule the quote breaks, or null;
- Opportunity `task_stage`: the stage its tasks show (its StageName, except on the deals
  whose agent worked ahead of the recorded stage);
- VoiceCallTranscript__c `insights`: what a call on an opportunity says, as
  `[kind, name, polarity]` triples (`subtopic` positive/negative, `competitor`
  advantage/disadvantage/offer).

Leads arrive with seasonality (more in spring and autumn, fewer in summer and December).
Every draw comes from the stage's own streams, so a B2B org's service objects are those of
the B2C org of the same seed and scale; what the pipeline pass adds (stages recorded behind
the work, tasks left from earlier stages, calls on opportunities) has a stream of its own.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from faker import Faker

from crm_tui.org.generate.common import (
    END,
    START,
    IdMaker,
    Sizes,
    at_time,
    business_minutes,
    fast_id,
    rng,
)
from crm_tui.org.generate.datafile import Table
from crm_tui.org.generate.knowledge import KnowledgeBase, slug
from crm_tui.org.generate.orders import OrderBook
from crm_tui.org.generate.people import People, ascii_slug
from crm_tui.org.generate.products import Catalog
from crm_tui.org.schema import latent
from crm_tui.org.schema.b2b import INDUSTRIES, LEAD_SOURCES, STAGES
from crm_tui.org.schema.ids import make_id
from crm_tui.org.schema.sftime import format_datetime as sf_datetime
from crm_tui.org.store.orgstore import OrgStore

RECORD_TYPE_BUSINESS_ACCOUNT = make_id("012", 4243)
BANT = ("Budget", "Authority", "Need", "Timeline")
# Relative lead arrivals per month (spring and autumn busy, summer and December quiet).
MONTH_WEIGHT = (1.0, 1.1, 1.5, 1.4, 1.1, 0.8, 0.7, 0.8, 1.4, 1.5, 1.1, 0.6)
PROBABILITY = {"Qualification": 10, "Discovery": 25, "Quote": 50, "Negotiation": 75, "Closed": 100}
DISCOUNT_LIMIT = 20  # percent, the discount article's rule
QUANTITY_LIMIT = 500
SALES_END = END.date() - timedelta(days=1)
SALES_TEAM_SHARE = 0.45  # of the org's agents, those in the sales team
LEADS_AT_SCALE_1 = 3000
# Shares of quotes open for approval that break a rule (the rest break none).
VIOLATION_SHARE = 0.45
REJECTED_VIOLATION_SHARE = 0.8
REVISED_SHARE = 0.6  # won deals whose accepted quote followed a turned-down one
# Shares of leads with a sales call, and of those whose call fails some factor.
CALL_SHARE = 0.55
GAP_SHARE = 0.6
TWO_GAP_SHARE = 0.1  # of failing calls, those failing two factors (CRMArena-Pro's share)
# Shares of opportunities: ones whose agent worked ahead of the recorded stage, ones
# with tasks of an earlier stage left not started, and ones with recorded sales calls.
AHEAD_SHARE = 0.25
OPEN_AHEAD_SHARE = 0.6  # open deals are few: more of them, for stages other than Closed
LEFTOVER_SHARE = 0.3
INSIGHT_SHARE = 0.6
POLARITIES = {"subtopic": ("positive", "negative"),
              "competitor": ("advantage", "disadvantage", "offer")}  # fmt: skip


@dataclass(frozen=True)
class SalesData:
    territories: tuple[tuple[str, tuple[str, ...]], ...]
    titles: tuple[str, ...]
    openings: tuple[str, ...]
    closings: tuple[str, ...]
    bant: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # factor -> (pass, fail)
    stage_tasks: dict[str, tuple[str, ...]]
    articles: tuple[tuple[str, str, str, str], ...]  # key, title, summary, body
    subtopics: tuple[str, ...]
    competitors: tuple[str, ...]
    insight_lines: dict[str, tuple[str, ...]]  # polarity -> the buyer's lines


@cache
def sales_data() -> SalesData:
    """The B2B data file, read once."""
    return read_sales_data(Table.read("b2b_sales.toml"))


def read_sales_data(top: Table) -> SalesData:
    """The B2B sales phrases, territories and articles, checked as they are read."""
    phrases = top.table("phrases")
    bant = top.table("bant")
    tasks = top.table("stage_tasks")
    insights = top.table("insights")
    return SalesData(
        tuple((t.string("name"), t.strings("states")) for t in top.tables("territories")),
        phrases.strings("titles"),
        phrases.strings("openings"),
        phrases.strings("closings"),
        {f: (bant.table(f).strings("pass"), bant.table(f).strings("fail")) for f in BANT},
        {s: tasks.strings(s) for s in STAGES},
        tuple(
            (a.string("key"), a.string("title"), a.string("summary"), a.string("body"))
            for a in top.tables("articles")
        ),
        insights.strings("subtopics"),
        insights.strings("competitors"),
        {p: insights.strings(p) for kind in POLARITIES.values() for p in kind},
    )


def stage_lists(data: SalesData) -> str:
    """Each stage with its task subjects, one stage a line."""
    return "\n".join(
        f"{stage}: {'; '.join(subjects)}." for stage, subjects in data.stage_tasks.items()
    )


def stage_of_subject(subject: str) -> str:
    """The stage a Task subject belongs to (every subject belongs to exactly one)."""
    for stage, subjects in sales_data().stage_tasks.items():
        if subject in subjects:
            return stage
    raise KeyError(subject)


@dataclass
class _Agent:
    id: str
    territory: int
    conversion: float
    cycle_days: float


def _lead_day(r: random.Random) -> date:
    span = (SALES_END - START).days - 20
    while True:
        day = START + timedelta(days=r.randrange(span))
        if r.random() < MONTH_WEIGHT[day.month - 1] / max(MONTH_WEIGHT):
            return day


def _sf_date(day: date) -> str:
    return day.isoformat()


class _Writer:
    """Rows per object, inserted in Id order at the end."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, Any]]] = {}
        self.latent: list[tuple[str, str, str, str]] = []
        self.last_lines: list[dict[str, Any]] = []  # the latest opportunity's line items
        self.opened: dict[str, datetime] = {}  # opportunity -> when it was created
        self.pipe = random.Random()  # the pipeline's own stream, seeded by `build`

    def add(self, obj: str, row: dict[str, Any]) -> None:
        self.rows.setdefault(obj, []).append(row)

    def flush(self, store: OrgStore) -> dict[str, int]:
        counts = {}
        for obj, rows in self.rows.items():
            rows.sort(key=lambda row: str(row["Id"]))
            counts[obj] = store.insert(obj, rows)
        store.set_latent(self.latent)
        return counts


def build(
    store: OrgStore,
    seed: int,
    sizes: Sizes,
    crowd: People,
    cat: Catalog,
    book: OrderBook,
    kb: KnowledgeBase,
) -> dict[str, int]:
    """Write the sales objects; returns the rows written per object."""
    r = rng(seed, "sales")
    fake = Faker("en_US")
    fake.seed_instance(r.randrange(2**32))
    data = sales_data()
    w = _Writer()
    w.pipe = rng(seed, "sales-pipeline")

    # ---- sales knowledge articles
    article_id = IdMaker("Knowledge__kav", kb.counts["Knowledge__kav"] + 1)
    articles: dict[str, str] = {}
    for key, title, summary, body in data.articles:
        aid = article_id()
        articles[key] = aid
        if key == "stages":
            body = body.format(stage_lists=stage_lists(data))
        w.add("Knowledge__kav", {"Id": aid, "Title": title, "Summary": summary,
                                 "FAQ_Answer__c": body, "UrlName": slug(title),
                                 "PublishStatus": "Online", "Language": "en_US",
                                 "IsVisibleInCsp": 0})  # fmt: skip

    # ---- territories and their agents
    territory_id = IdMaker("Territory2")
    association_id = IdMaker("UserTerritory2Association")
    territories = []
    for name, states in data.territories:
        tid = territory_id()
        strength = round(r.uniform(0.7, 1.3), 3)
        territories.append((tid, states, strength))
        w.add("Territory2", {"Id": tid, "Name": name,
                             "DeveloperName": name.replace(" ", "_").replace("-", "_"),
                             "Description": ", ".join(states)})  # fmt: skip
        w.latent.append(("Territory2", tid, "strength", latent.dumps(strength)))
    n_sales = max(len(territories) * 2, round(len(crowd.agents) * SALES_TEAM_SHARE))
    pool = list(crowd.agents)
    r.shuffle(pool)
    agents: list[_Agent] = []
    for k, person in enumerate(pool[:n_sales]):
        conversion = round(0.15 + 0.55 * person.skill * r.uniform(0.8, 1.2), 3)
        cycle = round(150 - 110 * person.skill * r.uniform(0.85, 1.15), 1)
        agent = _Agent(person.id, k % len(territories), conversion, cycle)
        agents.append(agent)
        w.add("UserTerritory2Association", {"Id": association_id(), "UserId": agent.id,
              "Territory2Id": territories[agent.territory][0],
              "RoleInTerritory2": "Sales Representative"})  # fmt: skip
        w.latent.append(("User", agent.id, "sales_conversion", latent.dumps(conversion)))
        w.latent.append(("User", agent.id, "sales_cycle_days", latent.dumps(cycle)))
    by_territory: dict[int, list[_Agent]] = {}
    for agent in agents:
        by_territory.setdefault(agent.territory, []).append(agent)
    state_territory = {s: k for k, (_, states, _) in enumerate(territories) for s in states}
    all_states = sorted(state_territory)

    # ---- leads, and what converting them creates
    ids = {
        name: IdMaker(name)
        for name in ("Lead", "Opportunity", "OpportunityLineItem", "Quote", "QuoteLineItem",
                     "Contract", "VoiceCallTranscript__c", "Task", "Event")
    }  # fmt: skip
    account_id = IdMaker("Account", len(crowd.customers) + 1)
    contact_id = IdMaker("Contact", len(crowd.customers) + 1)
    order_rank = len(book.orders)
    order_item = book.counts["OrderItem"] + 1
    n_leads = max(60, round(LEADS_AT_SCALE_1 * sizes.scale))
    taken: set[str] = set()
    lead_days = sorted(_lead_day(r) for _ in range(n_leads))
    books = [b for b in cat.pricebooks if not b.promo] or cat.pricebooks
    counters = {"quote": 0, "line": 0, "contract": 0, "call": 0}

    for day in lead_days:
        lid = ids["Lead"]()
        state = r.choice(all_states)
        tk = state_territory[state]
        agent = r.choice(by_territory[tk])
        first, last = fake.first_name(), fake.last_name()
        company = fake.company()
        while company in taken:
            company = fake.company()
        taken.add(company)
        created = at_time(day, business_minutes(r))
        p_convert = min(0.95, agent.conversion * territories[tk][2])
        converted = r.random() < p_convert
        converted_day = day + timedelta(days=r.randint(2, 25))
        if converted_day > SALES_END:
            converted = False
        age = (SALES_END - day).days
        status = (
            "Closed - Converted" if converted
            else "Closed - Not Converted" if age > 60
            else r.choice(("Open - Not Contacted", "Working - Contacted"))
        )  # fmt: skip
        email = f"{ascii_slug(first)}.{ascii_slug(last)}@{ascii_slug(company)[:20]}.example"
        lead: dict[str, Any] = {
            "Id": lid, "Name": f"{first} {last}", "FirstName": first, "LastName": last,
            "Company": company, "Title": r.choice(data.titles), "Email": email,
            "Phone": f"555-{r.randint(100, 999)}-{r.randint(1000, 9999)}", "State": state,
            "Status": status, "LeadSource": r.choice(LEAD_SOURCES), "OwnerId": agent.id,
            "IsConverted": int(converted), "CreatedDate": sf_datetime(created),
        }  # fmt: skip
        if r.random() < CALL_SHARE:
            _call(w, r, data, ids, counters, lid, None, agent, created, company)
        if converted:
            acc, con, opp = account_id(), contact_id(), ids["Opportunity"]()
            lead |= {"ConvertedDate": _sf_date(converted_day), "ConvertedAccountId": acc,
                     "ConvertedContactId": con, "ConvertedOpportunityId": opp}  # fmt: skip
            w.add("Account", {"Id": acc, "Name": company, "Phone": lead["Phone"],
                  "RecordTypeId": RECORD_TYPE_BUSINESS_ACCOUNT, "ShippingCity": fake.city(),
                  "ShippingState": state, "Industry": r.choice(INDUSTRIES),
                  "NumberOfEmployees": r.choice((12, 40, 85, 150, 400, 1200))})  # fmt: skip
            w.add("Contact", {"Id": con, "Name": f"{first} {last}", "FirstName": first,
                  "LastName": last, "Email": email, "AccountId": acc,
                  "OwnerId": agent.id})  # fmt: skip
            _opportunity(w, r, data, ids, counters, cat, books, articles, agent, opp, acc,
                         con, company, lead["LeadSource"], converted_day)  # fmt: skip
            if w.rows["Opportunity"][-1]["StageName"] == "Closed":
                order_rank, order_item = _order(w, order_rank, order_item, acc)
        w.add("Lead", lead)
    # BANT gaps of leads without a call: none recorded (nothing to judge).
    _pipeline(w, w.pipe, data, ids, counters)
    return w.flush(store)


def _call(
    w: _Writer,
    r: random.Random,
    data: SalesData,
    ids: dict[str, IdMaker],
    counters: dict[str, int],
    lead_id: str,
    opp_id: str | None,
    agent: _Agent,
    when: datetime,
    company: str,
) -> None:
    """A recorded call with the lead: each BANT factor stated as met or not."""
    gaps: list[str] = []
    if r.random() < GAP_SHARE:
        n = 1 if r.random() < 1 - TWO_GAP_SHARE else 2
        gaps = sorted(r.sample(BANT, n), key=BANT.index)
    lines = [r.choice(data.openings)]
    order = list(BANT)
    r.shuffle(order)
    for factor in order:
        passes, fails = data.bant[factor]
        text = r.choice(fails if factor in gaps else passes)
        lines.append(
            text.format(
                money=f"${r.randrange(20, 400) * 1000:,}",
                line=r.choice(("footwear", "apparel", "outdoor gear", "accessories")),
                months=r.choice((2, 3, 4, 6)),
                far=str(when.year + 2),
            )
        )
        lines.append(r.choice(("Agent: Understood.", "Agent: Thanks, noted.",
                               "Agent: That helps, thank you.")))  # fmt: skip
    lines.append(r.choice(data.closings))
    counters["call"] += 1
    call_time = when + timedelta(days=r.randint(1, 6), minutes=r.randint(0, 300))
    call_time = min(call_time, END)
    w.add("VoiceCallTranscript__c", {"Id": ids["VoiceCallTranscript__c"](),
          "Name": f"VCT-{counters['call']:06d}", "LeadId__c": lead_id,
          "OpportunityId__c": opp_id, "Body__c": "\n".join(lines),
          "CreatedDate": sf_datetime(call_time)})  # fmt: skip
    w.latent.append(("Lead", lead_id, "bant_gaps", latent.dumps(gaps)))


def _opportunity(
    w: _Writer,
    r: random.Random,
    data: SalesData,
    ids: dict[str, IdMaker],
    counters: dict[str, int],
    cat: Catalog,
    books: list[Any],
    articles: dict[str, str],
    agent: _Agent,
    opp: str,
    acc: str,
    con: str,
    company: str,
    source: str,
    day: date,
) -> None:
    created = at_time(day, business_minutes(r))
    # The cycle: the agent's typical length, with a long right tail.
    cycle = max(7, round(agent.cycle_days * math.exp(r.gauss(0, 0.35))))
    signed = day + timedelta(days=cycle)
    pb = r.choice(books)
    chosen = r.sample(range(len(cat.products)), r.randint(1, 3))
    lines = []
    for p in chosen:
        entry, price = cat.entry(pb.index, p)
        lines.append((p, entry, price, r.choice((10, 20, 25, 40, 50, 75, 100, 150, 200))))
    amount = round(sum(price * qty for _, _, price, qty in lines), 2)
    if signed <= SALES_END:
        stage = "Closed"
        close_day = signed
    else:
        elapsed = (SALES_END - day).days / cycle
        stage = STAGES[min(3, int(elapsed * 4))]
        close_day = signed
    # Some agents work ahead of the stage they record: the tasks show the deal's stage,
    # the record an earlier one (a won deal so recorded has no contract yet).
    recorded = stage
    ahead = AHEAD_SHARE if stage == "Closed" else OPEN_AHEAD_SHARE
    if stage != "Qualification" and w.pipe.random() < ahead:
        recorded = STAGES[w.pipe.randrange(STAGES.index(stage))]
    w.latent.append(("Opportunity", opp, "task_stage", latent.dumps(stage)))
    product_name = cat.products[chosen[0]].name
    row: dict[str, Any] = {
        "Id": opp, "Name": f"{company} - {product_name}", "AccountId": acc, "ContactId": con,
        "OwnerId": agent.id, "StageName": recorded, "Amount": amount,
        "Probability": PROBABILITY[recorded], "CloseDate": _sf_date(close_day),
        "LeadSource": source, "Pricebook2Id": pb.id, "CreatedDate": sf_datetime(created),
    }  # fmt: skip
    w.last_lines = []
    for p, entry, price, qty in lines:
        w.last_lines.append({"Product2Id": cat.products[p].id, "PricebookEntryId": entry,
                             "Quantity": qty, "UnitPrice": price})  # fmt: skip
        w.add("OpportunityLineItem", {"Id": ids["OpportunityLineItem"](),
              "Name": f"{company} {cat.products[p].name}", "OpportunityId": opp,
              "Product2Id": cat.products[p].id, "PricebookEntryId": entry, "Quantity": qty,
              "UnitPrice": price, "TotalPrice": round(price * qty, 2)})  # fmt: skip
    if stage == "Closed":
        customer_signed = signed - timedelta(days=r.randint(0, 3))
        term = r.choice((12, 24, 36))
    if recorded == "Closed":
        counters["contract"] += 1
        cid = ids["Contract"]()
        row["ContractID__c"] = cid
        w.add("Contract", {"Id": cid, "ContractNumber": f"{counters['contract']:08d}",
              "AccountId": acc, "OwnerId": agent.id, "Status": "Activated",
              "StartDate": _sf_date(signed + timedelta(days=1)),
              "ContractTerm": term,
              "CustomerSignedDate": _sf_date(max(customer_signed, day)),
              "CompanySignedDate": _sf_date(signed),
              "CreatedDate": sf_datetime(at_time(max(customer_signed, day), 600))})  # fmt: skip
    w.add("Opportunity", row)
    w.opened[opp] = created
    if stage == "Closed" and r.random() < REVISED_SHARE:
        # An earlier offer the buyer turned down or that was not approved: often one that
        # broke a quote rule.
        _quote(w, r, ids, counters, cat, pb, articles, opp, acc, company, stage, lines,
               created + timedelta(days=max(1, cycle // 3)),
               r.choice(("Rejected", "Denied")))  # fmt: skip
    if STAGES.index(stage) >= 2:
        _quote(w, r, ids, counters, cat, pb, articles, opp, acc, company, stage, lines,
               created + timedelta(days=max(1, cycle // 2)))  # fmt: skip
    _activities(w, r, data, ids, agent, opp, stage, created)
    if recorded != stage:  # working ahead: some of the stage's work is done
        # the opportunity's last task is the last one written (not a search of every
        # task so far, which grows with the org: quadratic at scale 100)
        w.rows["Task"][-1]["Status"] = "Completed"


def _quote(
    w: _Writer,
    r: random.Random,
    ids: dict[str, IdMaker],
    counters: dict[str, int],
    cat: Catalog,
    pb: Any,
    articles: dict[str, str],
    opp: str,
    acc: str,
    company: str,
    stage: str,
    lines: list[tuple[int, str, float, int]],
    when: datetime,
    status: str | None = None,
) -> None:
    qid = ids["Quote"]()
    counters["quote"] += 1
    status = status or {"Closed": "Accepted", "Negotiation": "Presented"}.get(
        stage, r.choice(("Draft", "Needs Review", "In Review"))
    )
    # Lines: (product index, entry, list price, quantity, sales price, discount %)
    quote_lines = [(p, e, price, q, price, r.choice((0, 0, 5, 10, 15))) for p, e, price, q in lines]
    violation: str | None = None
    share = REJECTED_VIOLATION_SHARE if status in ("Rejected", "Denied") else VIOLATION_SHARE
    if status != "Accepted" and r.random() < share:
        # Discounts are the quote approval family's alone: as many as the configuration
        # rules together. Quotes break three of the four configuration rules, as
        # CRMArena-Pro's do; none has more lines than the products-per-quote article allows.
        key = r.choice(("discount", "discount", "discount", "quantity", "duplicate",
                        "list_price"))  # fmt: skip
        violation = articles[key]
        k = r.randrange(len(quote_lines))
        p, e, price, q, sp, d = quote_lines[k]
        if key == "discount":
            quote_lines[k] = (p, e, price, q, sp, r.choice((25, 30, 35, 40)))
        elif key == "quantity":
            quote_lines[k] = (p, e, price, r.choice((600, 750, 1000)), sp, d)
        elif key == "duplicate":
            quote_lines.append((p, e, price, r.choice((10, 20, 50)), sp, d))
        elif key == "list_price":
            quote_lines[k] = (p, e, price, q, round(price * 0.8, 2), d)
    w.add("Quote", {"Id": qid, "Name": f"{company} quote", "QuoteNumber": f"{counters['quote']:08d}",
          "OpportunityId": opp, "AccountId": acc, "Status": status, "Pricebook2Id": pb.id,
          "ExpirationDate": _sf_date(when.date() + timedelta(days=30)),
          "Description": f"Offer to {company}.", "CreatedDate": sf_datetime(when)})  # fmt: skip
    for p, e, _price, q, sp, d in quote_lines:
        counters["line"] += 1
        w.add("QuoteLineItem", {"Id": ids["QuoteLineItem"](),
              "LineNumber": f"{counters['line']:08d}", "QuoteId": qid,
              "Product2Id": cat.products[p].id, "PricebookEntryId": e, "Quantity": q,
              "UnitPrice": sp, "Discount": d,
              "TotalPrice": round(sp * q * (100 - d) / 100, 2)})  # fmt: skip
    w.latent.append(("Quote", qid, "violation", latent.dumps(violation)))


def _activities(
    w: _Writer,
    r: random.Random,
    data: SalesData,
    ids: dict[str, IdMaker],
    agent: _Agent,
    opp: str,
    stage: str,
    created: datetime,
) -> None:
    """Tasks of the opportunity's stages so far (done), of its stage (some open), and a
    meeting or two."""
    k = STAGES.index(stage)
    for s in STAGES[: k + 1]:
        for subject in r.sample(data.stage_tasks[s], 2 if s != stage else 3):
            done = s != stage or r.random() < 0.3
            due = created.date() + timedelta(days=r.randint(1, 40) + 20 * STAGES.index(s))
            w.add("Task", {"Id": ids["Task"](), "Subject": subject,
                  "Status": "Completed" if done else "Not Started",
                  "Priority": r.choice(("High", "Normal", "Normal", "Low")),
                  "ActivityDate": _sf_date(due), "WhatId": opp, "OwnerId": agent.id,
                  "CreatedDate": sf_datetime(created + timedelta(hours=1))})  # fmt: skip
    start = created + timedelta(days=r.randint(2, 14))
    w.add("Event", {"Id": ids["Event"](), "Subject": f"{stage} meeting",
          "StartDateTime": sf_datetime(start),
          "EndDateTime": sf_datetime(start + timedelta(minutes=r.choice((30, 45, 60)))),
          "WhatId": opp, "OwnerId": agent.id,
          "Description": "Meeting with the buyer."})  # fmt: skip


def _order(w: _Writer, rank: int, item: int, acc: str) -> tuple[int, int]:
    """The order that fulfils the opportunity just written (Closed: its contract signed)."""
    opp = w.rows["Opportunity"][-1]
    contract = w.rows["Contract"][-1]
    rank += 1
    oid = fast_id("801", rank)
    w.add("Order", {"Id": oid, "OrderNumber": f"{rank + 100:08d}", "AccountId": acc,
          "Status": "Activated", "EffectiveDate": contract["CompanySignedDate"],
          "Pricebook2Id": opp["Pricebook2Id"], "OpportunityId": opp["Id"],
          "ContractId": contract["Id"]})  # fmt: skip
    for line in w.last_lines:
        w.add("OrderItem", {"Id": fast_id("802", item), "OrderItemNumber": f"{item:010d}",
              "OrderId": oid, "Product2Id": line["Product2Id"], "Quantity": line["Quantity"],
              "UnitPrice": line["UnitPrice"],
              "PricebookEntryId": line["PricebookEntryId"]})  # fmt: skip
        item += 1
    return rank, item


def _task(
    w: _Writer, ids: dict[str, IdMaker], r: random.Random, opp: dict[str, Any],
    created: datetime, subject: str, stage: str, done: bool,
) -> None:  # fmt: skip
    due = created.date() + timedelta(days=r.randint(1, 40) + 20 * STAGES.index(stage))
    w.add("Task", {"Id": ids["Task"](), "Subject": subject,
          "Status": "Completed" if done else "Not Started",
          "Priority": r.choice(("High", "Normal", "Normal", "Low")),
          "ActivityDate": _sf_date(due), "WhatId": opp["Id"], "OwnerId": opp["OwnerId"],
          "CreatedDate": sf_datetime(created + timedelta(hours=1))})  # fmt: skip


def _pipeline(
    w: _Writer, r: random.Random, data: SalesData, ids: dict[str, IdMaker],
    counters: dict[str, int],
) -> None:  # fmt: skip
    """What the records of a working pipeline show beside their stages: tasks of earlier
    stages left not started, and sales calls on opportunities whose buyers speak about
    subtopics of the offer and about competitors."""
    used: dict[str, set[str]] = {}
    for task in w.rows.get("Task", []):
        used.setdefault(task["WhatId"], set()).add(task["Subject"])
    for opp in w.rows.get("Opportunity", []):
        created = w.opened[opp["Id"]]
        k = STAGES.index(opp["StageName"])
        subjects = used.setdefault(opp["Id"], set())
        if k > 0 and r.random() < LEFTOVER_SHARE:
            for _ in range(r.randint(1, 3)):
                s = STAGES[r.randrange(k)]
                free = [x for x in data.stage_tasks[s] if x not in subjects]
                if free:
                    subject = r.choice(free)
                    subjects.add(subject)
                    _task(w, ids, r, opp, created, subject, s, False)
        if k > 0 and r.random() < INSIGHT_SHARE:
            _insight_calls(w, r, data, ids, counters, opp, created)


def _insight_calls(
    w: _Writer, r: random.Random, data: SalesData, ids: dict[str, IdMaker],
    counters: dict[str, int], opp: dict[str, Any], created: datetime,
) -> None:  # fmt: skip
    """One or two calls on the opportunity; within it a subtopic has one sentiment and a
    competitor one standing, so what it says is never in two minds."""
    said = [("subtopic", t, r.choice(POLARITIES["subtopic"]))
            for t in r.sample(data.subtopics, r.randint(2, 4))]  # fmt: skip
    said += [("competitor", c, r.choice(POLARITIES["competitor"]))
             for c in r.sample(data.competitors, r.choice((0, 1, 1, 2)))]  # fmt: skip
    r.shuffle(said)
    calls = 1 if len(said) < 4 or r.random() < 0.5 else 2
    cut = len(said) // 2 if calls == 2 else len(said)
    when = created
    for part in (said[:cut], said[cut:]):
        if not part:
            continue
        when = min(when + timedelta(days=r.randint(3, 30), minutes=r.randint(0, 300)), END)
        lines = [r.choice(data.openings)]
        for _kind, name, polarity in part:
            text = r.choice(data.insight_lines[polarity])
            lines.append(text.format(topic=name[0].lower() + name[1:], competitor=name))
            lines.append(r.choice(("Agent: Understood.", "Agent: Thanks, noted.",
                                   "Agent: That helps, thank you.")))  # fmt: skip
        lines.append(r.choice(data.closings))
        counters["call"] += 1
        cid = ids["VoiceCallTranscript__c"]()
        w.add("VoiceCallTranscript__c", {"Id": cid, "Name": f"VCT-{counters['call']:06d}",
              "LeadId__c": None, "OpportunityId__c": opp["Id"], "Body__c": "\n".join(lines),
              "CreatedDate": sf_datetime(when)})  # fmt: skip
        w.latent.append(("VoiceCallTranscript__c", cid, "insights",
                         latent.dumps([list(x) for x in part])))  # fmt: skip
