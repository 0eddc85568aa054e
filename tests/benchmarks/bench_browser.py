"""Benchmark the record browser's backend calls on a 100x org (p50/p95 per interaction).

    python -m tests.benchmarks.bench_browser [--org PATH] [--scale 100] [--repeat 20] [--smoke]
    python -m tests.benchmarks.bench_browser --lookup-sorts [--repeat 4]

Builds the org with the seeded generator (or reuses the file if it exists), then times
each interaction the browser makes, the way the screens make it: open a list view
(first page + count, after the object list has counted every object), next page deep
into a big list, sort by an indexed field, filter (first page + count), search, and open
a record with its related lists. Prints a Markdown table for the documentation. With
`--lookup-sorts`, only the first page of each big list sorted by each of its lookups
(by the name shown), and of Case History by its Old/New Value (User Ids, by the user's
name), per list, both directions.
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
from crm_tui.org.schema.catalogue import OBJECTS, get_object
from crm_tui.org.store.orgstore import OrgStore, q
from tests.benchmarks import smoke

BIG_OBJECTS = ("Case", "PricebookEntry", "OrderItem", "Order", "EmailMessage")
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


def timed(samples: dict[str, list[float]], name: str, call: Callable[[], object]) -> object:
    start = time.perf_counter()
    result = call()
    samples.setdefault(name, []).append((time.perf_counter() - start) * 1000)
    return result


def sample_ids(path: Path, object_name: str, n: int, rng: random.Random) -> list[str]:
    """About `n` random Ids of an object (rows are numbered 1..count in insertion order)."""
    with OrgStore.open(path) as store:
        total = store.count(object_name)
        if not total:
            return []
        rowids = ", ".join(str(rng.randint(1, total)) for _ in range(n))
        return [
            r[0]
            for r in store.conn.execute(
                f"SELECT Id FROM {q(object_name)} WHERE rowid IN ({rowids})"
            )
        ]


def run(path: Path, repeat: int, seed: int) -> dict[str, list[float]]:
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {}
    backend = LocalBackend(path)
    timed(samples, "object list (counts every object, once per app start)", backend.list_objects)

    for _ in range(repeat):
        for obj in OBJECTS:
            timed(
                samples,
                "open a list view (first page + count)",
                lambda: (backend.page(obj.name, limit=100), backend.count(obj.name)),
            )

    for name in BIG_OBJECTS:
        for _ in range(max(1, repeat // 4)):
            cursor = None
            for _ in range(25):
                page = timed(
                    samples,
                    "next page (25 pages deep into big lists)",
                    lambda: backend.page(name, after=cursor, limit=100),
                )
                cursor = page.next_cursor
                if cursor is None:
                    break

    for name in BIG_OBJECTS:
        obj = get_object(name)
        indexed = [f.name for f in obj.fields if f.indexed and not f.is_lookup]
        for _ in range(repeat):
            field, descending = rng.choice(indexed), rng.random() < 0.5
            timed(
                samples,
                "sort by an indexed field (first page)",
                lambda: backend.page(name, sort=Sort(field, descending), limit=100),
            )
        # A lookup sorts by its record's name (ORDER BY Owner.Name, Id): a join, no index.
        for fld in obj.lookups:
            for _ in range(max(1, repeat // 10) if fld.indexed and fld.relationship_name else 0):
                timed(
                    samples,
                    "sort by a lookup: its record's name (first page)",
                    lambda: backend.page(name, sort=Sort(fld.name, rng.random() < 0.5), limit=100),
                )

    users = sample_ids(path, "User", 5, rng)
    case_filters = [
        Filter("Status", "=", "Closed"),
        Filter("Priority", "=", "High"),
        Filter("CreatedDate", ">=", "2023-06-01"),
        Filter("Status", "is empty"),
        *[Filter("OwnerId", "=", u) for u in users],
    ]
    for _ in range(repeat):
        flt = rng.choice(case_filters)
        sort = Sort(rng.choice(["CreatedDate", "CaseNumber"]), rng.random() < 0.5)
        timed(samples, "filter (first page)", lambda: backend.page("Case", [flt], sort, limit=100))
        timed(samples, "filter (count, in its own worker)", lambda: backend.count("Case", [flt]))
        # time the count, not the cache (a KeyError here: Backend.count's cache moved)
        backend.__dict__["_count_cache"].clear()

    for word in SEARCH_WORDS * max(1, repeat // len(SEARCH_WORDS)):
        for text in (word, word[:3]):
            timed(samples, "search (50 hits)", lambda: backend.search(text, limit=50))

    for name in ("Case", "Account", "Order", "Product2", "Pricebook2", "User"):
        for record_id in sample_ids(path, name, repeat, rng):
            timed(
                samples,
                "open a record with its related lists",
                lambda: (backend.get_record(record_id), backend.related(record_id)),
            )
    backend.close()
    return samples


def lookup_sorts(path: Path, repeat: int) -> str:
    """The first page of every big list sorted by each of its lookups (by the name shown),
    both directions, as a Markdown table: median and worst of `repeat` per list."""
    backend = LocalBackend(path)
    lines = [
        "| list sorted by a lookup's name (first page) | p50 ms | max ms |",
        "|---|---:|---:|",
    ]
    # each big list by each lookup, and the text fields that hold User Ids (by their names)
    sorts = [
        (name, fld)
        for name in BIG_OBJECTS
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


def markdown(samples: dict[str, list[float]], counts: dict[str, int]) -> str:
    lines = [
        f"Org: {counts['Case']:,} cases, {counts['PricebookEntry']:,} price-book entries, "
        f"{sum(counts.values()):,} records.",
        "",
        "| interaction | calls | p50 ms | p95 ms |",
        "|---|---:|---:|---:|",
    ]
    for name, values in samples.items():
        p50, p95 = np.percentile(values, [50, 95])
        lines.append(f"| {name} | {len(values)} | {p50:.1f} | {p95:.1f} |")
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
    parser.add_argument("--scale", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument(
        "--lookup-sorts",
        action="store_true",
        help="only the first page of each big list sorted by each lookup, per list",
    )
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, repeat=1, org=None)
    with smoke.bench_folder(args.smoke) as folder:
        if args.org and not args.org.exists():
            from crm_tui.org.generate.build_file import generate

            generate(args.org, seed=args.seed, scale=args.scale)
        path = args.org or smoke.task_org(folder, args.scale, args.seed)
        with OrgStore.open(path) as store:
            counts = store.counts()
        if args.lookup_sorts:
            print(lookup_sorts(path, args.repeat))
            return 0
        print(markdown(run(path, args.repeat, args.seed), counts))
        if args.smoke:
            print(f"\n{lookup_sorts(path, args.repeat)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
