"""B2B org generation against B2C's, per record, and the sales gold at a larger scale.

For each scale (seed 1): `generate` of the B2C org and of the B2B org in this process
(median of `--repeat` runs each), seconds per thousand records and their ratio; then the
sales families generated on the largest B2B org, each gold checked the second way of
tests/tasks/test_sales_families.py.

Run: python -m tests.benchmarks.bench_b2b [--scales 1 3] [--repeat 3] [--smoke]
(prints a Markdown table).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
from pathlib import Path

from crm_tui.org.generate.build_file import generate
from crm_tui.tasks.sales_families import generate_sales_items
from tests.tasks.test_sales_families import check_items


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 3.0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one run")
    args = parser.parse_args()
    scales, repeat = ([0.1], 1) if args.smoke else (args.scales, args.repeat)
    print("| scale | B2C records | B2C ms/1k | B2B records | B2B ms/1k | ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        last = Path(folder) / "b2b.db"
        for scale in scales:
            per_k = {}
            rows = {}
            for kind in ("b2c", "b2b"):
                times = []
                for _ in range(repeat):
                    out = Path(folder) / f"{kind}.db"
                    result = generate(out, seed=1, scale=scale, force=True, kind=kind)
                    times.append(result.seconds)
                    rows[kind] = result.total_rows
                per_k[kind] = 1000 * 1000 * statistics.median(times) / rows[kind]
            print(
                f"| {scale:g} | {rows['b2c']:,} | {per_k['b2c']:.1f} | {rows['b2b']:,} "
                f"| {per_k['b2b']:.1f} | {per_k['b2b'] / per_k['b2c']:.2f} |"
            )
        conn = sqlite3.connect(last)
        items = generate_sales_items(conn, 1, 20 if args.smoke else 100)
        check_items(items, conn)
        conn.close()
        print(f"\nsales gold at scale {scales[-1]:g}: {len(items)} items agree with the second way")


if __name__ == "__main__":
    main()
