"""Cases with their history, e-mails and chat transcripts.

Each case is about one order line and one issue. Which lines get cases follows the
product's issue propensity and season (cases of a seasonal product peak in its peak
months); the first owner is often a specialist of the issue; low-skill agents transfer
more and take longer; closure speed also depends on the customer's shipping state. Cases
with an e-mail or chat carry an offered resolution that either keeps to the issue's
policy article or (the latent policy violation) breaks it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from crm_tui.org.generate import texts as tx
from crm_tui.org.generate.common import (
    COMPANY,
    END,
    NOW,
    IdMaker,
    Sizes,
    at_time,
    business_minutes,
    rng,
    weighted_sample,
)
from crm_tui.org.generate.kbtexts import RESOLUTIONS
from crm_tui.org.generate.knowledge import KnowledgeBase
from crm_tui.org.generate.orders import OrderBook
from crm_tui.org.generate.people import Agent, Customer, People
from crm_tui.org.generate.products import Catalog, Product, grammar
from crm_tui.org.schema import latent
from crm_tui.org.schema.ids import make_id
from crm_tui.org.schema.sftime import format_datetime
from crm_tui.org.store.orgstore import OrgStore

PEAK_CASE_BOOST = 4.0
# Slots a description should not repeat in its second sentence.
ONCE = ("defect", "wrong", "order", "date", "promo", "size", "amount", "occasion")
# Issues whose customers plausibly write weeks after the purchase, so that a resolution
# offered after its window (a window violation) reads naturally.
LATE_ISSUES = (tx.INCORRECT, tx.SIZE, tx.WARRANTY, tx.DEFECT, tx.RETURN, tx.OVERCHARGE)
VIOLATION_RATE = 0.35
GENERALIST_SHARE = 0.4  # of the issues, taken by any agent rather than by specialists
ALL_RESOLUTIONS = list(RESOLUTIONS)


@dataclass(slots=True)  # every case's draft is kept until all are written
class Draft:
    """A case before Ids are assigned (cases are numbered in CreatedDate order)."""

    order: int
    line: int
    issue: int
    created: datetime
    closed: datetime | None
    status: str
    priority: str
    owners: list[int]  # agent indexes, first to last
    transfer_times: list[datetime]
    subject: str
    description: str
    emails: list[tuple[datetime, bool, str]] = field(default_factory=list)  # (time, agent?, body)
    chat: tuple[list[tuple[datetime, bool, str]], int] | None = None  # (lines, agent index)
    violation: dict[str, str | None] | None = None  # latent CASE_POLICY_VIOLATION


def _fmt_day(d: date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


def _money(v: float) -> str:
    return f"${v:,.2f}"


def _pick_lines(
    r: random.Random, n: int, cat: Catalog, book: OrderBook
) -> list[tuple[int, int, int, int]]:
    """(order, line, issue, delay in days) of the lines that get a case.

    Every activated line draws an issue and a delay first; it is then picked with weight
    propensity x (PEAK_CASE_BOOST if the case would open in the product's peak months).
    """
    items, weights = [], []
    for oi, order in enumerate(book.orders):
        if order.status != "Activated":
            continue
        for li, line in enumerate(order.lines):
            p = cat.products[line.product]
            issue = _issue_for(r, p)
            lo, hi = tx.DELAYS[issue]
            delay = r.randint(lo, hi)
            month = (order.day + timedelta(days=delay)).month
            items.append((oi, li, issue, delay))
            weights.append(p.propensity * (PEAK_CASE_BOOST if month in p.peak else 1.0))
    return weighted_sample(r, items, weights, min(n, len(items)))


def _issue_for(r: random.Random, product: Product) -> int:
    w = list(tx.ISSUE_WEIGHTS[product.type.kind])
    nonzero = [i for i, x in enumerate(w) if x > 0]
    w[nonzero[product.issue_bias % len(nonzero)]] *= 4.0
    return r.choices(range(len(w)), w)[0]


class _Router:
    """First owner and transfer targets."""

    def __init__(self, r: random.Random, crowd: People, n_issues: int):
        self.r = r
        self.agents = crowd.agents
        n = len(self.agents)
        self.specialists: list[list[int]] = []
        # Specialists are among the stronger half of the team: experts in their issue.
        ranked = sorted(range(n), key=lambda i: -self.agents[i].skill)
        experts = ranked[: max(3, n // 2)]
        # Some issues have no specialists: whoever is free takes them, so no agent stands
        # out on them and the routing policy's product and workload rules decide.
        generalist = set(r.sample(range(n_issues), round(n_issues * GENERALIST_SHARE)))
        for issue in range(n_issues):
            picks = r.sample(experts, min(3, len(experts)))
            if issue in generalist:
                picks = []
            self.specialists.append(picks)
            for a in picks:
                self.agents[a].specialties.append(issue)
        self.strong = [i for i, a in enumerate(self.agents) if a.skill >= 0.6] or list(range(n))

    def first(self, issue: int) -> int:
        roll = self.r.random()
        spec = self.specialists[issue]
        if not spec:
            return self.r.randrange(len(self.agents))
        if roll < 0.30:
            return spec[0]
        if roll < 0.42 and len(spec) > 1:
            return spec[1]
        return self.r.randrange(len(self.agents))

    def transfer_to(self, issue: int, current: int) -> int:
        for _ in range(10):
            if self.r.random() < 0.5 and self.specialists[issue]:
                target = self.r.choice(self.specialists[issue])
            else:
                target = self.r.choice(self.strong)
            if target != current:
                return target
        return (current + 1) % len(self.agents)


def _schedule(r: random.Random, start: datetime, end: datetime, n: int) -> list[datetime]:
    """`n` ordered times in [start, end], the first a few minutes after `start`."""
    span = max(60.0, (end - start).total_seconds())
    first = start + timedelta(seconds=r.randint(30, 600))
    rest = sorted(r.uniform(0.05, 0.98) * span for _ in range(n - 1))
    out = [first] + [start + timedelta(seconds=s) for s in rest]
    for i in range(1, n):  # keep them strictly increasing and at least a minute apart
        if out[i] <= out[i - 1]:
            out[i] = out[i - 1] + timedelta(minutes=r.randint(1, 20))
    return out


def build(
    store: OrgStore,
    seed: int,
    sizes: Sizes,
    crowd: People,
    cat: Catalog,
    book: OrderBook,
    kb: KnowledgeBase,
) -> dict[str, int]:
    r = rng(seed, "cases")
    router = _Router(r, crowd, len(kb.issues))
    agents, customers = crowd.agents, crowd.customers
    drafts: list[Draft] = []

    for oi, li, issue, delay in _pick_lines(r, sizes.cases, cat, book):
        order = book.orders[oi]
        line = order.lines[li]
        product = cat.products[line.product]
        cust = customers[order.customer]
        policy = kb.issues[issue]
        has_email = r.random() < sizes.email_share
        has_chat = r.random() < sizes.chat_share
        violation_kind = None
        if (has_email or has_chat) and r.random() < VIOLATION_RATE:
            late_ok = issue in LATE_ISSUES
            violation_kind = "window" if late_ok and r.random() < 0.55 else "not_allowed"

        # ---- when: days after the order (a window violation comes after the window)
        window: tuple[str, int] | None = None  # (resolution, its window in days)
        if violation_kind == "window":
            window = min(
                ((k, w) for k, w in policy.resolutions.items() if w is not None),
                key=lambda kw: kw[1],
            )
            delay = window[1] + r.randint(3, 25)
        created = at_time(order.day + timedelta(days=delay), business_minutes(r))
        if created > END:
            created = max(
                at_time(order.day, 23 * 60 + 30), END - timedelta(hours=r.randint(1, 200))
            )

        # ---- who: first owner, transfers (low skill transfers more)
        owners = [router.first(issue)]
        p_transfer = 0.04 + 0.8 * (1 - agents[owners[0]].skill) ** 2
        if r.random() < p_transfer:
            owners.append(router.transfer_to(issue, owners[0]))
            if r.random() < 0.3 * (1 - agents[owners[-1]].skill) ** 2 + 0.03:
                owners.append(router.transfer_to(issue, owners[-1]))

        # ---- how long: issue base x skill of the closing agent x state speed x noise
        skill = agents[owners[-1]].skill
        hours = tx.HANDLE_HOURS[issue] * (0.4 + 1.7 * (1 - skill))
        hours *= crowd.state_speed[cust.state] * r.lognormvariate(0, 0.45)
        hours += sum(r.uniform(8, 40) for _ in owners[1:])
        hours = max(1.0, hours)
        finish = created + timedelta(hours=hours)
        recent = (END - created).days < 45
        open_case = r.random() < (0.55 if recent else 0.115) or finish > NOW
        if open_case:
            # "Open" as CRMArena's routing helper counts workload (spec 14.2: the workload
            # rule decides only where "Open" and "not Closed" agree, so most open cases are
            # plainly Open).
            status = r.choices(
                ("New", "Open", "Escalated"), (5, 80, 15) if len(owners) > 1 else (12, 80, 8)
            )[0]
            if status == "New" and len(owners) > 1:
                status = "Open"
            closed = None
            life_end = min(finish, NOW)
        else:
            status, closed, life_end = "Closed", finish, finish
        span = (life_end - created).total_seconds()
        transfer_times = sorted(
            created + timedelta(seconds=r.uniform(0.1, 0.8) * span) for _ in owners[1:]
        )
        priority = r.choices(("Low", "Medium", "High"), tx.PRIORITY[issue])[0]

        # ---- text
        kind = product.type.kind
        slots = grammar(product.type.plural)
        slots["it_is"] = "they're" if product.type.plural else "it's"  # customers write casually
        slots.update(
            {
                "product": product.name,
                "short": product.type.noun.lower(),
                "order": f"#{order.number}",
                "date": _fmt_day(order.day),
                "direction": r.choice(("smaller", "larger")),
                "tight": r.choice(("tight", "loose", "short", "long")),
                "wrong": tx.pick(r, tx.WRONG_ITEMS),
                "occasion": tx.pick(r, tx.OCCASIONS),
                "company": COMPANY,
                "first": cust.first,
                "promo": tx.pick(r, tx.PROMOS),
                "amount": _money(line.price * line.quantity),
                "relative": tx.pick(r, tx.RELATIVES),
                "points": f"{r.randrange(500, 6000, 50):,}",
                "card": f"{r.randint(0, 9999):04d}",
            }
        )
        size_pool = tx.SIZES.get(kind, ("size S", "size M", "size L"))
        slots["size"], slots["other"] = r.sample(size_pool, 2)
        slots["defect"] = tx.fill(tx.pick(r, tx.DEFECTS[kind]), slots)
        slots["defect_cap"] = slots["defect"][:1].upper() + slots["defect"][1:]
        subject = tx.fill(tx.pick(r, tx.SUBJECTS[issue]), slots)
        first_core = tx.pick(r, tx.CORES[issue])
        parts = [tx.fill(first_core, slots)]
        used = {k for k in ONCE if "{" + k + "}" in first_core}
        others = [
            c
            for c in tx.CORES[issue]
            if c != first_core and not any("{" + k + "}" in c for k in used)
        ]
        if others and r.random() < 0.6:
            parts.append(tx.fill(r.choice(others), dict(slots, product=slots["short"])))
        detail = tx.fill(tx.pick(r, tx.DETAILS), slots)
        if detail:
            parts.append(detail)
        parts.append(tx.pick(r, tx.ASKS))
        description = " ".join(parts)
        info = r.randrange(len(tx.INFO_REQUESTS[issue]))  # request and its answer

        d = Draft(
            oi,
            li,
            issue,
            created,
            closed,
            status,
            priority,
            owners,
            transfer_times,
            subject,
            description,
        )

        # ---- communications: the agent on the case at that moment makes the offer
        def owner_at(t: datetime) -> int:  # used only within this iteration
            k = sum(1 for x in transfer_times if x <= t)  # noqa: B023
            return owners[k]  # noqa: B023

        offer_times: list[datetime] = []
        chat_times: list[datetime] = []
        if has_chat:
            t = (
                created + timedelta(minutes=r.randint(0, 25))
                if not has_email
                else created + timedelta(seconds=r.uniform(0.05, 0.5) * span)
            )
            for _ in range(len(CHAT_SCRIPT)):
                t += timedelta(seconds=r.randint(15, 110))
                chat_times.append(t)
            offer_times.append(chat_times[CHAT_SCRIPT.index("offer")])
        if has_email:
            n_mail = r.choices((2, 3, 4, 5, 6, 7, 8), (8, 12, 22, 22, 16, 12, 8))[0]
            times = _schedule(r, created, life_end, n_mail)
            d.emails = [(t, False, "") for t in times]
            offer_idx = {2: 1, 3: 1}.get(n_mail, 3)
            offer_times.append(times[offer_idx])

        # ---- the offered resolution: within policy, or the latent violation
        why: str | None = None
        if offer_times:
            first_days = (min(offer_times).date() - order.day).days
            last_days = (max(offer_times).date() - order.day).days
            allowed = policy.resolutions
            if window is not None and window[1] < first_days:
                offered = window[0]
                why = (
                    f"{offered} was offered {first_days} days after the purchase date; "
                    f"the policy allows it only within {window[1]} days"
                )
            elif violation_kind is not None:
                offered = r.choice([x for x in ALL_RESOLUTIONS if x not in allowed])
                why = (
                    f"{offered} is not an allowed resolution for {policy.name} "
                    f"(allowed: {', '.join(allowed)})"
                )
            else:
                ok = [k for k, w in allowed.items() if w is None or last_days <= w]
                if ok:
                    offered = r.choice(ok)
                else:  # too late for every resolution: offering one breaks the policy
                    offered = max(allowed, key=lambda k: allowed[k] or 0)
                    why = (
                        f"{offered} was offered {last_days} days after the purchase date; "
                        f"the policy allows it only within {allowed[offered]} days"
                    )
            d.violation = {
                "article": policy.article_id if why else None,
                "offered": offered,
                "why": why
                or f"{offered} is allowed for {policy.name} at {last_days} days after purchase",
            }
            slots["offer"] = tx.fill(tx.pick(r, tx.OFFERS[offered]), slots)
            slots["lead"] = "" if why else tx.pick(r, tx.IN_WINDOW)

        if has_chat:
            owner = owner_at(chat_times[0])
            d.chat = (_chat_lines(r, chat_times, agents[owner], slots, description, issue), owner)
        if has_email:
            d.emails = _emails(r, d.emails, slots, description, owner_at, agents, issue, info)
        drafts.append(d)

    return _write(store, seed, drafts, crowd, cat, book, kb)


CHAT_SCRIPT = (
    "greet",
    "problem",
    "details",
    "order",
    "lookup",
    "offer",
    "accept",
    "confirm",
    "bye",
    "closing",
)


def _chat_lines(
    r: random.Random,
    times: list[datetime],
    agent: Agent,
    slots: dict[str, str],
    description: str,
    issue: int,
) -> list[tuple[datetime, bool, str]]:
    s = dict(slots, agent_first=agent.name.split()[0])
    offer = tx.with_lead(s["lead"], s["offer"])
    said = {
        "greet": (True, tx.fill(tx.pick(r, tx.CHAT_GREETINGS), s)),
        "problem": (False, description.split(". ")[0].rstrip(".") + "."),
        "details": (True, tx.pick(r, tx.CHAT_DETAILS)),
        "order": (
            False,
            r.choice(("It's {order}.", "Sure, {order}.", "Yes, it's {order}.", "{order}")).format(
                order=s["order"]
            ),
        ),
        "lookup": (True, tx.fill(tx.pick(r, tx.CHAT_LOOKUPS), s)),
        "offer": (True, tx.fill(tx.pick(r, tx.EMPATHY[issue]), s) + " " + offer),
        "accept": (False, tx.pick(r, tx.ACCEPTS)),
        "confirm": (True, tx.pick(r, tx.CONFIRMS)),
        "bye": (False, tx.pick(r, tx.CHAT_BYES)),
        "closing": (True, tx.fill(tx.pick(r, tx.CHAT_CLOSINGS), s)),
    }
    return [(t, *said[step]) for t, step in zip(times, CHAT_SCRIPT)]


def _emails(
    r: random.Random,
    slots_times: list[tuple[datetime, bool, str]],
    slots: dict[str, str],
    description: str,
    owner_at: Callable[[datetime], int],
    agents: list[Agent],
    issue: int,
    info: int,
) -> list[tuple[datetime, bool, str]]:
    n = len(slots_times)
    plan = {2: ["open", "offer"], 3: ["open", "offer", "accept"]}.get(
        n, ["open", "ack", "info", "offer", "accept", "confirm", "thanks", "final"][:n]
    )
    out: list[tuple[datetime, bool, str]] = []
    for (t, _, _), step in zip(slots_times, plan):
        agent = agents[owner_at(t)]
        s = dict(slots, agent=agent.name)
        greet_c = f"Hi {s['first']},"
        if step == "open":
            opening = tx.fill(tx.pick(r, tx.OPENINGS), s)
            body = (
                (opening + "\n\n" if opening else "")
                + description
                + "\n\n"
                + tx.fill(tx.pick(r, tx.CUSTOMER_SIGNOFFS), s)
            )
            out.append((t, False, body))
        elif step == "ack":
            body = (
                f"{greet_c}\n\n{tx.fill(tx.pick(r, tx.ACKS), s)} "
                f"{tx.fill(tx.INFO_REQUESTS[issue][info], s)}\n\n"
                f"{tx.fill(tx.pick(r, tx.AGENT_SIGNOFFS), s)}"
            )
            out.append((t, True, body))
        elif step == "info":
            out.append((t, False, tx.fill(tx.INFO_REPLIES[issue][info], s) + "\n\n" + s["first"]))
        elif step == "offer":
            offer = tx.with_lead(s["lead"], s["offer"])
            intro = tx.fill(tx.pick(r, tx.EMPATHY[issue]), s) + " "
            if n <= 3:
                intro = tx.fill(tx.pick(r, tx.ACKS), s) + " " + intro
            body = f"{greet_c}\n\n{intro}{offer}\n\n{tx.fill(tx.pick(r, tx.AGENT_SIGNOFFS), s)}"
            out.append((t, True, body))
        elif step == "accept":
            out.append((t, False, tx.pick(r, tx.ACCEPTS) + "\n\n" + s["first"]))
        elif step == "confirm":
            out.append(
                (
                    t,
                    True,
                    f"{greet_c}\n\n{tx.pick(r, tx.CONFIRMS)}\n\n"
                    f"{tx.fill(tx.pick(r, tx.AGENT_SIGNOFFS), s)}",
                )
            )
        elif step == "thanks":
            out.append((t, False, tx.pick(r, tx.THANKS) + "\n" + s["first"]))
        else:
            out.append(
                (t, True, f"{tx.pick(r, tx.FINALS)}\n\n{tx.fill(tx.pick(r, tx.AGENT_SIGNOFFS), s)}")
            )
    return out


def _write(
    store: OrgStore,
    seed: int,
    drafts: list[Draft],
    crowd: People,
    cat: Catalog,
    book: OrderBook,
    kb: KnowledgeBase,
) -> dict[str, int]:
    r = rng(seed, "cases-write")
    agents, customers = crowd.agents, crowd.customers
    drafts.sort(key=lambda d: (d.created, d.order, d.line))
    case_id = IdMaker("Case")
    case_rows: list[dict[str, object]] = []
    # (time, order within the case, case Id, field, old value, new value)
    history: list[tuple[datetime, int, str, str, str | None, str | None]] = []
    # (time, case Id, subject, body, from, to, to Id)
    mails: list[tuple[datetime, str, str, str, str, str, str]] = []
    chats: list[tuple[datetime, str, Customer, str, str]] = []  # (end, case Id, ...)
    lat: list[tuple[str, str, str, str]] = []
    for k, d in enumerate(drafts):
        order = book.orders[d.order]
        cust = customers[order.customer]
        cid = case_id()
        case_rows.append(
            {
                "Id": cid,
                "CaseNumber": f"{1001 + k:08d}",
                "Subject": d.subject,
                "Description": d.description,
                "Status": d.status,
                "Priority": d.priority,
                "ContactId": cust.contact_id,
                "AccountId": cust.id,
                "OwnerId": agents[d.owners[-1]].id,
                "CreatedDate": format_datetime(d.created),
                "ClosedDate": format_datetime(d.closed) if d.closed else None,
                "OrderItemId__c": order.lines[d.line].id,
                "IssueId__c": kb.issues[d.issue].id,
            }
        )
        history.append((d.created, 0, cid, "Case Creation", None, None))
        history.append((d.created, 1, cid, "Owner Assignment", None, agents[d.owners[0]].id))
        for t, old, new in zip(d.transfer_times, d.owners, d.owners[1:]):
            history.append((t, 2, cid, "Owner Assignment", agents[old].id, agents[new].id))
        if d.closed:
            history.append((d.closed, 3, cid, "Case Closed", None, None))
        subject = d.subject
        for i, (t, is_agent, body) in enumerate(d.emails):
            agent = agents[_owner_at(d, t)]
            mails.append(
                (
                    t,
                    cid,
                    subject if i == 0 else f"Re: {subject}",
                    body,
                    agent.email if is_agent else cust.email,
                    cust.email if is_agent else agent.email,
                    cust.contact_id if is_agent else agent.id,
                )
            )
        if d.chat:
            lines, owner = d.chat
            agent = agents[owner]
            body = "\n".join(
                f"[{t:%Y-%m-%dT%H:%M:%S}] {agent.name if a else cust.name} "
                f"({'Agent' if a else 'Customer'}): {text}"
                for t, a, text in lines
            )
            chats.append(
                (lines[-1][0] + timedelta(seconds=r.randint(10, 90)), cid, cust, agent.id, body)
            )
        if d.violation is not None:
            lat.append(("Case", cid, latent.CASE_POLICY_VIOLATION[1], latent.dumps(d.violation)))
    store.insert("Case", case_rows)

    history.sort(key=lambda h: (h[0], h[2], h[1]))
    hist_id = IdMaker("CaseHistory__c")
    store.insert(
        "CaseHistory__c",
        (
            {
                "Id": hist_id(),
                "Name": f"CH-{i + 1:06d}",
                "CaseId__c": cid,
                "Field__c": f,
                "OldValue__c": old,
                "NewValue__c": new,
                "CreatedDate": format_datetime(t),
            }
            for i, (t, _, cid, f, old, new) in enumerate(history)
        ),
    )

    mails.sort(key=lambda m: (m[0], m[1]))
    mail_id = IdMaker("EmailMessage")
    store.insert(
        "EmailMessage",
        (
            {
                "Id": mail_id(),
                "Subject": subj,
                "TextBody": body,
                "ParentId": cid,
                "FromAddress": frm,
                "ToAddress": to,
                "ToIds": to_id,
                "MessageDate": format_datetime(t),
            }
            for t, cid, subj, body, frm, to, to_id in mails
        ),
    )

    chats.sort(key=lambda c: (c[0], c[1]))
    chat_id = IdMaker("LiveChatTranscript")
    store.insert(
        "LiveChatTranscript",
        (
            {
                "Id": chat_id(),
                "Name": f"{i + 1:08d}",
                "CaseId": cid,
                "AccountId": cust.id,
                "ContactId": cust.contact_id,
                "OwnerId": owner,
                "Body": body,
                "EndTime": format_datetime(end),
                "LiveChatVisitorId": make_id("571", i + 1),
            }
            for i, (end, cid, cust, owner, body) in enumerate(chats)
        ),
    )
    store.set_latent(lat)
    return {
        "Case": len(case_rows),
        "CaseHistory__c": len(history),
        "EmailMessage": len(mails),
        "LiveChatTranscript": len(chats),
    }


def _owner_at(d: Draft, t: datetime) -> int:
    return d.owners[sum(1 for x in d.transfer_times if x <= t)]
