"""Writing a file whole or not at all: a temporary file in the same folder, then a rename.

Files that hold gold answers or one person's work (study files, task sets, reports,
per-profile histories) are private: 0600, in folders made 0700. `PRIVATE_FILE` and
`PRIVATE_FOLDER` say so here, once."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from crm_tui.errors import CrmTuiError

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def private_folders(folder: str | Path) -> None:
    """Make `folder` and its missing parents, each 0700. Folders that exist already are
    left as they are (a task set written to the current folder must not close it)."""
    folder = Path(folder)
    missing = [f for f in (folder, *folder.parents) if not f.exists()]
    for one in reversed(missing):
        one.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
        os.chmod(one, PRIVATE_FOLDER)  # mkdir's mode passes through the umask


def create_private_file(path: str | Path) -> None:
    """An empty file only its owner reads (0600) in private folders, for a program such as
    SQLite to fill: it gives its -wal and -shm files the same mode."""
    path = Path(path)
    private_folders(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output_path(path: str | Path, *, force: bool, what: str = "the output") -> None:
    """Refuse (CrmTuiError, one line naming the path) an output the command cannot or must
    not write: a folder, an existing file without --force, a parent that is a file or not
    writable. Call before any work so that a refused command leaves nothing behind."""
    path = Path(path)
    if path.is_dir():
        raise CrmTuiError(f"Cannot write {what} to {path}: it is a folder")
    if path.exists() and not force:
        raise CrmTuiError(f"{path} already exists (use --force to replace it)")
    parent = path.parent
    for folder in (parent, *parent.parents):
        if folder.exists() and not folder.is_dir():
            raise CrmTuiError(f"Cannot write {what} to {path}: {folder} is a file, not a folder")
        if folder.exists():
            writable = os.access(folder, os.W_OK)
            if not writable:
                raise CrmTuiError(
                    f"Cannot write {what} to {path}: the folder {folder} is not writable"
                )
            break


def write_text_atomically(path: str | Path, text: str, *, private: bool = False) -> None:
    """Write `text` to `path` so readers see the old file or the new one, never a part;
    `private`: 0600, and missing folders 0700."""
    path = Path(path)
    if private:
        private_folders(path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); else give it the mode a plain open() would.
        os.fchmod(fd, PRIVATE_FILE if private else 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
