"""The local defaults a command falls back to without --org or --task-set, made on first use.

A command that needs the default org or task set on a fresh home makes them (with the
practice study) as the app's first run does, saying so on stderr, rather than failing with
"No org at ...": `crm-tui tasks generate --out tasks.json` works as the documentation shows it.
"""

from __future__ import annotations

from pathlib import Path

from crm_tui import paths


def default_org() -> Path:
    """The local default org, made first if missing."""
    return _made(paths.default_org_path())


def default_taskset() -> Path:
    """The local default task set (generated from the default org), made first if missing."""
    return _made(paths.default_taskset_path())


def _made(path: Path) -> Path:
    if not path.exists():
        from crm_tui.cli.org import ensure_first_run

        ensure_first_run()
    return path
