"""Org generation timings: seed 1 at scale 1 (CRMArena's size) and scale 10.

Each run writes a fresh org into a temporary folder (generation, search index, content
hash and the integrity check included, as `crm-tui org generate` does) and reports wall
time, CPU time, records and the file's size on disk.

Run: python -m tests.benchmarks.bench_generate [--scales 1 10] [--seed 1] [--smoke]
(prints a Markdown table for the README).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from crm_tui.org.generate.build_file import generate
from tests.benchmarks import smoke


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--seed", type=int, default=1)
    args = smoke.parse(parser, argv, scales=[smoke.SMOKE_SCALE])

    print("| scale | records | cases | wall time | CPU time | size on disk |")
    print("|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            out = Path(tmp) / f"org-{scale:g}.sqlite"
            cpu = time.process_time()
            result = generate(out, seed=args.seed, scale=scale)
            cpu = time.process_time() - cpu
            size = out.stat().st_size / 2**20
            print(
                f"| {scale:g} | {result.total_rows:,} | {result.counts['Case']:,} | "
                f"{result.seconds:.1f} s | {cpu:.1f} s | {size:.1f} MiB |",
                flush=True,
            )
            out.unlink()


if __name__ == "__main__":
    main()
