"""A whole copy of a study file, for offline work: SQLite's backup API reads the file and
its -wal (the latest writes, not yet in the file itself) in one consistent snapshot, while
people may go on working on it. A plain `cp` of the file alone can miss those writes.

The copy is written beside its destination under a temporary name, private (0600), with
no -wal of its own, then renamed into place: a reader never sees half a copy."""

from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from crm_tui.atomic import PRIVATE_FILE
from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation, is_database_url
from crm_tui.study.store.db import StudyStore

PAGES_PER_STEP = 1024  # the backup copies this many pages, then lets writers in


@dataclass(frozen=True)
class CopiedStudy:
    path: Path
    size: int  # bytes


def copy_study_file(source: StudyLocation, out: Path, *, force: bool) -> CopiedStudy:
    """Copy the study file `source` to `out` (refused over an existing file without
    `force`, and over anything but a regular file)."""
    if is_database_url(source):
        raise CrmTuiError(
            "study copy copies a study file; a study on a server is copied with the "
            "server's own tools (pg_dump)"
        )
    source = Path(source)
    with StudyStore.open_read_only(source):  # a study file, whole: else its one-line refusal
        pass
    out = Path(out)
    if out.exists() or out.is_symlink():
        if not stat.S_ISREG(out.lstat().st_mode):
            raise CrmTuiError(f"{out} is not a regular file: study copy writes only those")
        if out.resolve() == source.resolve():
            raise CrmTuiError(f"{out} is the same file as the study: copy it elsewhere")
        if not force:
            raise CrmTuiError(f"{out} exists; add --force to replace it")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise CrmTuiError(f"Cannot write the copy to {out}: no folder {folder}")
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".copying")
    tmp = Path(tmp_name)
    try:
        os.fchmod(fd, PRIVATE_FILE)
        os.close(fd)
        reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
        writer = sqlite3.connect(tmp)
        try:
            reader.backup(writer, pages=PAGES_PER_STEP)
            # One file, no -wal beside it: the next opening turns WAL on again.
            writer.execute("PRAGMA journal_mode = DELETE")
        finally:
            writer.close()
            reader.close()
        for stale in (Path(f"{out}-wal"), Path(f"{out}-shm")):  # of a file being replaced
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
        os.replace(tmp, out)
    except sqlite3.Error as exc:
        tmp.unlink(missing_ok=True)
        raise CrmTuiError(f"Cannot copy {source}: {exc}") from None
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CrmTuiError(f"Cannot write the copy to {out}: {exc.strerror}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return CopiedStudy(out, out.stat().st_size)
