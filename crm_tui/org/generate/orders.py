"""Orders and order items, shaped by each customer's shopping habit.

Most of a customer's orders fall on the holiday seasons of their habit (Black Friday,
Christmas, back to school, ...) and most items come from their preferred categories;
seasonal products sell more in their peak months.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import accumulate

from crm_tui.org.generate.assortment import assortment
from crm_tui.org.generate.common import (
    LAST_ORDER,
    SEASONS,
    START,
    IdMaker,
    Sizes,
    fast_id,
    rng,
    season_days,
)
from crm_tui.org.generate.people import People
from crm_tui.org.generate.products import Catalog, price_in_book
from crm_tui.org.schema.catalogue import get_object
from crm_tui.org.schema.sftime import format_date
from crm_tui.org.store.orgstore import OrgStore

ITEM_COUNTS = (1, 2, 3, 4, 5, 6, 7, 8)
ITEM_WEIGHTS = (17, 20, 20, 16, 12, 8, 4, 3)  # mean about 3.4 lines per order
PEAK_BOOST = 3.0
_ITEM_PREFIX = get_object("OrderItem").key_prefix
ITEM_COLUMNS = (
    "Id",
    "OrderItemNumber",
    "OrderId",
    "Product2Id",
    "Quantity",
    "UnitPrice",
    "PricebookEntryId",
)


@dataclass(slots=True)
class Line:
    """An order line, made on demand by `OrderBook.line`."""

    id: str
    product: int  # product index
    quantity: int
    price: float


# An org at scale 100 keeps ~700,000 lines and 200,000 orders until its cases are written:
# an order keeps only what cannot be derived (its Id, number, line Ids and prices follow
# from its rank, its first line's number and its price book), in slots.
@dataclass(slots=True)
class Order:
    rank: int  # place in OrderNumber (and Id) order, from 0
    customer: int  # index into People.customers
    day: date
    book: int  # price book index
    status: str
    first_item: int  # the OrderItem number (1, 2, ...) of its first line
    items: list[tuple[int, int]]  # (product index, quantity) per line

    @property
    def number(self) -> str:
        return f"{self.rank + 101:08d}"


@dataclass
class OrderBook:
    orders: list[Order]
    counts: dict[str, int]
    catalog: Catalog

    def line(self, order: int, line: int) -> Line:
        """Line `line` of order `order`, as its OrderItem row has it."""
        o = self.orders[order]
        product, quantity = o.items[line]
        price = price_in_book(
            self.catalog.products[product].price, self.catalog.pricebooks[o.book].factor
        )
        return Line(fast_id(_ITEM_PREFIX, o.first_item + line), product, quantity, price)


class _Picker:
    """Weighted product choice per (month, category), precomputed once."""

    def __init__(self, cat: Catalog):
        self.by_key: dict[tuple[int, int], tuple[list[int], list[float]]] = {}
        for month in range(1, 13):
            for c in range(-1, len(assortment().categories)):
                idx = [p.index for p in cat.products if c == -1 or c in p.categories]
                w = [
                    cat.products[i].popularity
                    * (PEAK_BOOST if month in cat.products[i].peak else 1.0)
                    for i in idx
                ]
                if idx:
                    self.by_key[(month, c)] = (idx, list(accumulate(w)))

    def pick(self, r: random.Random, month: int, category: int) -> int:
        idx, cum = self.by_key.get((month, category)) or self.by_key[(month, -1)]
        return r.choices(idx, cum_weights=cum)[0]


def _order_day(
    r: random.Random, seasons: list[str], share: float, days: dict[str, list[date]], span: int
) -> date:
    if seasons and r.random() < share:
        return r.choice(days[r.choice(seasons)])
    return START + timedelta(days=r.randrange(span))


def _books_on(cat: Catalog, day: date) -> tuple[list[int], list[int]]:
    """The promotion books valid on `day` and the other channel books (indexes)."""
    promos = [
        b.index
        for b in cat.pricebooks
        if b.promo and b.valid_from.date() <= day <= b.valid_to.date()
    ]
    others = [
        b.index
        for b in cat.pricebooks
        if not b.promo
        and b.index > 0
        and b.valid_from.date() <= day <= b.valid_to.date()
        and b.name.split()[0] in ("Loyalty", "Marketplace", "Outlet", "Clearance")
    ]
    return promos, others


def _book_for(r: random.Random, books_on: tuple[list[int], list[int]]) -> int:
    """The price book of an order, given `_books_on` its day."""
    promos, others = books_on
    if promos and r.random() < 0.85:
        return promos[0]
    if others and r.random() < 0.2:
        return r.choice(others)
    return 0


def build(store: OrgStore, seed: int, sizes: Sizes, crowd: People, cat: Catalog) -> OrderBook:
    r = rng(seed, "orders")
    customers = crowd.customers
    picker = _Picker(cat)
    days = {name: season_days(name) for name in SEASONS}
    span = (LAST_ORDER - START).days + 1

    # Orders per customer: one at least, the rest by activity.
    per_customer = [1] * len(customers)
    extra = max(0, sizes.orders - len(customers))
    weights = list(accumulate(c.activity for c in customers))
    for i in r.choices(range(len(customers)), cum_weights=weights, k=extra):
        per_customer[i] += 1

    drafts: list[tuple[date, int, int, list[tuple[int, int]]]] = []
    books_on: dict[date, tuple[list[int], list[int]]] = {}
    for ci, cust in enumerate(customers):
        for _ in range(per_customer[ci]):
            day = _order_day(r, cust.seasons, cust.season_share, days, span)
            if day not in books_on:  # the same for every order of a day
                books_on[day] = _books_on(cat, day)
            book = _book_for(r, books_on[day])
            n_lines = r.choices(ITEM_COUNTS, ITEM_WEIGHTS)[0]
            chosen: list[tuple[int, int]] = []
            seen: set[int] = set()
            for _ in range(n_lines * 3):
                if len(chosen) >= n_lines:
                    break
                category = r.choice(cust.categories) if r.random() < 0.7 else -1
                p = picker.pick(r, day.month, category)
                if p in seen:
                    continue
                seen.add(p)
                qty = r.choices((1, 2, 3, 4), (80, 14, 4, 2))[0]
                chosen.append((p, qty))
            drafts.append((day, ci, book, chosen))

    # Ids and numbers follow the order date, as an org's auto-numbers would.
    drafts.sort(key=lambda d: (d[0], d[1]))
    order_id, item_id = IdMaker("Order"), IdMaker("OrderItem")
    orders: list[Order] = []

    def item_rows() -> Iterator[tuple[object, ...]]:
        # Yielded to the store as they are made (never a list of every row: at scale 100
        # that list alone is hundreds of MiB); `orders` fills up on the way.
        item_no = 0
        for k, (day, ci, book, chosen) in enumerate(drafts):
            status = "Draft" if (LAST_ORDER - day).days < 6 and r.random() < 0.4 else "Activated"
            order = Order(k, ci, day, book, status, item_no + 1, chosen)
            oid = order_id()
            for p, qty in chosen:
                entry, price = cat.entry(book, p)
                item_no += 1
                yield (
                    item_id(),
                    f"{item_no:010d}",
                    oid,
                    cat.products[p].id,
                    qty,
                    price,
                    entry,
                )
            orders.append(order)

    items = store.insert_tuples("OrderItem", ITEM_COLUMNS, item_rows())
    del drafts[:]
    store.insert(
        "Order",
        (
            {
                "Id": fast_id(order_id.prefix, order.rank + 1),
                "OrderNumber": order.number,
                "AccountId": customers[order.customer].id,
                "Status": order.status,
                "EffectiveDate": format_date(order.day),
                "Pricebook2Id": cat.pricebooks[order.book].id,
            }
            for order in orders
        ),
    )
    return OrderBook(orders, {"Order": len(orders), "OrderItem": items}, cat)
