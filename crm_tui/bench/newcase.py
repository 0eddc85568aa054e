"""Compose the subject and description of a new case for case routing (NCR).

CRMArena's routing questions describe a case that does not exist yet, so the text must
not be copied from a case in the org (a solver could find that case and its owner). It is
composed from the issue, the product and an invented order, with the org generator's own
phrasings (`org.generate.texts`), and rejected if it equals an existing case's description.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

from crm_tui.org.generate import texts as tx
from crm_tui.org.generate.cases import ONCE
from crm_tui.org.generate.common import COMPANY
from crm_tui.org.generate.data import ACCESSORY, TYPES, ProductType
from crm_tui.org.generate.kbtexts import POLICIES
from crm_tui.org.generate.products import grammar

ISSUE_INDEX = {str(policy["issue"]): i for i, policy in enumerate(POLICIES)}
# For an org whose issues are not the generator's (a hand-built one): the issue's own name.
OTHER_SUBJECTS = ("{issue} with my {product}", "{issue}: {product}", "{issue} on order {order}")
OTHER_CORES = (
    "I ordered the {product} on {date} and I have a problem with {it}: {issue_lower}.",
    "My order {order} for the {product} has an issue ({issue_lower}).",
    "I'm writing about the {product} from order {order}: {issue_lower}.",
)
# Longest type noun first, so "Trail Running Shoes" wins over "Running Shoes".
NOUNS = sorted(TYPES, key=lambda t: -len(t.noun))


def product_type(product_name: str) -> ProductType | None:
    """The product type a product's name ends with ("<line> <type noun>")."""
    return next((t for t in NOUNS if product_name.endswith(t.noun)), None)


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
    issue = ISSUE_INDEX.get(issue_name)
    kind = product_type(product_name) or _any_type(product_name)
    lo, hi = tx.DELAYS[issue] if issue is not None else (1, 20)
    ordered = today - timedelta(days=rng.randint(lo, hi))
    slots = grammar(kind.plural) | {
        "product": product_name,
        "short": kind.noun.lower(),
        "order": f"#{order_number}",
        "date": f"{ordered:%B} {ordered.day}, {ordered.year}",
        "direction": rng.choice(("smaller", "larger")),
        "tight": rng.choice(("tight", "loose", "short", "long")),
        "wrong": rng.choice(tx.WRONG_ITEMS),
        "occasion": rng.choice(tx.OCCASIONS),
        "company": COMPANY,
        "promo": rng.choice(tx.PROMOS),
        "amount": f"${rng.uniform(*kind.price):,.2f}",
        "relative": rng.choice(tx.RELATIVES),
        "points": f"{rng.randrange(500, 6000, 50):,}",
        "it_is": "they're" if kind.plural else "it's",
        "issue": issue_name,
        "issue_lower": issue_name.lower(),
    }
    sizes = tx.SIZES.get(kind.kind, ("size S", "size M", "size L"))
    slots["size"], slots["other"] = rng.sample(sizes, 2)
    slots["defect"] = tx.fill(rng.choice(tx.DEFECTS[kind.kind]), slots)
    subjects, cores = (
        (tx.SUBJECTS[issue], tx.CORES[issue])
        if issue is not None
        else (OTHER_SUBJECTS, OTHER_CORES)
    )
    subject = tx.fill(rng.choice(subjects), slots)
    first = rng.choice(cores)
    parts = [tx.fill(first, slots)]
    # A second sentence about the same problem, as customers add, not repeating a detail.
    used = [k for k in ONCE if "{" + k + "}" in first]
    others = [c for c in cores if c != first and not any("{" + k + "}" in c for k in used)]
    if others and rng.random() < 0.5:
        parts.append(tx.fill(rng.choice(others), slots | {"product": slots["short"]}))
    parts += [tx.fill(rng.choice(tx.DETAILS), slots), rng.choice(tx.ASKS)]
    return subject, " ".join(p for p in parts if p)
