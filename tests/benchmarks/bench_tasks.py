"""Time task-set generation (9 families x 130) on generated orgs of scale 1 and 10.

Usage: python -m tests.benchmarks.bench_tasks [--scales 1 10] [--repeat 3]
Prints a Markdown table for the README's `tasks` section.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from crm_tui.bench.generate import generate_taskset
from crm_tui.org.generate.build_file import generate
from crm_tui.org.store.orgstore import OrgStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        "| org scale | cases | instances | None | generation (median of "
        f"{args.repeat}) |\n|---|---|---|---|---|"
    )
    with tempfile.TemporaryDirectory() as folder:
        for scale in args.scales:
            path = Path(folder) / f"scale{scale:g}.sqlite"
            generate(path, seed=1, scale=scale)
            times = []
            with OrgStore.open(path) as store:
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    taskset = generate_taskset(store, per_task=130, seed=1)
                    times.append(time.perf_counter() - started)
                cases = store.count("Case")
            nones = Counter(i.answer is None for i in taskset.instances)[True]
            print(
                f"| {scale:g} | {cases:,} | {len(taskset):,} | {nones} | "
                f"{statistics.median(times):.2f} s |"
            )


if __name__ == "__main__":
    main()
