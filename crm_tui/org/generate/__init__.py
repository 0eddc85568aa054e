"""The synthetic org generator, split by subject.

`build(store, seed, scale, progress)` fills an empty `OrgStore` and returns the number
of rows per object. Every stage draws from its own `random.Random` stream derived from
the seed (`streams.rng(seed, "stage")`), never from global state or the wall clock, so
the same seed always yields the same org.

Stages, in dependency order (latent variables in brackets, stored in `_latent`):

- `people`    Users [skill], Accounts [shopping habit], Contacts; [state closure speed]
- `products`  ProductCategory, Product2 [issue propensity, peak months, nicknames],
              ProductCategoryProduct, Pricebook2, PricebookEntry
- `orders`    Order, OrderItem (dates cluster in each customer's holiday seasons)
- `knowledge` Issue__c, Knowledge__kav [policy, QA pairs, issue -> policy article]
- `cases`     Case, CaseHistory__c, EmailMessage, LiveChatTranscript [policy violation]
- `sales`     (B2B orgs only) Territory2, UserTerritory2Association, Lead, Opportunity and
              its line items, Quote, QuoteLineItem, Contract, Order, VoiceCallTranscript__c,
              Task, Event, sales knowledge articles [conversion skill, cycle speed,
              territory strength, seasonality, BANT gaps, quote violations]
- `knowledge.build_internal` internal-only Knowledge__kav articles, numbered after all
              others [their QA pairs]
"""

from __future__ import annotations

from collections.abc import Callable

from crm_tui.org.generate.common import Sizes
from crm_tui.org.store.orgstore import OrgStore

Progress = Callable[[float, str], None]


def build(
    store: OrgStore, seed: int, scale: float, progress: Progress | None = None, kind: str = "b2c"
) -> dict[str, int]:
    """Generate every object into `store`; returns rows written per object."""
    # Imported here: the task generator imports the text composers of this package and
    # must not pay for the stages (Faker among them).
    from crm_tui.org.generate import cases, knowledge, orders, people, products

    def step(fraction: float, label: str) -> None:
        if progress is not None:
            progress(fraction, label)

    sizes = Sizes.for_scale(scale)
    counts: dict[str, int] = {}

    step(0.02, "agents and customers")
    crowd = people.build(store, seed, sizes)
    counts.update(crowd.counts)

    step(0.10, "product catalogue")
    cat = products.build(store, seed, sizes)
    counts.update(cat.counts)

    step(0.35, "orders")
    book = orders.build(store, seed, sizes, crowd, cat)
    counts.update(book.counts)

    step(0.50, "issues and knowledge articles")
    kb = knowledge.build(store, seed, cat)
    counts.update(kb.counts)

    step(0.60, "cases, e-mails and chats")
    counts.update(cases.build(store, seed, sizes, crowd, cat, book, kb))
    if kind == "b2b":
        from crm_tui.org.generate import sales

        step(0.80, "leads, opportunities, quotes and contracts")
        for name, n in sales.build(store, seed, sizes, crowd, cat, book, kb).items():
            counts[name] = counts.get(name, 0) + n
        # Salesforce computes an order line's TotalPrice; here every line's, at once.
        store.conn.execute("UPDATE OrderItem SET TotalPrice = round(Quantity * UnitPrice, 2)")
    step(0.85, "internal-only knowledge articles")
    for name, n in knowledge.build_internal(store, seed).items():
        counts[name] = counts.get(name, 0) + n
    step(0.90, "indexing")
    return counts
