"""Processes a test started, found through Linux's /proc: a server's children."""

from __future__ import annotations

from pathlib import Path


def child_pids(pid: int) -> list[int]:
    """Processes whose parent is `pid` (a server's tab apps or query workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found
