"""Where crm-tui keeps its data, and where its bundled data folders are.

Per-user data folder (platformdirs): ~/.local/share/crm-tui on Linux,
~/Library/Application Support/crm-tui on macOS, %LOCALAPPDATA%\\crm-tui on Windows.
Environment variables override: CRM_TUI_HOME (the whole folder), CRM_TUI_ORG (the org
file), CRM_TUI_TASKS (the task set), CRM_TUI_STUDY (the study database).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

PACKAGE_DIR = Path(__file__).resolve().parent


def data_home() -> Path:
    return Path(os.environ.get("CRM_TUI_HOME") or user_data_dir("crm-tui", appauthor=False))


def default_org_path() -> Path:
    return Path(os.environ.get("CRM_TUI_ORG") or data_home() / "orgs" / "default.sqlite")


def default_taskset_path() -> Path:
    return Path(os.environ.get("CRM_TUI_TASKS") or data_home() / "tasks" / "default.json")


def default_study_path() -> Path:
    return Path(os.environ.get("CRM_TUI_STUDY") or data_home() / "study.sqlite")


def bundled_dir(name: str) -> Path:
    """`tasks` or `annotations`: inside the wheel (crm_tui/_data) or the checkout's top level."""
    installed = PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    return PACKAGE_DIR.parent / name
