"""Where `org generate` spends its CPU and memory: each stage's share, one run per scale.

The generator runs in this process (seed 1) with a timer around each stage: the five
generator stages (people, products, orders, knowledge, cases: rows made in Python and
written), then `OrgStore.finish`'s indexes, search index and content hash, and the
integrity check; "other" is the rest (ANALYZE, metadata, the rename). Each stage's CPU
seconds (`time.process_time`), its share of the run, and the process's peak RSS when the
stage ends (VmHWM: the peak so far). The load (`os.getloadavg`) is printed with them.

Run: python -m tests.benchmarks.bench_generate_stages [--scales 10] [--smoke]
(prints a Markdown table per scale).
"""

from __future__ import annotations

import argparse
import importlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crm_tui.org.generate import build_file
from crm_tui.org.store.orgstore import OrgStore
from tests.benchmarks import smoke

GENERATOR_STAGES = ("people", "products", "orders", "knowledge", "cases")


def peak_rss_mib() -> float:
    """The process's peak resident memory so far (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Stages:
    """CPU seconds and peak RSS per stage, by wrapping each stage's function."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.peak: dict[str, float] = {}
        self.undo: list[Callable[[], None]] = []

    def wrap(self, owner: Any, attribute: str, name: str) -> None:
        original = getattr(owner, attribute)

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - started
                self.peak[name] = peak_rss_mib()

        setattr(owner, attribute, timed)
        self.undo.append(lambda: setattr(owner, attribute, original))

    def restore(self) -> None:
        while self.undo:
            self.undo.pop()()


def measure(scale: float, out: Path) -> tuple[Stages, float]:
    """Generate the seed-1 org at `scale` into `out`; the stages and the total CPU."""
    stages_seen = Stages()
    for name in GENERATOR_STAGES:
        # `build` imports its stages when it runs: import each here to wrap it first.
        stages_seen.wrap(importlib.import_module(f"crm_tui.org.generate.{name}"), "build", name)
    stages_seen.wrap(OrgStore, "build_indexes", "indexes")
    stages_seen.wrap(OrgStore, "build_search_index", "search index")
    stages_seen.wrap(OrgStore, "content_hash", "content hash")
    stages_seen.wrap(build_file, "check_org", "integrity check")
    started = time.process_time()
    try:
        build_file.generate(out, seed=1, scale=scale, force=True)
    finally:
        stages_seen.restore()
    return stages_seen, time.process_time() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[10.0])
    args = smoke.parse(parser, argv, scales=[smoke.SMOKE_SCALE])
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            load = os.getloadavg()[0]
            seen, total = measure(scale, Path(tmp) / "org.sqlite")
            print(f"\nScale {scale:g}: {total:.1f} s CPU, 1-minute load {load:.1f}\n")
            print("| stage | CPU | share | peak RSS so far |")
            print("|---|---:|---:|---:|")
            for name, cpu in seen.cpu.items():
                print(
                    f"| {name} | {cpu:.2f} s | {100 * cpu / total:.0f}% "
                    f"| {seen.peak[name]:.0f} MiB |"
                )
            other = total - sum(seen.cpu.values())
            print(f"| other | {other:.2f} s | {100 * other / total:.0f}% | |", flush=True)
            (Path(tmp) / "org.sqlite").unlink()


if __name__ == "__main__":
    main()
