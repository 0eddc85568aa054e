"""Cases with their history, e-mails and chat transcripts.

Each case is about one order line and one issue. Which lines get cases follows the
product's issue propensity and season (cases of a seasonal product peak in its peak
months); the first owner is often a specialist of the issue; low-skill agents transfer
more and take longer; closure speed also depends on the customer's shipping state. Closed
cases with an e-mail or chat carry an offered resolution that either keeps to the issue's
policy article or (the latent policy violation) breaks it.

Timelines: customers open cases on a daily curve with a weekend dip; agents
act inside their shifts, chats inside live chat's stated hours (`worktime`). Cases still
open were opened in the last weeks before the org's today; their threads stop before any
offer, a New case has no agent activity yet, and an Escalated case was handed on.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from itertools import accumulate

from crm_tui.org.generate import chats, threads
from crm_tui.org.generate import descriptions as descr
from crm_tui.org.generate import emails as em
from crm_tui.org.generate import texts as tx
from crm_tui.org.generate import worktime as wt
from crm_tui.org.generate import writing_style as ws
from crm_tui.org.generate.agent_phrases import agent_phrases
from crm_tui.org.generate.case_spill import TextSpill
from crm_tui.org.generate.common import (
    COMPANY,
    NOW,
    IdMaker,
    Sizes,
    rng,
    weighted_sample,
)
from crm_tui.org.generate.daytime import fit_time
from crm_tui.org.generate.kbtexts import resolutions
from crm_tui.org.generate.knowledge import KnowledgeBase
from crm_tui.org.generate.orders import OrderBook
from crm_tui.org.generate.people import Agent, Customer, People
from crm_tui.org.generate.products import Catalog, Product
from crm_tui.org.schema import latent
from crm_tui.org.schema.ids import make_id
from crm_tui.org.schema.sftime import format_datetime
from crm_tui.org.store.orgstore import OrgStore

PEAK_CASE_BOOST = 5.0
URGENT = re.compile(r"\burgent\b|\basap\b|\bimmediately\b", re.IGNORECASE)
# Slots a description should not repeat in its second sentence.
ONCE = ("defect", "wrong", "order", "date", "promo", "size", "amount", "occasion")
# Issues whose customers plausibly write weeks after the purchase, so that a resolution
# offered after its window (a window violation) reads naturally.
LATE_ISSUES = (tx.INCORRECT, tx.SIZE, tx.WARRANTY, tx.DEFECT, tx.RETURN, tx.OVERCHARGE)
VIOLATION_RATE = 0.35
GENERALIST_SHARE = 0.6  # of the issues, taken by any agent rather than by specialists
# Cases still open were opened in the last weeks before the org's today: a share of the
# cases is picked among the lines whose case opens then, most of which are still open.
OPEN_WINDOW_DAYS = 70
RECENT_SHARE = 0.2
OPEN_RATE = 0.85  # of the cases opened on the org's today and done: fewer of older ones
OPEN_FADE = 0.4  # the share still open falls by this much over the window
# Cases open until a few hours before the org's today (its `NOW`); nothing happens after.
LAST_OPENING = NOW - timedelta(hours=3)
QUIET_BEFORE_NOW = timedelta(hours=6)  # room for moving messages into working hours
FIRST_REPLY_HOURS = 30  # at most, before moving into the agent's shift
PRIORITY_PACE = {"High": 0.6, "Medium": 1.0, "Low": 1.35}  # of the handle time
OFF_SEASON_RECENT = 0.1  # weight of a seasonal product out of its season among those
# Handle times (texts.HANDLE_HOURS) are elapsed hours; an agent works about a quarter of
# the week's hours, so a case takes that share of them in the closing agent's shifts.
WORK_SHARE = 0.25


@dataclass(slots=True)  # every case's draft is kept until all are written
class Draft:
    """A case before Ids are assigned (cases are numbered in CreatedDate order). Its texts
    wait in the `TextSpill` (case_spill.py), not here."""

    order: int
    line: int
    issue: int
    created: datetime
    closed: datetime | None
    status: str
    priority: str
    owners: list[int]  # agent indexes, first to last
    transfer_times: list[datetime]
    chat_end: datetime | None = None  # the chat's last line, if the case has a chat
    chat_owner: int = 0  # the agent (index) on the chat
    violation: str | None = None  # latent CASE_POLICY_VIOLATION, as stored


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
    RECENT_SHARE of the `n` are picked first among the lines whose case can open in the
    last OPEN_WINDOW_DAYS (with a delay of the issue's range that lands there), the rest
    among all the other lines.
    """
    first_recent = NOW.date() - timedelta(days=OPEN_WINDOW_DAYS)
    items: list[tuple[int, int, int, int]] = []
    weights: list[float] = []
    recent: list[tuple[int, int, int, int]] = []
    recent_weights: list[float] = []
    issue_weights: dict[int, list[float]] = {}
    for oi, order in enumerate(book.orders):
        if order.status != "Activated":
            continue
        for li, (product, _) in enumerate(order.items):
            p = cat.products[product]
            issue = _issue_for(r, p, issue_weights)

            def weight(delay: int) -> float:
                month = (order.day + timedelta(days=delay)).month  # noqa: B023
                return p.propensity * (PEAK_CASE_BOOST if month in p.peak else 1.0)  # noqa: B023

            lo, hi = tx.DELAYS[issue]
            delay = r.randint(lo, hi)
            items.append((oi, li, issue, delay))
            weights.append(weight(delay))
            # the last weeks also hear from customers who write late (gifts opened at
            # the holidays): up to twice the issue's usual delay
            lo = max(lo, (first_recent - order.day).days)
            hi = min(2 * hi + 10, (LAST_OPENING.date() - order.day).days)
            if lo <= hi:
                late = r.randint(lo, hi)
                recent.append((oi, li, issue, late))
                # the last weeks draw cases about what is in season (or has no season), so
                # that seasonal products keep their cases in their peak months
                in_season = not p.peak or (order.day + timedelta(days=late)).month in p.peak
                recent_weights.append(weight(late) * (1.0 if in_season else OFF_SEASON_RECENT))
    picked = weighted_sample(r, recent, recent_weights, min(round(n * RECENT_SHARE), len(recent)))
    taken = {(oi, li) for oi, li, _, _ in picked}
    weights = [w for item, w in zip(items, weights) if item[:2] not in taken]
    items = [item for item in items if item[:2] not in taken]
    rest = min(n - len(picked), len(items))
    return picked + weighted_sample(r, items, weights, rest)


def _by_type(cat: Catalog) -> dict[str, list[int]]:
    """The product indexes of each product type (by its noun), in catalogue order."""
    out: dict[str, list[int]] = {}
    for k, p in enumerate(cat.products):
        out.setdefault(p.type.noun, []).append(k)
    return out


def _wanted_instead(
    r: random.Random, cat: Catalog, by_type: dict[str, list[int]], bought: int
) -> Product:
    """A product of the same type as product `bought` (any other product if it is alone).
    `by_type` is `_by_type(cat)`: scanning the catalogue per case grew with scale squared."""
    same = [cat.products[k] for k in by_type[cat.products[bought].type.noun] if k != bought]
    return r.choice(same or [p for k, p in enumerate(cat.products) if k != bought])


def _issue_for(r: random.Random, product: Product, known: dict[int, list[float]]) -> int:
    """A case's issue for `product`; `known` keeps each product's cumulative weights (the
    draw is the same as with the weights themselves, once per order line)."""
    cum = known.get(product.index)
    if cum is None:
        w = list(tx.ISSUE_WEIGHTS[product.type.kind])
        nonzero = [i for i, x in enumerate(w) if x > 0]
        w[nonzero[product.issue_bias % len(nonzero)]] *= 4.0
        cum = known[product.index] = list(accumulate(w))
    return r.choices(range(len(cum)), cum_weights=cum)[0]


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
        # Per generalist issue, the agents (and the strong ones, who take transfers) in a
        # shuffled order, dealt one case each before anyone gets a second: whoever has the
        # fewest cases of the issue takes the next, so nobody stands out on it.
        self.decks: dict[tuple[int, bool], list[int]] = {}

    def _dealt(self, issue: int, strong: bool) -> int:
        deck = self.decks.setdefault((issue, strong), [])
        if not deck:
            pool = self.strong if strong else range(len(self.agents))
            deck.extend(self.r.sample(pool, len(pool)))
        return deck.pop()

    def first(self, issue: int) -> int:
        roll = self.r.random()
        spec = self.specialists[issue]
        if not spec:
            return self._dealt(issue, strong=False)
        if roll < 0.30:
            return spec[0]
        if roll < 0.42 and len(spec) > 1:
            return spec[1]
        return self.r.randrange(len(self.agents))

    def transfer_to(self, issue: int, current: int) -> int:
        if not self.specialists[issue]:
            for _ in range(3):
                target = self._dealt(issue, strong=True)
                if target != current:
                    return target
        for _ in range(10):
            if self.r.random() < 0.5 and self.specialists[issue]:
                target = self.r.choice(self.specialists[issue])
            else:
                target = self.r.choice(self.strong)
            if target != current:
                return target
        return (current + 1) % len(self.agents)


def _schedule(
    r: random.Random,
    start: datetime,
    end: datetime,
    n: int,
    when: Callable[[int, datetime], datetime] | None = None,
    reply_hours: float = 30.0,
) -> list[datetime]:
    """`n` ordered times in [start, end], the first a few minutes after `start`;
    `when(i, t)` moves message `i` forward to when its sender is at work or awake."""
    span = max(60.0, (end - start).total_seconds())
    first = start + timedelta(seconds=r.randint(30, 600))
    rest = sorted(r.uniform(0.05, 0.98) * span for _ in range(n - 1))
    out = [first] + [start + timedelta(seconds=s) for s in rest]
    if n > 1:  # the first answer comes within a working day or so, however long the case
        out[1] = min(out[1], first + timedelta(hours=r.uniform(0.5, reply_hours)))
    for i in range(n):  # keep them strictly increasing and at least a minute apart
        if i and out[i] <= out[i - 1]:
            out[i] = out[i - 1] + timedelta(minutes=r.randint(1, 20))
        if when is not None:
            out[i] = when(i, out[i])
    return out


def _chat_times(r: random.Random, start: datetime, n: int) -> list[datetime]:
    """The times of a chat's `n` lines, from `start`."""
    out, t = [], start
    for _ in range(n):
        t += timedelta(seconds=r.randint(15, 110))
        out.append(t)
    return out


def _after_chat(times: list[datetime], start: datetime, end: datetime) -> list[datetime]:
    """E-mail `times` with those that fall while the chat runs moved to just after it
    (nobody e-mails the person they are chatting with), kept increasing."""
    out: list[datetime] = []
    for t in times:
        if start <= t <= end:
            t = end + timedelta(minutes=6)
        if out and t <= out[-1]:
            t = out[-1] + timedelta(minutes=4)
        out.append(t)
    return out


def _act_times(
    r: random.Random, times: list[datetime], shifts: list[wt.Shift], limit: datetime
) -> list[datetime]:
    """`times` (sorted) moved into the shift of the agent acting at each, kept increasing
    and before `limit` (a time that cannot move in before `limit` stays where it was)."""
    out: list[datetime] = []
    for t, shift in zip(times, shifts):
        if out:  # after the previous hand-over
            t = max(t, out[-1] + timedelta(minutes=r.randint(5, 90)))
        moved = wt.at_work(shift, t, r)
        out.append(moved if moved < limit else t)
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
    ap = agent_phrases()
    r = rng(seed, "cases")
    # The timeline (dates, owners, durations, statuses, when each message is sent) draws
    # from its own stream, so that a change to the texts never moves a case in time or to
    # another agent (the gold answers and latent effects depend on those).
    rt = rng(seed, "case-timelines")
    router = _Router(rt, crowd, len(kb.issues))
    agents, customers = crowd.agents, crowd.customers
    drafts: list[Draft] = []
    spill = TextSpill(store.conn)
    by_type = _by_type(cat)
    order_history = descr.OrderHistory((o.customer, o.day) for o in book.orders)

    for oi, li, issue, delay in _pick_lines(r, sizes.cases, cat, book):
        order = book.orders[oi]
        line = book.line(oi, li)
        product = cat.products[line.product]
        cust = customers[order.customer]
        policy = kb.issues[issue]
        has_email = rt.random() < sizes.email_share
        has_chat = rt.random() < sizes.chat_share
        violation_kind = None
        if (has_email or has_chat) and rt.random() < VIOLATION_RATE:
            late_ok = issue in LATE_ISSUES
            violation_kind = "window" if late_ok and rt.random() < 0.55 else "not_allowed"

        # ---- when: days after the order (a window violation comes after the window)
        window: tuple[str, int] | None = None  # (resolution, its window in days)
        if violation_kind == "window":
            window = min(
                ((k, w) for k, w in policy.resolutions.items() if w is not None),
                key=lambda kw: kw[1],
            )
            delay = window[1] + rt.randint(3, 25)
        created = wt.opening_time(rt, order.day + timedelta(days=delay), cust.state)
        if created > LAST_OPENING:  # opened before the org's today, never before the order
            late = LAST_OPENING.date() - timedelta(days=rt.randint(0, 8))
            created = min(LAST_OPENING, wt.opening_time(rt, max(late, order.day), cust.state))

        # ---- who: first owner, transfers (low skill transfers more)
        owners = [router.first(issue)]
        p_transfer = 0.04 + 0.8 * (1 - agents[owners[0]].skill) ** 2
        if rt.random() < p_transfer:
            owners.append(router.transfer_to(issue, owners[0]))
            if rt.random() < 0.3 * (1 - agents[owners[-1]].skill) ** 2 + 0.03:
                owners.append(router.transfer_to(issue, owners[-1]))
        if has_chat and not has_email:  # the chat opened the case: inside chat hours
            shift = agents[owners[0]].shift
            opened = wt.chat_start(shift, created, CHAT_MINUTES, rt)
            if opened > LAST_OPENING:  # the agent's next shift is after today: an earlier one
                opened = wt.chat_start(shift, LAST_OPENING - timedelta(days=5), CHAT_MINUTES, rt)
            created = opened

        # ---- how long: issue base x skill of the closing agent x state speed x priority
        # x noise
        priority = rt.choices(("Low", "Medium", "High"), tx.PRIORITY[issue])[0]
        skill = agents[owners[-1]].skill
        hours = tx.HANDLE_HOURS[issue] * (0.4 + 1.7 * (1 - skill)) * PRIORITY_PACE[priority]
        hours *= crowd.state_speed[cust.state] * rt.lognormvariate(0, 0.45)
        hours += sum(rt.uniform(8, 40) for _ in owners[1:])
        hours = max(1.0, hours)
        # the closing agent works on it in their shifts and closes it at work
        finish = wt.after_work(agents[owners[-1]].shift, created, hours * 60 * WORK_SHARE)
        # a working queue: the younger a case, the likelier it is still open
        age = (NOW - created).total_seconds() / 86400
        open_case = (
            age < OPEN_WINDOW_DAYS
            and rt.random() < OPEN_RATE * (1 - OPEN_FADE * age / OPEN_WINDOW_DAYS)
        ) or finish > NOW
        if open_case:
            # "Open" as CRMArena's routing helper counts workload (the workload
            # rule decides only where "Open" and "not Closed" agree, so most open cases are
            # plainly Open).
            status = rt.choices(
                ("New", "Open", "Escalated"), (5, 80, 15) if len(owners) > 1 else (12, 80, 8)
            )[0]
            if status == "New" and (len(owners) > 1 or has_chat):
                status = "Open"  # a transfer or a chat is agent activity
            if status == "Escalated" and len(owners) == 1:  # escalating hands the case on
                owners.append(router.transfer_to(issue, owners[0]))
            closed = None
            # its thread goes at a closed case's pace (so first replies are as quick), and
            # stops before the org's today
            life_end = max(created + timedelta(hours=1), min(finish, NOW - QUIET_BEFORE_NOW))
        else:
            status, closed, life_end = "Closed", finish, finish
        span = (life_end - created).total_seconds()
        transfer_times = _act_times(
            rt,
            sorted(created + timedelta(seconds=rt.uniform(0.1, 0.8) * span) for _ in owners[1:]),
            [agents[a].shift for a in owners],  # the agent handing the case on acts
            life_end if closed is None else NOW,  # a closure moves after the last hand-over
        )
        if closed is not None and transfer_times and transfer_times[-1] >= closed:
            # a hand-over moved into its agent's shift came after the planned closure
            later = transfer_times[-1] + timedelta(minutes=rt.randint(10, 120))
            closed = life_end = wt.at_work(agents[owners[-1]].shift, later, rt)

        # ---- text: the customer's own style and history (descriptions.py)
        writer = descr.Customer(
            cust.first,
            cust.name,
            ws.customer_style(seed, cust.id),
            *order_history.before(order.customer, order.day),
            city=cust.city,
        )
        amount = line.price * line.quantity
        # An unavailable item is one the customer could not buy: another product of the
        # type, never the order line's own (which the case is linked to).
        about = (
            _wanted_instead(r, cat, by_type, line.product) if issue == tx.UNAVAILABLE else product
        )
        slots = descr.case_slots(
            r, about.type, about.name, order.number, order.day, created.date(), amount, COMPANY
        )
        slots["bought"] = product.name
        text = descr.compose(r, issue, slots, writer, created.date())
        subject, description, slots = text.subject, text.description, text.slots
        if URGENT.search(f"{subject}\n{description}"):  # triaged as the customer asks
            priority = "High"
        slots["full"] = cust.name
        info = r.randrange(len(ap.info[issue]))  # the clarifying question and its answer

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
        )
        j = len(drafts)
        spill.case(j, subject, description)

        # ---- communications: the agent on the case at that moment makes the offer
        def owner_at(t: datetime) -> int:  # used only within this iteration
            k = sum(1 for x in transfer_times if x <= t)  # noqa: B023
            return owners[k]  # noqa: B023

        offer_times: list[datetime] = []
        chat_times: list[datetime] = []

        def at_work_or_awake(i: int, t: datetime) -> datetime:  # the sender of e-mail i
            if i % 2:  # agents answer the customer's messages
                for _ in range(3):  # moving it may cross a transfer: then the next owner's
                    moved = wt.at_work(agents[owner_at(t)].shift, t, rt)
                    if owner_at(moved) == owner_at(t):
                        return moved
                    t = moved
                return t
            return t if i == 0 else wt.awake(t, cust.state, rt)  # noqa: B023

        chat_start: datetime | None = None
        mail_times: list[datetime] = []
        if has_chat:
            chat_start = (
                created + timedelta(minutes=rt.randint(0, 25))
                if not has_email
                else created
                + timedelta(seconds=min(rt.uniform(0.05, 0.5) * span, FIRST_REPLY_HOURS * 1800))
            )
            chat_start = wt.chat_start(
                agents[owner_at(chat_start)].shift, chat_start, CHAT_MINUTES, rt
            )
            if chat_start > NOW - timedelta(minutes=CHAT_MINUTES):  # not yet happened
                chat_start = None
        if has_email:
            n_mail = rt.choices((2, 3, 4, 5, 6, 7, 8), (8, 12, 22, 22, 16, 12, 8))[0]
            # a case still open is one the queue has on its desk: answered first, soon
            reply = FIRST_REPLY_HOURS if closed is not None else FIRST_REPLY_HOURS / 4
            mail_times = _schedule(rt, created, life_end, n_mail, at_work_or_awake, reply)
            mail_times = [t for t in mail_times if t < NOW - timedelta(minutes=30)]
        # one channel carries the offer (threads.py); open cases stop before it
        stage = {"New": em.NEW, "Closed": em.RESOLVED}.get(status, em.OPEN)
        said_order = slots["order"] in description
        plan = threads.plan(
            r,
            stage=stage,
            style=writer.style,
            mail_times=mail_times,
            chat_start=chat_start,
            said_order=said_order,
        )
        mail_times = mail_times[: len(plan.mail_steps)]
        # what follows draws as many times as the texts ask (a chat's lines, a closure
        # after the last message): from a stream of the case's own, so the next case's
        # timeline stays where it was whatever the texts of this one
        rc = random.Random(rt.getrandbits(64))
        if chat_start is not None and plan.chat_steps:
            chat_times = _chat_times(rc, chat_start, len(plan.chat_steps))
            mail_times = _after_chat(mail_times, chat_times[0], chat_times[-1])
        if (k := plan.offer_in_chat()) is not None:
            offer_times.append(chat_times[k])
        if (k := plan.offer_in_mail()) is not None:
            offer_times.append(mail_times[k])

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
                offered = r.choice([x for x in resolutions() if x not in allowed])
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
            d.violation = latent.dumps(
                {
                    "article": policy.article_id if why else None,
                    "offered": offered,
                    "why": why
                    or f"{offered} is allowed for {policy.name} at {last_days} days after purchase",
                }
            )
            lead = "" if why else ws.vary(r, tx.pick(r, ap.in_window))
            offer = ws.vary(r, tx.pick(r, ap.offers[offered])).format_map(slots)
            slots["offer"] = tx.with_lead(lead, offer)
            slots["offered"] = offered

        chat: list[tuple[datetime, bool, str]] = []
        mails: list[tuple[datetime, bool, str]] = []
        if chat_times:
            owner = owner_at(chat_times[0])
            if "declined_offer" in plan.chat_steps:
                days = (chat_times[-1].date() - order.day).days
                declined = _declinable(r, policy.resolutions, slots.get("offered"), days)
                if declined is None:
                    plan.without_decline()
                    chat_times = chat_times[: len(plan.chat_steps)]
                else:
                    slots["declined"] = ws.vary(r, tx.pick(r, ap.offers[declined])).format_map(
                        slots
                    )
            before = [
                s in em.AGENT_STEPS
                for t, s in zip(mail_times, plan.mail_steps)
                if t < chat_times[0]
            ]
            mailed = (not all(before), any(before)) if before else (False, False)
            chat = _chat_lines(
                r, plan.chat_steps, chat_times, agents[owner], text, writer, (info, mailed), seed
            )
            d.chat_end, d.chat_owner = chat[-1][0], owner
            spill.chat(j, _chat_body(chat, agents[owner], cust))
        if mail_times:
            mails = _emails(
                r,
                plan.mail_steps,
                mail_times,
                text,
                writer,
                info,
                owner_at,
                agents,
                seed,
                chat[-1][0] if chat else None,
            )
            _spill_mails(spill, j, d, mails, subject, agents, cust)
        if status == "Closed" and (mails or chat):  # closed after the last message, at work
            last = max([t for t, _, _ in mails] + [t for t, _, _ in chat])
            if d.closed is not None and last >= d.closed:
                later = last + timedelta(minutes=rc.randint(5, 120))
                d.closed = wt.at_work(agents[owners[-1]].shift, later, rc)
                if d.closed > NOW:  # closed before the org's today all the same
                    d.closed = min(later, NOW - timedelta(minutes=10))
        drafts.append(d)

    # Every customer's and agent's style is known again from the seed: keep none of them
    # (at scale 100, tens of MiB) through the writing and the org's indexing.
    ws.customer_style.cache_clear()
    ws.agent_voice.cache_clear()
    return _write(store, seed, drafts, spill, crowd, book, kb)


CHAT_MINUTES = 60  # room for a whole chat inside the chat hours and the agent's shift


def _chat_lines(
    r: random.Random,
    steps: list[str],
    times: list[datetime],
    agent: Agent,
    text: descr.CaseText,
    writer: descr.Customer,
    info_mailed: tuple[int, tuple[bool, bool]],
    seed: int,
) -> list[tuple[datetime, bool, str]]:
    """The chat's lines (chats.py), one per step and time; `info_mailed` is the clarifying
    question and whether the customer, and an agent, e-mailed before the chat."""
    info, (mailed, answered) = info_mailed
    slots = text.slots
    voice = ws.agent_voice(seed, agent.id, agent.name, COMPANY)
    voices = chats.ChatVoices(
        slots=dict(slots, agent_first=agent.name.split()[0]),
        style=writer.style,
        issue=text.issue,
        info=info,
        offered=slots.get("offered"),
        offer_text=slots.get("offer", ""),
        declined_text=slots.get("declined", ""),
        problem=text.problem,
        more=text.more,
        agent_words=voice.words,
        mailed_before=mailed,
        answered_before=answered,
    )
    zone = agent.shift.zone
    return [
        (t, a, fit_time(line, wt.to_local(t, zone)) if a else line)
        for t, (a, line) in zip(times, chats.chat_lines(r, steps, voices))
    ]


def _emails(
    r: random.Random,
    steps: list[str],
    times: list[datetime],
    text: descr.CaseText,
    writer: descr.Customer,
    info: int,
    owner_at: Callable[[datetime], int],
    agents: list[Agent],
    seed: int,
    chat_end: datetime | None,
) -> list[tuple[datetime, bool, str]]:
    """The e-mails (emails.py), one per step and time, each agent in their own voice; a
    nudge soon after an agent's e-mail or the chat (ended at `chat_end`) chases nothing."""
    quiet = timedelta(hours=em.CHASE_AFTER_HOURS)
    answered = frozenset(
        i
        for i, step in enumerate(steps)
        if step == "nudge"
        and (
            any(
                s in em.AGENT_STEPS and times[i] - quiet < t < times[i]
                for s, t in zip(steps[:i], times)
            )
            or (chat_end is not None and times[i] - quiet < chat_end < times[i])
        )
    )
    voices = em.ThreadVoices(
        slots=text.slots,
        style=writer.style,
        issue=text.issue,
        info=info,
        description=text.description,
        offer_text=text.slots.get("offer", ""),
        offered=text.slots.get("offered"),
        answered=answered,
    )

    def voice_of(i: int) -> ws.AgentVoice:
        agent = agents[owner_at(times[i])]
        return ws.agent_voice(seed, agent.id, agent.name, COMPANY)

    bodies = em.email_bodies(r, steps, voice_of, voices)
    return [
        (t, a, fit_time(body, wt.to_local(t, agents[owner_at(t)].shift.zone)) if a else body)
        for t, (a, body) in zip(times, bodies)
    ]


def _declinable(
    r: random.Random, allowed: dict[str, int | None], offered: str | None, days: int
) -> str | None:
    """A first offer the customer may decline: one the policy allows at `days` after the
    purchase (so declining it adds no violation), other than the one finally offered."""
    others = [k for k, w in allowed.items() if k != offered and (w is None or days + 1 <= w)]
    return r.choice(others) if others and offered else None


def _chat_body(lines: list[tuple[datetime, bool, str]], agent: Agent, cust: Customer) -> str:
    """A transcript's Body: one line per message, with its time and who wrote it."""
    return "\n".join(
        f"[{t:%Y-%m-%dT%H:%M:%S}] {agent.name if a else cust.name} "
        f"({'Agent' if a else 'Customer'}): {text}"
        for t, a, text in lines
    )


def _spill_mails(
    spill: TextSpill,
    j: int,
    d: Draft,
    mails: list[tuple[datetime, bool, str]],
    subject: str,
    agents: list[Agent],
    cust: Customer,
) -> None:
    """Set draft `j`'s e-mails aside as their rows will read (all but Id and ParentId)."""
    for i, (t, is_agent, body) in enumerate(mails):
        agent = agents[_owner_at(d, t)]
        spill.mail(
            j,
            i,
            t,
            subject if i == 0 else f"Re: {subject}",
            body,
            agent.email if is_agent else cust.email,
            cust.email if is_agent else agent.email,
            cust.contact_id if is_agent else agent.id,
            format_datetime(t),
        )


def _write(
    store: OrgStore,
    seed: int,
    drafts: list[Draft],
    spill: TextSpill,
    crowd: People,
    book: OrderBook,
    kb: KnowledgeBase,
) -> dict[str, int]:
    r = rng(seed, "cases-write")
    agents, customers = crowd.agents, crowd.customers
    ranked = sorted(
        range(len(drafts)), key=lambda j: (drafts[j].created, drafts[j].order, drafts[j].line)
    )
    spill.rank(ranked)
    case_id = IdMaker("Case")
    case_ids: list[str] = []
    # (time, order within the case, case Id, field, old value, new value)
    history: list[tuple[datetime, int, str, str, str | None, str | None]] = []
    chats: list[tuple[datetime, str, Customer, str, int]] = []  # (end, case Id, ..., draft)
    lat: list[tuple[str, str, str, str]] = []
    for j in ranked:
        d = drafts[j]
        cust = customers[book.orders[d.order].customer]
        cid = case_id()
        case_ids.append(cid)
        history.append((d.created, 0, cid, "Case Creation", None, None))
        history.append((d.created, 1, cid, "Owner Assignment", None, agents[d.owners[0]].id))
        for t, old, new in zip(d.transfer_times, d.owners, d.owners[1:]):
            history.append((t, 2, cid, "Owner Assignment", agents[old].id, agents[new].id))
        if d.closed:
            history.append((d.closed, 3, cid, "Case Closed", None, None))
        if d.chat_end is not None:
            end = d.chat_end + timedelta(seconds=r.randint(10, 90))
            chats.append((end, cid, cust, agents[d.chat_owner].id, j))
        if d.violation is not None:
            lat.append(("Case", cid, latent.CASE_POLICY_VIOLATION[1], d.violation))

    def case_rows() -> Iterator[dict[str, object]]:
        texts = spill.cases()
        for k, (j, (subject, description)) in enumerate(zip(ranked, texts)):
            d = drafts[j]
            order = book.orders[d.order]
            cust = customers[order.customer]
            yield {
                "Id": case_ids[k],
                "CaseNumber": f"{1001 + k:08d}",
                "Subject": subject,
                "Description": description,
                "Status": d.status,
                "Priority": d.priority,
                "ContactId": cust.contact_id,
                "AccountId": cust.id,
                "OwnerId": agents[d.owners[-1]].id,
                "CreatedDate": format_datetime(d.created),
                "ClosedDate": format_datetime(d.closed) if d.closed else None,
                "OrderItemId__c": book.line(d.order, d.line).id,
                "IssueId__c": kb.issues[d.issue].id,
            }

    n_cases = store.insert("Case", case_rows())

    history.sort(key=lambda h: (h[0], h[2], h[1]))
    hist_id = IdMaker("CaseHistory__c")
    store.insert_tuples(
        "CaseHistory__c",
        ("Id", "Name", "CaseId__c", "Field__c", "OldValue__c", "NewValue__c", "CreatedDate"),
        (
            (hist_id(), f"CH-{i + 1:06d}", cid, f, old, new, format_datetime(t))
            for i, (t, _, cid, f, old, new) in enumerate(history)
        ),
    )

    mail_id = IdMaker("EmailMessage")
    n_mails = store.insert_tuples(
        "EmailMessage",
        (
            "Id",
            "Subject",
            "TextBody",
            "ParentId",
            "FromAddress",
            "ToAddress",
            "ToIds",
            "MessageDate",
        ),
        (
            (mail_id(), subj, body, case_ids[k], frm, to, to_id, date)
            for k, subj, body, frm, to, to_id, date in spill.mails()
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
                "Body": spill.chat_body(j),
                "EndTime": format_datetime(end),
                "LiveChatVisitorId": make_id("571", i + 1),
            }
            for i, (end, cid, cust, owner, j) in enumerate(chats)
        ),
    )
    spill.close()
    store.set_latent(lat)
    return {
        "Case": n_cases,
        "CaseHistory__c": len(history),
        "EmailMessage": n_mails,
        "LiveChatTranscript": len(chats),
    }


def _owner_at(d: Draft, t: datetime) -> int:
    return d.owners[sum(1 for x in d.transfer_times if x <= t)]
