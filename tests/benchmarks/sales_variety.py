"""Answer variety of the sales families against CRMArena-Pro's B2B file (docs: b2b-org.md).

For each seed, the B2B org at `--scale` and `--items` items of each sales family on it;
per family, the number of distinct answers (a list answer as its sorted values, `[None]`
one answer too) on each seed, against the same count in CRMArena-Pro's file
(`../shared/crmarena-pro/b2b_tasks.json`, 100 rows per family), and whether every seed is
within `--within` of it.

Run: python -m tests.benchmarks.sales_variety [--seeds 1 2 3 4] [--scale 1] [--items 100]
[--smoke] [--markdown docs/snippets/sales_variety.md] (prints a Markdown table; with
`--markdown` also writes it to that file, which the B2B page of the documentation
includes).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from crm_tui.org.generate.build_file import generate
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.sales_families import SALES_FAMILIES, generate_sales_items
from tests.benchmarks import smoke

PRO_FILE = Path(__file__).resolve().parents[2].parent / "shared" / "crmarena-pro" / "b2b_tasks.json"


def distinct_answers(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Per family: how many different answers its rows have."""
    seen: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        seen[row["task"]].add(json.dumps(sorted(str(v) for v in row["answer"])))
    return {task: len(answers) for task, answers in seen.items()}


def measure(folder: Path, seeds: list[int], scale: float, items: int) -> dict[int, dict[str, int]]:
    """Distinct answers per family on each seed's org."""
    out = {}
    for seed in seeds:
        path = folder / f"sales-variety-{smoke.generator_fingerprint()}-{seed}-{scale:g}.db"
        if not path.exists():
            generate(path, seed=seed, scale=scale, kind="b2b")
        with OrgStore.open(path) as org:
            out[seed] = distinct_answers(generate_sales_items(org.conn, seed, items))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--items", type=int, default=100)
    parser.add_argument("--within", type=float, default=0.2, help="allowed relative gap")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = smoke.parse(parser, argv, scale=smoke.SMOKE_SCALE, seeds=[1], items=10)
    pro = (  # without the file (a bare clone), crm-tui's counts alone
        distinct_answers(json.loads(PRO_FILE.read_text(encoding="utf-8")))
        if PRO_FILE.exists()
        else {}
    )
    with smoke.bench_folder(args.smoke) as folder:
        ours = measure(folder, args.seeds, args.scale, args.items)
    seeds = " ".join(str(s) for s in args.seeds)
    lines = [
        f"{args.items} items per family on the B2B org of each seed ({seeds}) at scale "
        f"{args.scale:g}; CRMArena-Pro's file has 100 rows per family:",
        "",
        "| family | CRMArena-Pro | crm-tui per seed | within " + f"{args.within:.0%} |",
        "|---|---:|---:|:---:|",
    ]
    for task in SALES_FAMILIES:
        counts = [ours[s].get(task, 0) for s in args.seeds]
        shown = ", ".join(str(c) for c in counts)
        if task not in pro:
            lines.append(f"| {task} | — | {shown} | — |")
            continue
        meets = all(abs(c - pro[task]) <= args.within * pro[task] for c in counts)
        lines.append(f"| {task} | {pro[task]} | {shown} | {'yes' if meets else '**no**'} |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown is not None:
        args.markdown.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
