"""Benchmark the record browser's backend calls on a 100x org (p50/p95 per interaction).

    python -m tests.benchmarks.bench_browser [--kind b2c|b2b] [--org PATH] [--scale 100]
        [--repeat 20] [--by-object] [--markdown FILE] [--smoke]
    python -m tests.benchmarks.bench_browser --lookup-sorts [--kind b2b] [--repeat 4]

Builds the org with the seeded generator (or reuses the file if it exists), then times
each interaction the browser makes, the way the screens make it: open a list view
(first page + count, after the object list has counted every object), next page deep
into a big list, sort by an indexed field, filter (first page + count), search, and open
a record with its related lists. Prints a Markdown table for the documentation. With
`--lookup-sorts`, only the first page of each big list sorted by each of its lookups
(by the name shown), and of Case History by its Old/New Value (User Ids, by the user's
name), per list, both directions.

With `--kind b2b` the org is a B2B one (the service objects plus the sales team's), and
each interaction is timed on the sales objects' big lists too (Opportunity, Lead, Task,
Event, Quote and the line items), in rows of their own. `--markdown FILE` writes the
table to FILE as well; `--by-object` then prints each interaction's figures per object
(not written to FILE), to find which list a slow row comes from.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from crm_tui.org.backends.interface import ID_TEXT_FIELDS, Filter, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.schema.catalogue import get_object, kind_of, objects_for_kind
from crm_tui.org.store.orgstore import OrgStore, q
from tests.benchmarks import smoke

BIG_OBJECTS = ("Case", "PricebookEntry", "OrderItem", "Order", "EmailMessage")
# The sales team's big lists on a B2B org (OrderItem, a won deal's order lines, is above).
SALES_BIG_OBJECTS = (
    "Opportunity",
    "OpportunityLineItem",
    "Lead",
    "Task",
    "Event",
    "Quote",
    "QuoteLineItem",
)
SEARCH_WORDS = (
    "late",
    "refund",
    "zipper",
    "broken",
    "order",
    "ship",
    "warranty",
    "jacket",
    "defect",
    "exchange",
)
SALES_SEARCH_WORDS = (
    "quote",
    "discovery",
    "contract",
    "meeting",
    "prospect",
    "discount",
    "kick-off",
    "competitors",
    "onboarding",
    "assessment",
)
SALES = "sales lists: "  # the label of an interaction's row on the sales objects
KINDS = ("b2c", "b2b")


def timed(
    samples: dict[str, list[float]],
    name: str,
    call: Callable[[], object],
    obj: str | None = None,
) -> object:
    """Run `call`, adding its time in ms to `samples[name]` and, for an `obj`, to the
    interaction's figures on that object (`samples["name\\tobj"]`)."""
    start = time.perf_counter()
    result = call()
    elapsed = (time.perf_counter() - start) * 1000
    samples.setdefault(name, []).append(elapsed)
    if obj is not None:
        samples.setdefault(f"{name}\t{obj}", []).append(elapsed)
    return result


def sample_ids(path: Path, object_name: str, n: int, rng: random.Random) -> list[str]:
    """About `n` random Ids of an object (rows are numbered 1..count in insertion order)."""
    return sample_values(path, object_name, "Id", n, rng)


def sample_values(
    path: Path, object_name: str, field: str, n: int, rng: random.Random
) -> list[str]:
    """A field's values on about `n` random records of an object (e.g. their owners)."""
    with OrgStore.open(path) as store:
        total = store.count(object_name)
        if not total:
            return []
        rowids = ", ".join(str(rng.randint(1, total)) for _ in range(n))
        return [
            r[0]
            for r in store.conn.execute(
                f"SELECT {q(field)} FROM {q(object_name)} WHERE rowid IN ({rowids})"
            )
        ]


def sales_filters(path: Path, rng: random.Random) -> list[tuple[str, Filter, tuple[str, ...]]]:
    """What a sales agent filters the sales lists by: (object, filter, the fields the list
    may be sorted by), on picklists, dates, amounts, flags and owners (agents who own some
    of the records, and a user picked at random, who may own none)."""
    filters: list[tuple[str, Filter, tuple[str, ...]]] = []
    sorts = {
        "Opportunity": ("CloseDate", "Amount", "CreatedDate"),
        "Lead": ("CreatedDate", "Company"),
        "Task": ("ActivityDate", "CreatedDate"),
        "Quote": ("CreatedDate", "QuoteNumber"),
    }
    for name, flt in (
        ("Opportunity", Filter("StageName", "=", "Negotiation")),
        ("Opportunity", Filter("CloseDate", ">=", "2024-06-01")),
        ("Opportunity", Filter("Amount", ">=", 50000)),
        ("Lead", Filter("Status", "=", "Working - Contacted")),
        ("Lead", Filter("IsConverted", "=", "no")),
        ("Lead", Filter("State", "=", "CA")),
        ("Task", Filter("Status", "=", "Not Started")),
        ("Task", Filter("Subject", "=", "Build the price quote")),
        ("Quote", Filter("Status", "=", "Accepted")),
    ):
        filters.append((name, flt, sorts[name]))
    random_user = sample_ids(path, "User", 1, rng)
    for name in ("Opportunity", "Lead", "Task"):
        for owner in sample_values(path, name, "OwnerId", 2, rng) + random_user:
            filters.append((name, Filter("OwnerId", "=", owner), sorts[name]))
    return filters


def run(path: Path, repeat: int, seed: int, kind: str = "b2c") -> dict[str, list[float]]:
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {}
    backend = LocalBackend(path)
    timed(samples, "object list (counts every object, once per app start)", backend.list_objects)
    sales = SALES_BIG_OBJECTS if kind == "b2b" else ()

    def label(name: str, obj: str) -> str:
        return SALES + name if obj in sales else name

    name = "open a list view (first page + count)"
    for _ in range(repeat):
        for obj in objects_for_kind(kind):
            timed(
                samples,
                label(name, obj.name),
                lambda: (backend.page(obj.name, limit=100), backend.count(obj.name)),
                obj.name,
            )

    name = "next page (25 pages deep into big lists)"
    for obj_name in BIG_OBJECTS + sales:
        for _ in range(max(1, repeat // 4)):
            cursor = None
            for _ in range(25):
                page = timed(
                    samples,
                    label(name, obj_name),
                    lambda: backend.page(obj_name, after=cursor, limit=100),
                    obj_name,
                )
                cursor = page.next_cursor
                if cursor is None:
                    break

    name, by_lookup = (
        "sort by an indexed field (first page)",
        "sort by a lookup: its record's name (first page)",
    )
    for obj_name in BIG_OBJECTS + sales:
        obj = get_object(obj_name)
        indexed = [f.name for f in obj.fields if f.indexed and not f.is_lookup]
        for _ in range(repeat):
            field, descending = rng.choice(indexed), rng.random() < 0.5
            timed(
                samples,
                label(name, obj_name),
                lambda: backend.page(obj_name, sort=Sort(field, descending), limit=100),
                obj_name,
            )
        # A lookup sorts by its record's name (ORDER BY Owner.Name, Id): a join, no index.
        for fld in obj.lookups:
            for _ in range(max(1, repeat // 10) if fld.indexed and fld.relationship_name else 0):
                timed(
                    samples,
                    label(by_lookup, obj_name),
                    lambda: backend.page(
                        obj_name, sort=Sort(fld.name, rng.random() < 0.5), limit=100
                    ),
                    obj_name,
                )

    users = sample_ids(path, "User", 5, rng)
    case_sorts = ("CreatedDate", "CaseNumber")
    filters = [
        ("Case", flt, case_sorts)
        for flt in [
            Filter("Status", "=", "Closed"),
            Filter("Priority", "=", "High"),
            Filter("CreatedDate", ">=", "2023-06-01"),
            Filter("Status", "is empty"),
            *[Filter("OwnerId", "=", u) for u in users],
        ]
    ]
    # the Case filters drawn at random, as on a B2C org; every sales filter a few times
    chosen = [rng.choice(filters) for _ in range(repeat)]
    if sales:
        chosen += sales_filters(path, rng) * max(1, repeat // 4)
    for obj_name, flt, sorts in chosen:
        sort = Sort(rng.choice(sorts), rng.random() < 0.5)
        timed(
            samples,
            label("filter (first page)", obj_name),
            lambda: backend.page(obj_name, [flt], sort, limit=100),
            obj_name,
        )
        timed(
            samples,
            label("filter (count, in its own worker)", obj_name),
            lambda: backend.count(obj_name, [flt]),
            obj_name,
        )
        # time the count, not the cache (a KeyError here: Backend.count's cache moved)
        backend.__dict__["_count_cache"].clear()

    name = "search (50 hits)"
    for words, row in ((SEARCH_WORDS, name),) + (
        ((SALES_SEARCH_WORDS, SALES + name),) if sales else ()
    ):
        for word in words * max(1, repeat // len(words)):
            for text in (word, word[:3]):
                timed(samples, row, lambda: backend.search(text, limit=50))

    name = "open a record with its related lists"
    opened = ("Case", "Account", "Order", "Product2", "Pricebook2", "User")
    if sales:
        opened += ("Opportunity", "Lead", "Quote", "Contract", "Task")
    for obj_name in opened:
        for record_id in sample_ids(path, obj_name, repeat, rng):
            timed(
                samples,
                label(name, obj_name) if obj_name != "User" else name,
                lambda: (backend.get_record(record_id), backend.related(record_id)),
                obj_name,
            )
    backend.close()
    return samples


def lookup_sorts(path: Path, repeat: int, kind: str = "b2c") -> str:
    """The first page of every big list sorted by each of its lookups (by the name shown),
    both directions, as a Markdown table: median and worst of `repeat` per list."""
    backend = LocalBackend(path)
    lines = [
        "| list sorted by a lookup's name (first page) | p50 ms | max ms |",
        "|---|---:|---:|",
    ]
    big = BIG_OBJECTS + (SALES_BIG_OBJECTS if kind == "b2b" else ())
    # each big list by each lookup, and the text fields that hold User Ids (by their names)
    sorts = [
        (name, fld)
        for name in big
        for fld in get_object(name).lookups
        if fld.indexed and fld.relationship_name
    ] + [(name, get_object(name).field(field)) for name, field in ID_TEXT_FIELDS]
    for name, fld in sorts:
        samples: dict[str, list[float]] = {}
        for i in range(max(2, repeat)):
            sort = Sort(fld.name, descending=i % 2 == 1)
            timed(samples, "sort", lambda: backend.page(name, sort=sort, limit=100))
        p50, worst = np.percentile(samples["sort"], 50), max(samples["sort"])
        label = get_object(name).label_plural
        lines.append(f"| {label} by {fld.label} | {p50:.1f} | {worst:.1f} |")
    backend.close()
    return "\n".join(lines)


def org_line(counts: dict[str, int], kind: str) -> str:
    if kind == "b2b":
        shown = ("Case", "Opportunity", "Lead", "Task", "QuoteLineItem")
    else:
        shown = ("Case", "PricebookEntry")
    parts = [f"{counts[n]:,} {get_object(n).label_plural.lower()}" for n in shown]
    return f"Org ({kind.upper()}): {', '.join(parts)}, {sum(counts.values()):,} records."


def markdown(samples: dict[str, list[float]], counts: dict[str, int], kind: str = "b2c") -> str:
    lines = [
        org_line(counts, kind),
        "",
        "| interaction | calls | p50 ms | p95 ms |",
        "|---|---:|---:|---:|",
    ]
    for name, values in samples.items():
        if "\t" not in name:
            p50, p95 = np.percentile(values, [50, 95])
            lines.append(f"| {name} | {len(values)} | {p50:.1f} | {p95:.1f} |")
    return "\n".join(lines)


def markdown_by_object(samples: dict[str, list[float]]) -> str:
    """Each interaction's figures per object, as a Markdown table."""
    lines = [
        "| interaction | object | calls | p50 ms | p95 ms | max ms |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for key, values in samples.items():
        if "\t" in key:
            name, obj = key.split("\t")
            p50, p95 = np.percentile(values, [50, 95])
            lines.append(
                f"| {name.removeprefix(SALES)} | {obj} | {len(values)} | {p50:.1f} "
                f"| {p95:.1f} | {max(values):.1f} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--org",
        type=Path,
        default=None,
        help="org file to use; generated there if missing "
        "(default: a file in the temp folder, reused across runs)",
    )
    parser.add_argument(
        "--kind",
        choices=KINDS,
        default="b2c",
        help="the kind of org: b2c (service) or b2b (service and sales); default b2c",
    )
    parser.add_argument("--scale", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--lookup-sorts",
        action="store_true",
        help="only the first page of each big list sorted by each lookup, per list",
    )
    parser.add_argument(
        "--by-object", action="store_true", help="also each interaction's figures per object"
    )
    parser.add_argument(
        "--markdown", type=Path, default=None, help="also write the tables to this file"
    )
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, repeat=1, org=None)
    with smoke.bench_folder(args.smoke) as folder:
        if args.org and not args.org.exists():
            from crm_tui.org.generate.build_file import generate

            generate(args.org, seed=args.seed, scale=args.scale, kind=args.kind)
        path = args.org or smoke.task_org(folder, args.scale, args.seed, args.kind)
        with OrgStore.open(path) as store:
            kind = store.org_kind
            counts = store.counts()
        with kind_of(kind):
            if args.lookup_sorts:
                text, extra = lookup_sorts(path, args.repeat, kind), ""
            else:
                samples = run(path, args.repeat, args.seed, kind)
                text = markdown(samples, counts, kind)
                extra = markdown_by_object(samples) if args.by_object or args.smoke else ""
                if args.smoke:
                    extra += f"\n\n{lookup_sorts(path, args.repeat, kind)}"
        print(text)
        if args.markdown:
            args.markdown.write_text(text + "\n", encoding="utf-8")
        if extra:
            print(f"\n{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
