"""A case's subject and description, in its customer's own style.

A description is the customer's account: sometimes an opening line, one or two sentences
about the problem (with details of this product and order), details from the customer's
history or situation that fit the issue (only a customer of two years or more says so; only
a delivery problem mentions the neighbours), then an ask in the customer's tone. Every slot
has many phrasings (`[a|b]` alternatives, see `writing_style.vary`), so no closing sentence
set or 8-word run marks the texts as templated.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from crm_tui.org.generate import texts as tx
from crm_tui.org.generate.assortment import FOOTWEAR, ProductType
from crm_tui.org.generate.defects import defects_for
from crm_tui.org.generate.description_phrases import description_phrases
from crm_tui.org.generate.products import grammar
from crm_tui.org.generate.writing_style import CustomerStyle, vary

# Slots a second core sentence must not repeat.
ONCE = ("defect", "wrong", "order", "date", "promo", "size", "amount", "occasion", "days")
# Seasonal promo codes and the months they run in; the others run all year.
PROMO_MONTHS: dict[str, tuple[int, ...]] = {
    "SPRING20": (3, 4, 5),
    "SUMMER15": (6, 7, 8),
    "BFRIDAY30": (11,),
    "HOLIDAY25": (11, 12),
    "NEWYEAR20": (1,),
    "BACK2SCHOOL": (8, 9),
}
ALL_YEAR_PROMOS = ("SAVE15", "WELCOME10", "FREESHIP", "RUN10", "TEAM20", "EXTRA10")


@dataclass
class Customer:
    """What a description may say about its writer."""

    first: str
    full: str
    style: CustomerStyle
    since: date | None  # the day of their first order (None: unknown)
    orders_before: int  # orders placed before this one
    city: str = ""


@dataclass
class CaseText:
    issue: int
    subject: str
    description: str
    problem: str  # the sentence about the problem, as the customer wrote it
    more: str  # another sentence of the description ("" if none), for a chat
    slots: dict[str, str] = field(default_factory=dict)


def promo_for(r: random.Random, day: date) -> str:
    """A promo code that was running on `day`."""
    seasonal = [code for code, months in PROMO_MONTHS.items() if day.month in months]
    return r.choice(seasonal + list(ALL_YEAR_PROMOS))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def date_said(r: random.Random, day: date) -> str:
    """`day` as people write a date, in one of the usual ways."""
    month, d = f"{day:%B}", day.day
    return r.choice(
        (
            f"{month} {d}, {day.year}",
            f"{month} {d}",
            f"{month} {_ordinal(d)}",
            f"{d} {month}",
            f"the {_ordinal(d)} of {month}",
            f"{day.month}/{d}",
            f"{day.month}/{d}/{day.year}",
            f"{day:%b} {d}",
        )
    )


def case_slots(
    r: random.Random,
    product_type: ProductType,
    product_name: str,
    order_number: str,
    ordered: date,
    created: date,
    amount: float,
    company: str,
) -> dict[str, str]:
    """The values texts about this case may use."""
    slots = grammar(product_type.plural)
    slots["it_is"] = "they're" if product_type.plural else "it's"
    days = max(1, (created - ordered).days)
    pool = tx.SIZES.get(product_type.kind, ("size S", "size M", "size L"))
    size, other = r.sample(pool, 2)
    slots.update(
        {
            "product": product_name,
            "short": product_type.noun.lower(),
            "order": f"#{order_number}",
            "date": date_said(r, ordered),
            "month": f"{ordered:%B}",
            "days": f"{days} day{'s' if days > 1 else ''}",
            "weeks": f"{max(1, days // 7)} week{'s' if days >= 14 else ''}",
            "direction": r.choice(("smaller", "larger")),
            "tight": r.choice(("tight", "loose", "short", "long")),
            "wrong": vary(r, r.choice(tx.WRONG_ITEMS)),
            "occasion": r.choice(
                tx.ANY_OCCASIONS + tx.CATEGORY_OCCASIONS.get(product_type.category, ())
            ),
            "company": company,
            "promo": promo_for(r, ordered),
            "amount": f"${amount:,.2f}",
            "relative": r.choice(tx.RELATIVES),
            "relname": r.choice(tx.RELATIVE_NAMES),
            "points": f"{r.randrange(500, 6000, 50):,}",
            "card": f"{r.randint(0, 9999):04d}",
            "size": size,
            "other": other,
            "use": r.choice(product_type.uses or ("everyday use",)),  # a hand-built org's
            "wore": "worn" if product_type.kind in (FOOTWEAR, "apparel") else "used",
            "carrier": r.choice(("UPS", "FedEx", "USPS", "DHL")),
            "bought": product_type.noun,  # what the order line holds (cases name it)
        }
    )
    defect = vary(r, r.choice(defects_for(product_type))).format_map(slots)
    slots["defect"] = defect
    slots["defect_cap"] = defect[:1].upper() + defect[1:]
    return slots


def compose(
    r: random.Random,
    issue: int,
    slots: dict[str, str],
    customer: Customer,
    created: date,
) -> CaseText:
    """Subject and description of a case about `issue`, written by `customer`."""
    style = customer.style
    slots = dict(
        slots,
        first=customer.first,
        city=customer.city or "town",
        orders=str(customer.orders_before),
        since=f"{customer.since:%B %Y}" if customer.since else "last year",
    )
    phrases = description_phrases()
    subject = vary(r, r.choice(phrases.subjects[issue])).format_map(slots)
    if style.tone == "annoyed" and r.random() < 0.25:
        subject = vary(r, r.choice(phrases.subject_prefixes)) + subject
    if style.lower:
        subject = subject.lower()

    parts: list[str] = []
    opened = style.length > 0 and r.random() < 0.3
    if opened:
        parts.append(vary(r, r.choice(phrases.openers)).format_map(slots))
    first = r.choice([c for c in phrases.cores[issue] if "{product}" in c])  # names the product
    parts.append(vary(r, first).format_map(slots))
    # "{defect" also catches "{defect_cap}": a detail is told once
    used = {k for k in ONCE if "{" + k in first}
    others = [c for c in phrases.cores[issue] if c != first and not any("{" + k in c for k in used)]
    if others and r.random() < (0.25, 0.5, 0.75)[style.length]:
        parts.append(
            vary(r, r.choice(others)).format_map(
                # the wanted item keeps its name: the order line holds another of its type
                slots if issue == tx.UNAVAILABLE else dict(slots, product=slots["short"])
            )
        )
    extras = _extras(issue, customer, created)
    for _ in range(min(len(extras), r.choice(((0, 0, 1), (0, 1, 1), (1, 1, 2))[style.length]))):
        extra = extras.pop(r.randrange(len(extras)))
        parts.append(vary(r, extra).format_map(slots))
    if r.random() < 0.12:
        parts.append(vary(r, r.choice(phrases.generic_extras)).format_map(slots))
    if r.random() >= {"polite": 0.15, "plain": 0.3, "curt": 0.5}.get(style.tone, 0.2):
        parts.append(vary(r, r.choice(phrases.asks[style.tone])).format_map(slots))
    core = parts[1] if opened else parts[0]
    rest = parts[2 if opened else 1 :]
    more = style.polish(r, rest[r.randrange(len(rest))]) if rest else ""
    text = " ".join(p for p in parts if p)
    return CaseText(issue, subject, style.polish(r, text), style.polish(r, core), more, slots)


def _extras(issue: int, customer: Customer, created: date) -> list[str]:
    """Optional sentences that fit this issue and this customer's history."""
    out = [e for issues, e in description_phrases().extras if not issues or issue in issues]
    years = (created - customer.since).days / 365.25 if customer.since else 0.0
    if years >= 2:
        out.append(
            f"[I've been [ordering from|shopping with|a customer of|buying from] [you|{{company}}] "
            f"since {customer.since.year if customer.since else ''}|I've [shopped|ordered] "
            "[here|with you] for [years|a good few years|a long time] now|[My first order with "
            "you was|I started ordering with you] [back |]in "
            f"{customer.since.year if customer.since else ''}]"
            "[ and this is the first time anything like this has happened| and never had a "
            "problem before|, so I know this isn't normal for you| and I've always been happy|"
            ", and [nothing like this has|this hasn't] happened before| without a single "
            "complaint until now|]."
        )
    elif customer.orders_before == 0:
        out.append(
            "[This was my first order with you|I'm a new customer|First time ordering here]"
            "[, so not a great start|, so I'm not sure how this usually works| and I was hoping "
            "for better|]."
        )
    elif customer.orders_before >= 2:
        out.append(
            "I've ordered from you [a few|several|{orders}] times [this year|recently|since "
            "{since}] [without any trouble|and it's always been fine until now|with no issues]."
        )
    if customer.style.tone == "annoyed":
        out.append(
            "[Honestly|To be honest|Frankly], [this is|I find this] [really|pretty|very] "
            "[frustrating|disappointing|annoying][.|!]"
        )
    return out


class OrderHistory:
    """Each customer's order days, to say what a customer may claim about their history."""

    def __init__(self, orders: Iterable[tuple[int, date]]):
        self.days: dict[int, list[date]] = {}
        for customer, day in orders:
            self.days.setdefault(customer, []).append(day)
        for days in self.days.values():
            days.sort()

    def before(self, customer: int, day: date) -> tuple[date | None, int]:
        """(first order day, number of orders placed before `day`)."""
        days = self.days.get(customer, [])
        return (days[0] if days else None), bisect_left(days, day)
