"""Compose the subject and description of a new case for case routing (NCR).

CRMArena's routing questions describe a case that does not exist yet, so the text must
not be copied from a case in the org (a solver could find that case and its owner). It is
composed from the issue, the product and an invented order by the org generator's own
composer (`org.generate.descriptions`, in the style of an invented customer), and rejected
if it equals an existing case's description.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from functools import cache

from crm_tui.org.generate import descriptions as descr
from crm_tui.org.generate import texts as tx
from crm_tui.org.generate import writing_style as ws
from crm_tui.org.generate.assortment import ACCESSORY, ProductType, assortment
from crm_tui.org.generate.common import COMPANY
from crm_tui.org.generate.kbtexts import kbtexts

# For an org whose issues are not the generator's (a hand-built one): the issue's own name.
OTHER_SUBJECTS = ("{issue} with my {product}", "{issue}: {product}", "{issue} on order {order}")
OTHER_CORES = (
    "I ordered the {product} on {date} and I have a problem with {it}: {issue_lower}.",
    "My order {order} for the {product} has an issue ({issue_lower}).",
    "I'm writing about the {product} from order {order}: {issue_lower}.",
)


@cache
def _issue_index() -> dict[str, int]:
    return {policy["issue"]: i for i, policy in enumerate(kbtexts().policies)}


@cache
def _longest_first() -> tuple[ProductType, ...]:
    """Longest type noun first, so "Trail Running Shoes" wins over "Running Shoes"."""
    return tuple(sorted(assortment().types, key=lambda t: -len(t.noun)))


def product_type(product_name: str) -> ProductType | None:
    """The product type a product's name ends with ("<line> <type noun>")."""
    return next((t for t in _longest_first() if product_name.endswith(t.noun)), None)


def _any_type(product_name: str) -> ProductType:
    """A stand-in type for a product the generator did not name: its last word as noun."""
    noun = product_name.split()[-1] if product_name.split() else "item"
    return ProductType(
        noun=noun,
        category=0,
        also=(),
        kind=ACCESSORY,
        price=(20, 200),
        gender="",
        adjs=(),
        features=(),
        materials=(),
        uses=(),
        peak=(),
    )


def compose_case(
    rng: random.Random, issue_name: str, product_name: str, order_number: str, today: date
) -> tuple[str, str]:
    """(subject, description) of a new case about the issue and product."""
    issue = _issue_index().get(issue_name)
    kind = product_type(product_name) or _any_type(product_name)
    lo, hi = tx.DELAYS[issue] if issue is not None else (1, 20)
    ordered = today - timedelta(days=rng.randint(lo, hi))
    amount = rng.uniform(*kind.price)
    slots = descr.case_slots(rng, kind, product_name, order_number, ordered, today, amount, COMPANY)
    if issue is not None:  # in the style of some customer, as the generator writes
        style = ws.customer_style(rng.randrange(1 << 30), "new-case")
        writer = descr.Customer("", "", style, None, rng.randint(0, 3))
        text = descr.compose(rng, issue, slots, writer, today)
        return text.subject, text.description
    slots |= {"issue": issue_name, "issue_lower": issue_name.lower()}
    subject = rng.choice(OTHER_SUBJECTS).format_map(slots)
    description = rng.choice(OTHER_CORES).format_map(slots)
    return subject, description
