"""Time task-set generation (9 families x 130 by default) on generated orgs of scale 1 and 10.

Usage: python -m tests.benchmarks.bench_tasks [--scales 1 10] [--repeat 3] [--smoke]
       python -m tests.benchmarks.bench_tasks --org path/to/org.sqlite   # an existing org
       python -m tests.benchmarks.bench_tasks --baseline /tmp/old   # and an older tree's command
Prints a Markdown table for the documentation's `tasks` section, alternating round by round:
the whole command (`crm-tui tasks generate` in a process of its own: start-up, the damage
check, generation, writing the file; byte code cached, as an installed package has it),
the generation alone in this process, and its floor: reading what the draft functions
sample from (`OrgFacts`, `GoldRows`), which every generation must do once; below the
table, per org, the damage check the command runs beside the generation. Wall and CPU
medians; a process's CPU counts all its threads. `--baseline` times, in the same rounds,
the command of another source tree (`git archive <commit> crm_tui tasks | tar -x -C DIR`)
on the same org, checks both write the same file, and prints the ratios of the medians.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from crm_tui.org.generate.build_file import generate
from crm_tui.org.store.check import find_damage
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.gold_rows import GoldRows
from crm_tui.tasks.org_facts import OrgFacts
from tests.benchmarks import smoke


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def timed_command(org: Path, out: Path, per_task: int, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of `crm-tui tasks generate` in a process of its own."""
    argv = [sys.executable, "-m", "crm_tui", "tasks", "generate", "--org", str(org)]
    argv += ["--per-task", str(per_task), "--out", str(out), "--force"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    # From the output's folder: run from a source tree, `-m` would import that tree.
    subprocess.run(argv, env=env, cwd=out.parent, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def check_imported_from(tree: Path, env: dict[str, str], folder: Path) -> None:
    """Stop unless the baseline's processes import crm_tui from `tree`."""
    argv = [sys.executable, "-c", "import crm_tui; print(crm_tui.__file__)"]
    found = subprocess.run(argv, env=env, cwd=folder, capture_output=True, text=True)
    if not found.stdout.startswith(str(tree.resolve())):
        raise SystemExit(f"the baseline imports crm_tui from {found.stdout.strip()}, not {tree}")


def ratio(times: list[tuple[float, float]], base: list[tuple[float, float]], k: int) -> str:
    return f"{statistics.median(t[k] for t in times) / statistics.median(t[k] for t in base):.2f}x"


def medians(times: list[tuple[float, float]]) -> str:
    wall, cpu = (statistics.median(t[k] for t in times) for k in (0, 1))
    return f"{wall:.2f} / {cpu:.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--org", type=Path, action="append", default=[])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-task", type=int, default=130)
    parser.add_argument("--baseline", type=Path, help="a source tree whose command to time too")
    args = smoke.parse(parser, argv, scales=[smoke.SMOKE_SCALE], repeat=1, per_task=5, org=[])
    baseline = " | the baseline's command, wall / CPU s" if args.baseline else ""
    print(
        f"| org | cases | instances | None | command wall / CPU s (median of {args.repeat}) "
        f"| generation wall / CPU s | floor: reading the facts, wall / CPU s{baseline} |\n"
        "|---|---|---|---|---|---|---|" + ("---|" if args.baseline else "")
    )
    loads: list[str] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        # Byte code cached in a folder of its own (written by a first, untimed run), even
        # where PYTHONDONTWRITEBYTECODE is set: the command as installed runs it.
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(folder) / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        old_env = dict(env, PYTHONPATH=str(args.baseline.resolve())) if args.baseline else env
        out, old_out = Path(folder) / "tasks.json", Path(folder) / "baseline.json"
        orgs = [(str(path), path) for path in args.org]
        for scale in args.scales if not args.org else []:
            path = Path(folder) / f"scale{scale:g}.sqlite"
            generate(path, seed=1, scale=scale)
            orgs.append((f"scale {scale:g}", path))
        for label, path in orgs:
            load = os.getloadavg()[0]
            command, program, floor, old, damage = [], [], [], [], []
            timed_command(path, out, args.per_task, env)  # writes the byte code
            if args.baseline:
                check_imported_from(args.baseline, old_env, old_out.parent)
                timed_command(path, old_out, args.per_task, old_env)
                if old_out.read_bytes() != out.read_bytes():
                    raise SystemExit(f"{label}: the baseline's task set differs from this one's")
            with OrgStore.open(path) as store:
                for _ in range(args.repeat):
                    if args.baseline:
                        old.append(timed_command(path, old_out, args.per_task, old_env))
                    command.append(timed_command(path, out, args.per_task, env))
                    program.append(
                        timed(lambda: generate_taskset(store, per_task=args.per_task, seed=1))
                    )
                    floor.append(timed(lambda: (OrgFacts.read(store), GoldRows.read(store))))
                    damage.append(timed(lambda: find_damage(store)))
                taskset = generate_taskset(store, per_task=args.per_task, seed=1)
                cases = store.count("Case")
            nones = Counter(i.answer is None for i in taskset.instances)[True]
            print(
                f"| {label} | {cases:,} | {len(taskset):,} | {nones} | {medians(command)} "
                f"| {medians(program)} | {medians(floor)} |"
                + (f" {medians(old)} |" if args.baseline else "")
            )
            notes.append(f"{label}: the damage check alone, wall / CPU s: {medians(damage)}")
            if args.baseline:
                wall, cpu = (ratio(command, old, k) for k in (0, 1))
                notes.append(f"{label}: the command against the baseline's: wall {wall}, CPU {cpu}")
            loads.append(f"{label}: load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print("\n" + "\n".join(notes + loads))


if __name__ == "__main__":
    main()
