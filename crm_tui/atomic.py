"""Writing a file whole or not at all: a temporary file in the same folder, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from crm_tui.errors import CrmTuiError


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


def write_text_atomically(path: str | Path, text: str) -> None:
    """Write `text` to `path` so readers see the old file or the new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
