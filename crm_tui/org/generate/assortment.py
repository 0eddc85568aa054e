"""The retailer's assortment: categories, product types, product lines and price books.

Every product is "<line> [<variant>] <type>" (or "Women's/Men's <line> <type>"), and its
description is composed from the type's adjectives, features, materials and uses, so a
nickname built from the type's words always occurs in the product's Name or Description.
The words live in data/assortment.toml, read on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from crm_tui.org.generate.datafile import Table

# Product kinds decide which issues a product's cases are about (see cases.ISSUE_KIND).
FOOTWEAR, APPAREL, EQUIPMENT, ELECTRONICS, ACCESSORY = (
    "footwear",
    "apparel",
    "equipment",
    "electronics",
    "accessory",
)
KINDS = (FOOTWEAR, APPAREL, EQUIPMENT, ELECTRONICS, ACCESSORY)
GENDERS = ("W", "M", "U", "")


@dataclass(frozen=True)
class ProductType:
    noun: str  # "Trail Running Shoes"
    category: int
    also: tuple[int, ...]  # categories it may also be listed in
    kind: str
    price: tuple[int, int]  # list price range in USD
    gender: str  # "W", "M" (always for that gender), "U" (unisex; names may add one), ""
    adjs: tuple[str, ...]  # adjectives used in descriptions and nicknames
    features: tuple[str, ...]
    materials: tuple[str, ...]
    uses: tuple[str, ...]
    peak: tuple[int, ...]  # months its support cases peak in (empty: no season)

    @property
    def plural(self) -> bool:
        """ "Trail Running Shoes" are, "Yoga Mat" is."""
        return self.noun.endswith("s")


class Promotion(NamedTuple):
    """A seasonal price book, each year: from month/day for `days` days at `discount`."""

    name: str
    month: int
    day: int
    days: int
    discount: float


class ChannelBook(NamedTuple):
    """A price book for a sales channel: prices are list prices times `discount`."""

    name: str
    description: str
    discount: float


@dataclass(frozen=True)
class Assortment:
    categories: tuple[str, ...]
    types: tuple[ProductType, ...]
    lines: tuple[str, ...]
    variants: tuple[str, ...]
    promotions: tuple[Promotion, ...]
    channel_books: tuple[ChannelBook, ...]


@cache
def assortment() -> Assortment:
    """The assortment of data/assortment.toml (read once)."""
    return read_assortment(Table.read("assortment.toml"))


def read_assortment(doc: Table) -> Assortment:
    categories = doc.strings("categories")
    return Assortment(
        categories=categories,
        types=tuple(product_type(t, categories) for t in doc.tables("types")),
        lines=doc.strings("lines"),
        variants=doc.strings("variants"),
        promotions=tuple(
            Promotion(
                t.string("name"),
                t.integer("month"),
                t.integer("day"),
                t.integer("days"),
                t.real("discount"),
            )
            for t in doc.tables("promotions")
        ),
        channel_books=tuple(
            ChannelBook(t.string("name"), t.string("description"), t.real("discount"))
            for t in doc.tables("channel_books")
        ),
    )


def product_type(t: Table, categories: tuple[str, ...]) -> ProductType:
    def category(name: str, key: str) -> int:
        if name not in categories:
            raise t.error(key, f"one of the categories, not {name!r}")
        return categories.index(name)

    kind, gender = t.string("kind"), t.string("gender")
    if kind not in KINDS:
        raise t.error("kind", f"one of {', '.join(KINDS)}")
    if gender not in GENDERS:
        raise t.error("gender", '"W", "M", "U" or ""')
    low, high = t.integers("price", size=2)
    return ProductType(
        noun=t.string("noun"),
        category=category(t.string("category"), "category"),
        also=tuple(category(name, "also") for name in t.strings("also", empty=True)),
        kind=kind,
        price=(low, high),
        gender=gender,
        adjs=t.strings("adjectives"),
        features=t.strings("features"),
        materials=t.strings("materials"),
        uses=t.strings("uses"),
        peak=t.integers("peak"),
    )
