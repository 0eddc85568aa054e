"""Writing a file whole or not at all: a temporary file in the same folder, then a rename.

Only a regular file is ever replaced, or a new path written: a named pipe, a device node, a
socket, or a symbolic link to one (or to nothing) is refused, by the up-front check
(`check_output_path`) and again by the rename itself (`replace_file`), which every writer
uses. Reading takes the same care (`read_regular_file`): a pipe would hang the reader, a
device such as /dev/zero never end.

Files that hold gold answers or one person's work (study files, task sets, reports,
per-profile histories) are private: 0600, in folders made 0700. `PRIVATE_FILE` and
`PRIVATE_FOLDER` say so here, once."""

from __future__ import annotations

import os
import stat
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
    refuse_special_file(path, what)
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


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a special file"


def refuse_special_file(path: str | Path, what: str = "the output") -> None:
    """Refuse (CrmTuiError) a path that exists as anything but a regular file, or a symbolic
    link to anything but one: a writer would put a regular file in its place."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode  # follows a link; never opens (a pipe would block)
    except (FileNotFoundError, NotADirectoryError):  # a new path (its parents: the caller's)
        if os.path.islink(path):
            raise CrmTuiError(
                f"Cannot write {what} to {path}: it is a link to nothing, not a regular file"
            ) from None
        return
    except OSError as exc:
        raise CrmTuiError(f"Cannot write {what} to {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        link = "a link to " if os.path.islink(path) else ""
        raise CrmTuiError(
            f"Cannot write {what} to {path}: it is {link}{_kind(mode)}, not a regular file"
        )


def replace_file(tmp: str | Path, path: str | Path, what: str = "the output") -> None:
    """Rename the finished `tmp` to `path`, unless `path` has become something other than a
    regular file since it was checked (then `tmp` stays for the caller to remove)."""
    refuse_special_file(path, what)
    os.replace(tmp, path)


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
        replace_file(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_regular_file(path: str | Path, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or a CrmTuiError naming it."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the open
    except OSError as exc:
        raise CrmTuiError(f"Cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise CrmTuiError(f"{path}: {kind}; {what} must be a regular file")
        if info.st_size > limit:
            raise CrmTuiError(
                f"{path}: larger than {_size(limit)} ({info.st_size:,} bytes); not read as {what}"
            )
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise CrmTuiError(f"Cannot read {what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # grew while read
        raise CrmTuiError(f"{path}: larger than {_size(limit)}; not read as {what}")
    return data


def _size(limit: int) -> str:
    return f"{limit >> 20} MB" if limit >= 1 << 20 else f"{limit >> 10} KB"
