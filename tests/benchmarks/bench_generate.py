"""Org generation against its floor: `crm-tui org generate` vs replaying the same rows.

For each scale (seed 1), alternating in one run: the program (`crm-tui org generate`, in
its own process: generation, indexes, search index, content hash, integrity check and the
atomic rename) and its floor (in its own process: the rows of the org the program wrote,
replayed with plain `sqlite3.executemany` into a new file with the same schema, journal and
syncing off, then the org's secondary indexes built, its FTS rows inserted and ANALYZE).
The floor's time counts only its writes (executemany, CREATE INDEX, ANALYZE), never its
reading of the source org, so the ratio is the strictest one. Peak RSS is each process's
own (`os.wait4`). Wall times are medians; the load (`os.getloadavg`) is printed with them.

Run: python -m tests.benchmarks.bench_generate [--scales 1 10] [--repeat 3] [--smoke]
(prints a Markdown table for the documentation).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from crm_tui.org.store.orgstore import OrgStore
from tests.benchmarks import smoke

READ_BLOCK = 5000  # rows read from the source org per executemany


@dataclass
class Run:
    seconds: float
    cpu: float  # user + system seconds: what the shared machine's load leaves alone
    peak_mib: float


def _child(args: list[str]) -> tuple[str, Run]:
    """Run `python args...` to its end; its stdout, wall time and peak RSS."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen([sys.executable, *args], stdout=out)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if process.returncode:
        raise SystemExit(f"{args} failed with exit code {process.returncode}")
    return text, Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def program(out: Path, seed: int, scale: float) -> Run:
    return _child(
        [
            "-m",
            "crm_tui",
            "org",
            "generate",
            "--seed",
            str(seed),
            "--scale",
            f"{scale:g}",
            "--out",
            str(out),
            "--force",
        ]
    )[1]


def floor(source: Path, out: Path) -> Run:
    text, run = _child(["-m", "tests.benchmarks.bench_generate", "--replay", str(source), str(out)])
    out.unlink()
    seconds, cpu = map(float, text.split())
    return Run(seconds, cpu, run.peak_mib)


def replay(source: Path, out: Path) -> tuple[float, float]:
    """The floor: `source`'s rows into `out` with plain executemany; wall and CPU seconds
    of writing."""
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    schema = src.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
        "AND name NOT LIKE 'search_index_%' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    tables = [(n, sql) for kind, n, sql in schema if kind == "table"]
    indexes = [sql for kind, _, sql in schema if kind == "index"]
    dst = sqlite3.connect(out)
    writing = [0.0, 0.0]

    def timed(call: object, *args: object) -> None:
        started, cpu = time.perf_counter(), time.process_time()
        call(*args)  # type: ignore[operator]
        writing[0] += time.perf_counter() - started
        writing[1] += time.process_time() - cpu

    timed(dst.execute, "PRAGMA journal_mode = OFF")
    timed(dst.execute, "PRAGMA synchronous = OFF")
    timed(dst.execute, "PRAGMA cache_size = -65536")  # as the program's connection
    for _, sql in tables:
        timed(dst.execute, sql)
    for name, _ in tables:
        quoted = '"' + name.replace('"', '""') + '"'
        columns = "*" if name != "search_index" else "object, record_id, name, body"
        rows = src.execute(f"SELECT {columns} FROM {quoted}")
        while block := rows.fetchmany(READ_BLOCK):
            marks = ", ".join("?" * len(block[0]))
            timed(dst.executemany, f"INSERT INTO {quoted} VALUES ({marks})", block)
    for sql in indexes:
        timed(dst.execute, sql)
    timed(dst.commit)
    timed(dst.execute, "ANALYZE")
    timed(dst.commit)
    dst.close()
    src.close()
    return writing[0], writing[1]


def main(argv: list[str] | None = None) -> None:
    if argv is None and sys.argv[1:2] == ["--replay"]:
        print("{:.3f} {:.3f}".format(*replay(Path(sys.argv[2]), Path(sys.argv[3]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = smoke.parse(parser, argv, scales=[smoke.SMOKE_SCALE], repeat=1)

    print(
        "| scale | records | program wall | floor wall | ratio | program CPU | floor CPU "
        "| ratio | program peak RSS | size on disk | load (1 min) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            org = Path(tmp) / f"org-{scale:g}.sqlite"
            programs: list[Run] = []
            floors: list[Run] = []
            loads: list[float] = []
            for _ in range(args.repeat):
                loads.append(os.getloadavg()[0])
                programs.append(program(org, args.seed, scale))
                floors.append(floor(org, Path(tmp) / "floor.sqlite"))
            with OrgStore.open(org) as store:
                records = sum(store.counts().values())
            wall = statistics.median(r.seconds for r in programs)
            base = statistics.median(r.seconds for r in floors)
            cpu = statistics.median(r.cpu for r in programs)
            base_cpu = statistics.median(r.cpu for r in floors)
            print(
                f"| {scale:g} | {records:,} | {wall:.1f} s | {base:.1f} s | {wall / base:.2f}x "
                f"| {cpu:.1f} s | {base_cpu:.1f} s | {cpu / base_cpu:.2f}x "
                f"| {max(r.peak_mib for r in programs):.0f} MiB "
                f"| {org.stat().st_size / 2**20:.0f} MiB | {statistics.median(loads):.1f} |",
                flush=True,
            )
            # every run, for whoever wants more than the medians
            runs = {"program": [r.seconds for r in programs], "floor": [r.seconds for r in floors]}
            print(json.dumps({"scale": scale, **runs}), file=sys.stderr)
            org.unlink()


if __name__ == "__main__":
    main()
