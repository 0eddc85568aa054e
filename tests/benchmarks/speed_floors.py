"""The speed table in one run: every measure next to its floor, alternating.

Each row is the program and its floor timed round by round in turn (so a change of load
hits both), with medians, the ratio, the target and whether it is met:

- `crm-tui org generate` against replaying its rows with plain `executemany` into the
  same schema, indexes, FTS rows and ANALYZE (`bench_generate`); at scale 100 also the
  absolute bars, wall under 60 s and peak RSS under 600 MiB;
- `crm-tui tasks generate` (a process of its own) against reading what its drafts sample
  from (`bench_tasks`); the bar is the command under 1 s at scale 10;
- SOQL answers of thousands of records and a semi-join against the same rows as plain
  SQL, through the SOQL engine in process and through the loopback server read by
  simple-salesforce, by default and as the app reads (`soql_latency`), at 100x;
- `crm-tui --version` and the app's warm start to its first screen against `python -c
  pass`, and Textual alone painting a prompt and an Input (`bench_startup`);
- with `--suite`, the README's test command (`pytest`), whose bar is its wall time.

Run: python -m tests.benchmarks.speed_floors [--repeat 5] [--generate-scales 10 100]
     [--generate-repeat 3] [--tasks-scale 10] [--soql-scale 100] [--suite]
     [--markdown docs/snippets/speed_floors.md]
With `--markdown OUT` it also writes the table, with the run's date, command, CPU and load,
as the fragment the documentation's performance page includes.
The orgs of the tasks and SOQL rows are cached in the system's temp folder by the
generator's source (`smoke.task_org`); the generate rows make fresh ones each round.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks import bench_generate, bench_startup, bench_tasks, smoke, soql_latency
from tests.helpers.paths import ROOT

Times = list[tuple[float, float]]  # (wall, CPU) seconds per round


@dataclass
class Row:
    measure: str
    program: Times
    floor: Times
    target: str  # the bar, in words
    met: bool | None  # None: no bar for this row (shown for what it tells)

    def cells(self) -> list[str]:
        wall, cpu = _median(self.program, 0), _median(self.program, 1)
        floor_wall, floor_cpu = _median(self.floor, 0), _median(self.floor, 1)
        ratio = f"{wall / floor_wall:.2f}x / {cpu / floor_cpu:.2f}x" if self.floor else ""
        floor = f"{_shown(floor_wall)} ({_shown(floor_cpu)})" if self.floor else "none"
        verdict = "" if self.met is None else ("met" if self.met else "not met")
        return [
            self.measure,
            f"{_shown(wall)} ({_shown(cpu)})",
            floor,
            ratio,
            self.target,
            verdict,
        ]


def _median(times: Times, k: int) -> float:
    return statistics.median(t[k] for t in times) if times else 0.0


def _shown(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def _ratio(row: Row) -> float:
    return _median(row.program, 0) / _median(row.floor, 0)


def alternate(
    rounds: int,
    program: Callable[[], tuple[float, float]],
    floor: Callable[[], tuple[float, float]],
) -> tuple[Times, Times]:
    programs: Times = []
    floors: Times = []
    for _ in range(rounds):
        programs.append(program())
        floors.append(floor())
    return programs, floors


def generation_rows(scale: float, repeat: int, folder: Path) -> list[Row]:
    org, replayed = folder / "generated.sqlite", folder / "replayed.sqlite"
    runs: list[bench_generate.Run] = []

    def program() -> tuple[float, float]:
        runs.append(bench_generate.program(org, 1, scale))
        return runs[-1].seconds, runs[-1].cpu

    def floor() -> tuple[float, float]:
        run = bench_generate.floor(org, replayed)
        return run.seconds, run.cpu

    programs, floors = alternate(repeat, program, floor)
    org.unlink()
    measure = f"`org generate`, scale {scale:g}, against its floor"
    ratio = Row(measure, programs, floors, "≤ 1.5x", None)
    cpu_ratio = _median(programs, 1) / _median(floors, 1)
    ratio.met = _ratio(ratio) <= 1.5 and cpu_ratio <= 1.5
    rows = [ratio]
    if scale == 100:
        peak = max(run.peak_mib for run in runs)
        rows.append(
            Row(
                "`org generate`, scale 100, wall", programs, [], "< 60 s", _median(programs, 0) < 60
            )
        )
        rows.append(
            Row(
                f"`org generate`, scale 100, peak RSS {peak:.0f} MiB",
                programs,
                [],
                "< 600 MiB",
                peak < 600,
            )
        )
    return rows


def tasks_row(scale: float, per_task: int, repeat: int, cached: Path, folder: Path) -> Row:
    from crm_tui.org.store.orgstore import OrgStore
    from crm_tui.tasks.gold_rows import GoldRows
    from crm_tui.tasks.org_facts import OrgFacts

    org = smoke.task_org(cached, scale)
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as an installed package
    out = folder / "tasks.json"
    bench_tasks.timed_command(org, out, per_task, env)  # untimed: writes the byte code
    with OrgStore.open(org) as store:
        programs, floors = alternate(
            repeat,
            lambda: bench_tasks.timed_command(org, out, per_task, env),
            lambda: bench_tasks.timed(lambda: (OrgFacts.read(store), GoldRows.read(store))),
        )
    out.unlink()
    met = _median(programs, 0) < 1 if scale == 10 else None  # the bar is at scale 10
    return Row(
        f"`tasks generate`, scale {scale:g}, against reading its facts",
        programs,
        floors,
        "< 1 s at scale 10",
        met,
    )


def soql_rows(scale: float, repeat: int, folder: Path) -> list[Row]:
    org = smoke.task_org(folder, scale)
    with tempfile.TemporaryDirectory() as work:
        measured = soql_latency.measure_side_by_side(org, repeat, Path(work))
    rows = []
    for m in measured:
        # The script keeps medians only: one round of each, at the medians.
        program = [(m.wall / 1000, m.cpu / 1000)]
        floor = [(m.floor_wall / 1000, m.floor_cpu / 1000)]
        row = Row(
            f"{m.name}, {m.records:,} records, {m.path}, {scale:g}x", program, floor, "≤ 2x", None
        )
        row.met = _ratio(row) <= 2
        rows.append(row)
    return rows


def startup_rows(repeat: int, scale: float, folder: Path) -> list[Row]:
    os.environ["CRM_TUI_HOME"] = str(folder / "home")
    for name in ("CRM_TUI_ORG", "CRM_TUI_TASKS", "CRM_TUI_STUDY", "CRM_TUI_STUDY_URL"):
        os.environ.pop(name, None)
    bench_startup.make_data_folder(folder, scale)  # the default org, task set and study
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = bench_startup.crm_tui_command()
    nothing = [sys.executable, "-c", "pass"]
    bench_startup.time_process([*command, "--version"], env)  # untimed: byte code
    bench_startup.time_first_screen(command, env)
    version = alternate(
        repeat,
        lambda: bench_startup.time_process([*command, "--version"], env),
        lambda: bench_startup.time_process(nothing, env),
    )
    textual_alone = [sys.executable, "-c", bench_startup.TEXTUAL_ALONE]
    app = alternate(
        repeat,
        lambda: bench_startup.time_first_screen(command, env),
        lambda: bench_startup.time_first_screen(textual_alone, env),
    )
    return [
        Row(
            "`crm-tui --version`, against `python -c pass`",
            *version,
            "< 0.3 s",
            _median(version[0], 0) < 0.3,
        ),
        Row(
            "the app to its first screen (warm), against Textual alone painting a prompt",
            *app,
            "< 0.8 s",
            _median(app[0], 0) < 0.8,
        ),
    ]


def suite_row() -> Row:
    """The README's test command, once (its wall time is the bar; CI prints its own)."""
    started, cpu = time.perf_counter(), bench_startup.children_cpu()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - started
    summary = re.findall(r"^=*\s*(\d+ passed.*) in [\d.]+s", run.stdout, re.MULTILINE)
    measure = f"`pytest` ({summary[-1] if summary else 'no summary: exit ' + str(run.returncode)})"
    return Row(measure, [(wall, bench_startup.children_cpu() - cpu)], [], "< 90 s", wall < 90)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds of each measure")
    parser.add_argument("--generate-scales", type=float, nargs="+", default=[10.0])
    parser.add_argument("--generate-repeat", type=int, default=3)
    parser.add_argument("--tasks-scale", type=float, default=10.0)
    parser.add_argument("--per-task", type=int, default=130, help="tasks generate's")
    parser.add_argument("--soql-scale", type=float, default=100.0)
    parser.add_argument("--startup-scale", type=float, default=1.0, help="the default org's")
    parser.add_argument("--suite", action="store_true", help="also time the test suite")
    parser.add_argument(
        "--markdown",
        metavar="OUT",
        default=None,
        help="also write the table with the run's date, CPU and load to OUT (the docs' "
        "performance page includes docs/snippets/speed_floors.md)",
    )
    args = smoke.parse(
        parser,
        argv,
        repeat=1,
        generate_scales=[smoke.SMOKE_SCALE],
        generate_repeat=1,
        tasks_scale=smoke.SMOKE_SCALE,
        per_task=5,
        soql_scale=smoke.SMOKE_SCALE,
        startup_scale=0.02,
        suite=False,
    )
    load = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M %Z")
    with smoke.bench_folder(args.smoke) as cached, tempfile.TemporaryDirectory() as fresh:
        rows = [
            row
            for scale in args.generate_scales
            for row in generation_rows(scale, args.generate_repeat, Path(fresh))
        ]
        rows.append(tasks_row(args.tasks_scale, args.per_task, args.repeat, cached, Path(fresh)))
        rows += soql_rows(args.soql_scale, args.repeat, cached)
        rows += startup_rows(args.repeat, args.startup_scale, Path(fresh))
        if args.suite:
            rows.append(suite_row())
    loads = f"1-minute load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
    table = table_lines(rows)
    print(f"medians; {loads}")
    print()
    print("\n".join(table))
    if args.markdown:
        command = shlex.join(["python", "-m", "tests.benchmarks.speed_floors", *sys.argv[1:]])
        conditions = [
            f"Run on {started} with `{command}`"
            + (" (smoke sizes: the figures mean nothing)" if args.smoke else "")
            + ".",
            f"CPU: {cpu_model()}, {os.cpu_count()} logical cores; {loads}; "
            f"Python {platform.python_version()} on {platform.system()}.",
            "Each cell is the median over the rounds; program and floor alternate round by "
            "round, so a change of load hits both.",
        ]
        page = "\n".join(conditions) + "\n\n" + "\n".join(table) + "\n"
        Path(args.markdown).write_text(page, encoding="utf-8")
        print(f"\nwritten: {args.markdown}")


def table_lines(rows: list[Row]) -> list[str]:
    """The Markdown table: every measure next to its floor, the ratio, the bar, the verdict."""
    lines = [
        "| measure | program wall (CPU) | floor wall (CPU) | ratio to the floor, wall / CPU "
        "| target | |",
        "|---|---:|---:|---:|---|---|",
    ]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return lines


def cpu_model() -> str:
    """The processor's name as the system gives it (Linux: /proc/cpuinfo)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


if __name__ == "__main__":
    main()
