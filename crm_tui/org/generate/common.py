"""What every generator stage shares: sizes, random streams, the time frame, Ids."""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TypeVar

from crm_tui.org.schema.catalogue import get_object
from crm_tui.org.schema.ids import make_id

_T = TypeVar("_T")

COMPANY = "Shoes & Clothings"
DOMAIN = "shoesandclothings.example"

# The org's fixed time frame (never the wall clock). Orders run 2020-01 .. 2024-11 as in
# CRMArena; cases follow them up to the end of 2024; "now" for the org is early 2025.
START = date(2020, 1, 2)
LAST_ORDER = date(2024, 11, 30)
END = datetime(2024, 12, 31, 23, 0)
NOW = datetime(2025, 1, 15, 12, 0)
YEARS = (2020, 2021, 2022, 2023, 2024)


@dataclass(frozen=True)
class Sizes:
    """Record counts for a scale (scale 1 = CRMArena's org)."""

    scale: float
    users: int
    accounts: int
    products: int
    pricebooks: int
    orders: int
    items_per_order: float
    cases: int
    email_share: float  # share of cases with an e-mail thread
    chat_share: float  # share of cases with a chat

    @classmethod
    def for_scale(cls, scale: float) -> Sizes:
        def n(base: float, floor: int) -> int:
            return max(floor, round(base * scale))

        return cls(
            scale=scale,
            users=n(100, 10),
            accounts=n(200, 12),
            products=n(500, 70),  # at least one product of every type
            # 44 price books at every scale, so entries (every product in every book)
            # grow linearly with the scale like everything else.
            pricebooks=44,
            orders=n(2070, 40),
            items_per_order=3.43,
            cases=n(977, 25),
            email_share=0.66,
            chat_share=0.40,
        )


def rng(seed: int, stage: str) -> random.Random:
    """An independent, reproducible stream per stage (str seeds hash with SHA-512)."""
    return random.Random(f"crm-tui/{seed}/{stage}")


# Table-driven twin of ids.make_id (same output, several times faster): the case-safe
# suffix is one mask per 5-character chunk, here OR-ed from per-position lookup tables.
SUFFIX_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CHUNK_BITS = [{c: (1 << k if "A" <= c <= "Z" else 0) for c in _B62} for k in range(5)]


def chunk_char(chunk: str) -> str:
    b0, b1, b2, b3, b4 = CHUNK_BITS
    return SUFFIX_CHARS[b0[chunk[0]] | b1[chunk[1]] | b2[chunk[2]] | b3[chunk[3]] | b4[chunk[4]]]


# ids.make_id is now table-driven itself (it was this function's slower original).
fast_id = make_id


def is_valid_local_id(value: object) -> bool:
    """`ids.is_valid_id` for 18-character Ids, table-driven (used by the checks)."""
    if not isinstance(value, str) or len(value) != 18:
        return False
    try:
        return (
            chunk_char(value[0:5]) == value[15]
            and chunk_char(value[5:10]) == value[16]
            and chunk_char(value[10:15]) == value[17]
        )
    except KeyError:  # a character outside [0-9A-Za-z]
        return False


class IdMaker:
    """Sequential 18-character Ids for one object."""

    def __init__(self, object_name: str, start: int = 1):
        self.prefix = get_object(object_name).key_prefix
        self.next = start

    def __call__(self) -> str:
        value = fast_id(self.prefix, self.next)
        self.next += 1
        return value

    def many(self, n: int) -> list[str]:
        return [self() for _ in range(n)]


def at_time(day: date, minutes: int) -> datetime:
    """`day` at `minutes` past midnight (UTC)."""
    return datetime(day.year, day.month, day.day) + timedelta(minutes=minutes)


def business_minutes(r: random.Random) -> int:
    """A time of day in UTC that is US business hours (about 8:00-20:00 Eastern)."""
    return r.randint(12 * 60 + 30, 23 * 60 + 50)


def weighted_sample(r: random.Random, items: list[_T], weights: list[float], k: int) -> list[_T]:
    """`k` distinct items drawn with probability proportional to weight (A-Res keys): the
    `k` largest keys, largest first. Only those are kept (at scale 100 the case lines are
    700,000 items), and every item draws its key even when `k` is 0."""

    def keyed() -> Iterator[tuple[float, int, _T]]:
        n = 0
        for item, w in zip(items, weights):
            if w > 0:
                yield (r.random() ** (1.0 / w), n, item)
                n += 1

    if k <= 0:
        for _ in keyed():
            pass
        return []
    return [item for _, _, item in heapq.nlargest(k, keyed())]


# Holiday seasons orders cluster in: name -> (month, first day, last day)
SEASONS: dict[str, tuple[int, int, int]] = {
    "new_year": (1, 2, 6),
    "spring_sale": (3, 15, 18),
    "summer_kickoff": (6, 1, 1),
    "back_to_school": (8, 15, 18),
    "labor_day": (9, 1, 5),
    "black_friday": (11, 24, 30),
    "christmas": (12, 20, 25),
}


def season_days(name: str) -> list[date]:
    """Every day of a season inside the order window, over all years."""
    month, first, last = SEASONS[name]
    days = []
    for y in YEARS:
        for d in range(first, last + 1):
            day = date(y, month, d)
            if START <= day <= LAST_ORDER:
                days.append(day)
    return days


def org_id_for_seed(seed: int) -> str:
    """The org's own `00D` Id, fixed by the seed."""
    return make_id("00D", rng(seed, "org").randrange(1, 10**9))
