"""What every benchmark script shares: the `--smoke` flag, its folder and its org.

`--smoke` runs a script at tiny sizes (an org at scale 0.1, one repeat, a few instances)
with every file in a fresh temporary folder, and prints the same tables: the figures mean
nothing, the run shows the script still works (tests/test_benchmark_scripts.py runs every
script this way). Not a script itself: it has no `__main__` block.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from crm_tui.tasks.taskset import TaskSet, load_taskset
from tests.helpers.paths import CRMARENA_TASKS

SMOKE_SCALE = 0.1
# exit status of a script that needs CRMArena's task file where there is none (a bare
# clone): the smoke test skips it, as autotools' tests do on 77
NO_CRMARENA_EXIT = 77
SMOKE_HELP = (
    "tiny sizes (an org at scale 0.1, one repeat), files in a fresh temporary folder: "
    "shows the script still runs, the figures mean nothing"
)


def parse(
    parser: argparse.ArgumentParser, argv: list[str] | None = None, **smoke_values: Any
) -> argparse.Namespace:
    """Add `--smoke` to `parser` and parse; with `--smoke`, `smoke_values` replace the
    options of the same name (e.g. `scale=SMOKE_SCALE, repeat=1`)."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args(argv)
    if args.smoke:
        for name, value in smoke_values.items():
            setattr(args, name, value)
    return args


def smoke_only(description: str | None, argv: list[str] | None = None) -> bool:
    """For a script without options of its own: parse `--smoke` alone; whether it was given."""
    first_line = (description or "").strip().split("\n")[0]
    return bool(parse(argparse.ArgumentParser(description=first_line), argv).smoke)


@contextmanager
def bench_folder(smoke: bool) -> Iterator[Path]:
    """Where a script keeps its orgs and certificates: the system's temp folder, so that
    full runs reuse the (slow to generate) orgs of earlier runs; with `--smoke` a fresh
    folder removed afterwards, so a smoke run never reuses an org of an older generator."""
    if not smoke:
        yield Path(tempfile.gettempdir())
        return
    with tempfile.TemporaryDirectory(prefix="crm-tui-smoke-") as name:
        yield Path(name)


# What makes an org's content: the generator, the schema, and the store module that
# writes the tables and indexes (the store's other modules only read an org).
_GENERATOR_SOURCES = ("generate/*.py", "schema/*.py", "store/orgstore.py")


def generator_fingerprint() -> str:
    """A short hash of the source that makes an org (`_GENERATOR_SOURCES`): an org cached
    by an older (or another checkout's) generator is never taken for this one's."""
    import hashlib

    import crm_tui.org

    package = Path(crm_tui.org.__file__).parent
    digest = hashlib.sha256()
    for source in sorted(path for part in _GENERATOR_SOURCES for path in package.glob(part)):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:10]


def task_org(folder: Path, scale: float, seed: int = 1, kind: str = "b2c") -> Path:
    """The org of `kind` ("b2c" or "b2b") generated at `scale` and `seed` in `folder` by
    this generator, generated now if the file is missing."""
    name = f"{scale:g}x" if kind == "b2c" else f"{kind}-{scale:g}x"
    path = folder / f"crm-tui-bench-{name}-seed{seed}-{generator_fingerprint()}.sqlite"
    if not path.exists():
        from crm_tui.org.generate.build_file import generate

        print(f"generating a {scale:g}x {kind} org into {path} ...", file=sys.stderr)
        generate(path, seed=seed, scale=scale, kind=kind)
    return path


def crmarena_taskset(smoke: bool, per_task: int = 2) -> TaskSet:
    """CRMArena's task set (tests/helpers/paths.py finds it); with `--smoke` only the first
    `per_task` instances of each family. Without the file: exits with NO_CRMARENA_EXIT."""
    if not CRMARENA_TASKS.exists():
        print(f"CRMArena's task file is not at {CRMARENA_TASKS}", file=sys.stderr)
        raise SystemExit(NO_CRMARENA_EXIT)
    taskset = load_taskset(CRMARENA_TASKS)
    if smoke:
        kept = [i for rows in taskset.by_task().values() for i in rows[:per_task]]
        taskset = TaskSet(kept, taskset.fingerprint, taskset.source)
    return taskset
