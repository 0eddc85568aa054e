"""Time task-set generation (9 families x 130 by default) on generated orgs of scale 1 and 10.

Usage: python -m tests.benchmarks.bench_tasks [--scales 1 10] [--repeat 3] [--smoke]
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
from tests.benchmarks import smoke


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-task", type=int, default=130)
    args = smoke.parse(parser, argv, scales=[smoke.SMOKE_SCALE], repeat=1, per_task=5)
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
                    taskset = generate_taskset(store, per_task=args.per_task, seed=1)
                    times.append(time.perf_counter() - started)
                cases = store.count("Case")
            nones = Counter(i.answer is None for i in taskset.instances)[True]
            print(
                f"| {scale:g} | {cases:,} | {len(taskset):,} | {nones} | "
                f"{statistics.median(times):.2f} s |"
            )


if __name__ == "__main__":
    main()
