"""Product categories, products, category placements, price books and their entries.

Latent variables: per product its issue propensity (relative case rate), peak months
(when its cases peak) and nicknames (loose names a customer might use).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import datetime

from crm_tui.org.generate.assortment import (
    ProductType,
    assortment,
)
from crm_tui.org.generate.common import YEARS, IdMaker, Sizes, fast_id, rng
from crm_tui.org.schema import latent
from crm_tui.org.schema.ids import make_id
from crm_tui.org.schema.sftime import format_datetime
from crm_tui.org.store.orgstore import OrgStore

WORD_RE = re.compile(r"[a-z0-9]+")


def words(text: str) -> set[str]:
    """The tokens full-text search sees (FTS5 unicode61: alphanumeric runs, lower-case)."""
    return set(WORD_RE.findall(text.lower()))


@dataclass
class Product:
    index: int
    id: str
    name: str
    type: ProductType
    description: str
    categories: list[int]
    price: float
    popularity: float
    propensity: float
    peak: tuple[int, ...]
    issue_bias: int  # index into the type's likely issues: its most frequent complaint
    nicknames: list[str]


@dataclass
class PriceBook:
    index: int
    id: str
    name: str
    factor: float
    valid_from: datetime
    valid_to: datetime
    promo: bool


@dataclass
class Catalog:
    category_ids: list[str]
    products: list[Product]
    pricebooks: list[PriceBook]
    # (pricebook index, product index) -> (entry Id, unit price); computed on demand
    entry_base: int
    counts: dict[str, int]

    def entry(self, book: int, product: int) -> tuple[str, float]:
        number = self.entry_base + book * len(self.products) + product
        price = price_in_book(self.products[product].price, self.pricebooks[book].factor)
        return fast_id("01u", number), price


def price_in_book(base: float, factor: float) -> float:
    if factor == 1.0:
        return base
    return max(4.99, round(base * factor) - 0.01)


def _name(r: random.Random, t: ProductType, taken: set[str]) -> tuple[str, str]:
    """A unique product name and the gender word it carries ("" if none)."""
    lines, variants = assortment().lines, assortment().variants
    for attempt in range(200):
        line = r.choice(lines)
        gender = ""
        if t.gender == "W" and r.random() < 0.5:
            gender = "Women's"
        elif t.gender == "M" and r.random() < 0.5:
            gender = "Men's"
        elif t.gender == "U" and r.random() < 0.25:
            gender = r.choice(("Women's", "Men's"))
        variant = r.choice(variants)
        # No word twice ("Performance Performance Tee", "Sport Sport Earbuds").
        if (r.random() < 0.45 or attempt > 20) and variant not in t.noun.split():
            name = f"{line} {variant} {t.noun}"
        else:
            name = f"{line} {t.noun}"
        if attempt > 100:
            name += f" {r.choice(('II', 'III', 'IV', 'V'))}"
        if gender:
            name = f"{gender} {name}"
        if name not in taken:
            taken.add(name)
            return name, gender
    raise RuntimeError("product names exhausted")  # pragma: no cover


# Slots: {is} is/are, {a} "a "/"an "/"" (plural), {it} it/them, {s} verb ending, {this}.
DESCRIPTIONS = (
    "The {name} {is} {a}{adj} {noun} made for {use}. {It} feature{s} {f1}, {f2} and {f3}, "
    "built on {mat}.",
    "{Adj} and {adj2}, the {name} bring{s} {f1} and {f2} to {use}. {Mat} keeps {it} "
    "comfortable, and {f3} rounds out the design.",
    "Designed for {use}, {this} {adj} {noun} pair{s} {mat} with {f1}. Extra touches include "
    "{f2} and {f3}.",
    "Meet the {name}: {a}{adj} {noun} with {f1} and {f2}. {Mat} and {f3} make {it} a "
    "dependable pick for {use}.",
    "Whether you are into {use} or {use2}, the {adj} {name} {is} ready, with {f1}, {f2} and {mat}.",
    "Our {adj} {noun} for {use}. Highlights: {f1}; {f2}; {f3}. Made with {mat}.",
    "Built for {use}, the {name} combine{s} {mat} with {f1}. {It_is} finished with {f2} and "
    "{f3}, so {they} work{s} just as well for {use2}.",
)
SIZE_LINES = {
    "footwear": "Available in {g} sizes {a} to {b}, in regular and wide widths.",
    "apparel": "Available in {g} sizes XS to XXL.",
}


def grammar(plural: bool, next_word: str = "") -> dict[str, str]:
    """Agreement slots for a product noun (singular or plural)."""
    article = "" if plural else ("an " if next_word[:1].lower() in "aeiou" else "a ")
    return {
        "is": "are" if plural else "is",
        "a": article,
        "it": "them" if plural else "it",
        "It": "They" if plural else "It",
        "s": "" if plural else "s",
        "they": "they" if plural else "it",
        "this": "these" if plural else "this",
        "It_is": "They are" if plural else "It is",
        "it_is": "they are" if plural else "it is",
        "does": "do" if plural else "does",
        "was": "were" if plural else "was",
        "its": "their" if plural else "its",
        "has": "have" if plural else "has",
    }


def _describe(r: random.Random, name: str, t: ProductType, gender: str) -> tuple[str, str]:
    adj, adj2 = r.sample(t.adjs, 2)
    f1, f2, f3 = r.sample(t.features, 3)
    use = r.choice(t.uses)
    use2 = next(u for u in t.uses if u != use) if len(t.uses) > 1 else use
    mat = r.choice(t.materials)
    text = r.choice(DESCRIPTIONS).format(
        name=name,
        adj=adj,
        Adj=adj[:1].upper() + adj[1:],
        adj2=adj2,
        noun=t.noun.lower(),
        use=use,
        use2=use2,
        f1=f1,
        f2=f2,
        f3=f3,
        mat=mat,
        Mat=mat[:1].upper() + mat[1:],
        **grammar(t.plural, adj),
    )
    g = gender or {"W": "Women's", "M": "Men's"}.get(t.gender, "")
    if g and t.kind in SIZE_LINES:
        a, b = (5, 11) if g == "Women's" else (7, 14)
        text += " " + SIZE_LINES[t.kind].format(g=g.lower(), a=a, b=b)
    elif t.kind in SIZE_LINES and r.random() < 0.5:
        text += " " + (
            "Available in a full run of sizes."
            if t.kind == "apparel"
            else "Available in half sizes, regular and wide."
        )
    return text, adj


def _nicknames(
    r: random.Random, name: str, t: ProductType, gender: str, adj: str, description: str
) -> list[str]:
    noun = t.noun.lower()
    last = noun.split()[-1]
    line = name.removeprefix(gender).split()[0].lower()
    options = [
        f"{adj} {noun}",
        noun if len(noun.split()) > 1 else f"{adj} {noun}",
        f"{line} {last}",
    ]
    if gender:
        options.append(f"{gender.lower()} {noun}")
    if len(noun.split()) > 2:
        options.append(" ".join(noun.split()[-2:]))
    have = words(name + " " + description)
    out: list[str] = []
    for nick in r.sample(options, len(options)):
        if nick not in out and words(nick) <= have and nick != name.lower():
            out.append(nick)
        if len(out) >= r.choice((1, 2, 2, 3)):
            break
    return out or [noun]


def build(store: OrgStore, seed: int, sizes: Sizes) -> Catalog:
    r = rng(seed, "catalog")
    category_ids = _categories(store)
    products, placed = _products(store, r, sizes, category_ids)
    books = _price_books(store, sizes)
    entry_base = _entries(store, books, products)
    n = len(products)
    counts = {
        "ProductCategory": len(category_ids),
        "Product2": n,
        "ProductCategoryProduct": placed,
        "Pricebook2": len(books),
        "PricebookEntry": n * len(books),
    }
    return Catalog(category_ids, products, books, entry_base, counts)


def _categories(store: OrgStore) -> list[str]:
    """The product categories; returns their Ids, in the assortment's order."""
    category_names = assortment().categories
    cat_id = IdMaker("ProductCategory")
    category_ids = cat_id.many(len(category_names))
    catalog_id = make_id("0ZS", 7)  # the (unmodelled) product catalogue
    store.insert(
        "ProductCategory",
        [
            {"Id": i, "Name": n, "CatalogId": catalog_id}
            for i, n in zip(category_ids, category_names)
        ],
    )
    return category_ids


def _products(
    store: OrgStore, r: random.Random, sizes: Sizes, category_ids: list[str]
) -> tuple[list[Product], int]:
    """The products, their category placements and latent variables; returns the products
    and the number of placements."""
    category_names, types = assortment().categories, assortment().types
    product_id = IdMaker("Product2")
    taken: set[str] = set()
    described: set[str] = set()
    type_weight = [{"footwear": 1.5, "apparel": 1.3}.get(t.kind, 1.0) for t in types]
    products: list[Product] = []
    rows: list[dict[str, object]] = []
    placements: list[dict[str, str]] = []
    lat: list[tuple[str, str, str, str]] = []
    pcp_id = IdMaker("ProductCategoryProduct")
    for i in range(sizes.products):
        t = types[i % len(types)] if i < len(types) else r.choices(types, type_weight)[0]
        name, gender = _name(r, t, taken)
        description, adj = _new_description(r, name, t, gender, described)
        cats = _placed_in(r, t, gender)
        lo, hi = t.price
        price = round(r.uniform(lo, hi)) - 0.01
        seasonal = bool(t.peak) and r.random() < 0.85
        p = Product(
            index=i,
            id=product_id(),
            name=name,
            type=t,
            description=description,
            categories=cats,
            price=price,
            popularity=r.lognormvariate(0, 0.6),
            propensity=round(r.lognormvariate(0, 0.85), 3),
            peak=t.peak if seasonal else (),
            issue_bias=r.randrange(100),
            nicknames=[],
        )
        p.nicknames = _nicknames(r, name, t, gender, adj, description)
        products.append(p)
        rows.append(
            {
                "Id": p.id,
                "Name": name,
                "Description": description,
                "IsActive": 1 if r.random() < 0.94 else 0,
                "External_ID__c": f"{', '.join(category_names[c] for c in cats)}_{i + 1}",
            }
        )
        placements.extend(
            {"Id": pcp_id(), "ProductCategoryId": category_ids[c], "ProductId": p.id} for c in cats
        )
        lat.append(
            ("Product2", p.id, latent.PRODUCT_ISSUE_PROPENSITY[1], latent.dumps(p.propensity))
        )
        lat.append(("Product2", p.id, latent.PRODUCT_PEAK_MONTHS[1], latent.dumps(list(p.peak))))
        lat.append(("Product2", p.id, latent.PRODUCT_NICKNAMES[1], latent.dumps(p.nicknames)))
    store.insert("Product2", rows)
    store.insert("ProductCategoryProduct", placements)
    store.set_latent(lat)
    return products, len(placements)


def _new_description(
    r: random.Random, name: str, t: ProductType, gender: str, described: set[str]
) -> tuple[str, str]:
    """A description (and the adjective it uses) no other product has (noted in `described`)."""
    description, adj = _describe(r, name, t, gender)
    for _ in range(20):  # two products never share a description
        if description not in described:
            break
        description, adj = _describe(r, name, t, gender)
    described.add(description)
    return description, adj


def _placed_in(r: random.Random, t: ProductType, gender: str) -> list[int]:
    """The categories a product is listed in: its type's, and some of the others it fits."""
    cats = [t.category]
    extra = [c for c in t.also if c not in cats]
    if gender == "Women's" and 2 not in cats:
        extra.append(2)
    if gender == "Men's" and 3 not in cats:
        extra.append(3)
    for c in r.sample(extra, len(extra)):
        if r.random() < 0.7:
            cats.append(c)
    return cats


def _price_books(store: OrgStore, sizes: Sizes) -> list[PriceBook]:
    """The standard book, each year's promotions and the channel books (as many as sized)."""
    pb_id = IdMaker("Pricebook2")
    books: list[PriceBook] = [
        PriceBook(
            0,
            pb_id(),
            "Standard Price Book",
            1.0,
            datetime(2019, 12, 1),
            datetime(2025, 12, 31, 23, 59),
            False,
        )
    ]
    descriptions = {"Standard Price Book": "List prices for every product, used by default."}
    for year in YEARS:
        for name, month, day, length, factor in assortment().promotions:
            start = datetime(year, month, day)
            end = (
                datetime(year, month, day + length - 1, 23, 59)
                if month != 12 or day + length - 1 <= 31
                else datetime(year, 12, 31, 23, 59)
            )
            full = f"{name} {year}"
            books.append(PriceBook(len(books), pb_id(), full, factor, start, end, True))
            descriptions[full] = (
                f"{name} promotion prices, {start:%B} {start.day}"
                f"{'' if length == 1 else f' to {end:%B} {end.day}'}, {year}: "
                f"about {round((1 - factor) * 100)}% off list prices."
            )
    for name, desc, factor in assortment().channel_books:
        if name.startswith("Clearance"):
            year = int(name.split()[1])
            start, end = datetime(year, 12, 26), datetime(year + 1, 1, 31, 23, 59)
        else:
            start, end = datetime(2020, 1, 1), datetime(2025, 12, 31, 23, 59)
        books.append(PriceBook(len(books), pb_id(), name, factor, start, end, False))
        descriptions[name] = desc
    books = books[: sizes.pricebooks]
    store.insert(
        "Pricebook2",
        [
            {
                "Id": b.id,
                "Name": b.name,
                "Description": descriptions[b.name],
                "IsActive": 1 if (b.valid_to >= datetime(2024, 6, 1) or not b.promo) else 0,
                "ValidFrom": format_datetime(b.valid_from),
                "ValidTo": format_datetime(b.valid_to),
            }
            for b in books
        ],
    )
    return books


def _entries(store: OrgStore, books: list[PriceBook], products: list[Product]) -> int:
    """Every product in every book; returns the number of the first entry's Id."""
    entry_base = 1
    n = len(products)
    store.insert_tuples(
        "PricebookEntry",
        ("Id", "Name", "Pricebook2Id", "Product2Id", "UnitPrice"),
        (
            (
                fast_id("01u", entry_base + b.index * n + p.index),
                p.name,
                b.id,
                p.id,
                price_in_book(p.price, b.factor),
            )
            for b in books
            for p in products
        ),
    )
    return entry_base
