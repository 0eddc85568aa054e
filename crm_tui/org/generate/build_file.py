"""`generate()`: write a seeded synthetic org to a file, checked, atomically.

The org is written to a temporary file next to `out`, sealed (`OrgStore.finish`), verified
with `check_org`, and only then moved over `out`. On any failure the temporary file is
removed and a `CrmTuiError` names the problem; `out` is never left half-written.
The stages and latent variables are described in `crm_tui.org.generate`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from crm_tui.atomic import check_output_path, replace_file
from crm_tui.errors import CrmTuiError
from crm_tui.org.generate import build
from crm_tui.org.generate.common import NOW, org_id_for_seed
from crm_tui.org.store.check import check_org
from crm_tui.org.store.orgstore import OrgError, OrgStore


@dataclass
class GenerationResult:
    path: Path
    content_hash: str
    counts: dict[str, int]
    total_rows: int
    seconds: float


def _prepare(out: Path, force: bool) -> None:
    check_output_path(out, force=force, what="the org")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OrgError(f"Cannot create the folder {out.parent}: {exc.strerror or exc}") from None


def remove_stale_temporaries(out: Path) -> list[Path]:
    """Remove `.<name>.<pid>.tmp` files beside `out` whose process is gone (a run that was
    killed before it could clean up); a live run's file stays. Returns what was removed."""
    removed = []
    for tmp in out.parent.glob(f".{out.name}.*.tmp"):
        pid_text = tmp.name[len(out.name) + 2 : -len(".tmp")]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
            continue  # alive: another run is writing it
        except ProcessLookupError:
            pass
        except (PermissionError, OverflowError):
            continue  # someone else's process, or not a pid: leave it
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def generate(
    out: Path | str,
    seed: int = 1,
    scale: float = 1.0,
    force: bool = False,
    progress: Callable[[float, str], None] | None = None,
    kind: str = "b2c",
) -> GenerationResult:
    """Generate the org for `seed` and `scale` into `out`; see the module docstring.
    `kind` "b2b" adds the sales objects (`crm_tui.org.generate.sales`) to the service org."""
    started = time.perf_counter()
    out = Path(out)
    if not scale > 0:
        raise OrgError(f"The scale must be a positive number, got {scale}")
    _prepare(out, force)
    remove_stale_temporaries(out)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    store: OrgStore | None = None
    try:
        tmp.unlink(missing_ok=True)
        store = OrgStore.create(tmp, kind)
        counts = build(store, seed, scale, progress, kind)
        store.set_meta("seed", str(seed))
        store.set_meta("scale", repr(float(scale)))
        store.set_meta("org_id", org_id_for_seed(seed))
        store.set_meta("generator", "crm-tui synthetic org v1")
        # The org's "today" (just after its data ends), so SOQL's TODAY or LAST_N_DAYS:30
        # mean something on a generated org.
        store.set_meta("today", NOW.date().isoformat())
        digest = store.finish()
        if progress:
            progress(0.95, "checking integrity")
        report = check_org(store)
        if not report.ok:
            raise OrgError(
                f"The generated org failed its integrity check ({len(report.problems)}"
                f" problems), first: {report.problems[0]}"
            )
        store.close()
        store = None
        replace_file(tmp, out, "the org")
    except BaseException as exc:
        if store is not None:
            store.close()
        tmp.unlink(missing_ok=True)
        if isinstance(exc, CrmTuiError):
            raise
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise OrgError(f"Cannot write the org to {out}: {exc}") from exc
        raise
    if progress:
        progress(1.0, "done")
    return GenerationResult(
        out, digest, counts, sum(counts.values()), time.perf_counter() - started
    )
