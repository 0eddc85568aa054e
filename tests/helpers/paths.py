"""Where the tests find their files: the checkout, its test data and the shared CRMArena files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
AGENTS = DATA / "agents"
# CRM_TUI_TEST_SHARED=/nowhere shows what a bare clone without ../shared runs.
SHARED = Path(os.environ.get("CRM_TUI_TEST_SHARED") or ROOT.parent / "shared")
CRMARENA_DIR = SHARED / "crmarena"
CRMARENA_TASKS = CRMARENA_DIR / "tasks_natural.json"

needs_crmarena = pytest.mark.skipif(
    not CRMARENA_TASKS.exists(),
    reason=f"CRMArena's task file is not at {CRMARENA_TASKS} (a bare clone without ../shared)",
)

CRMARENA_PRO_TASKS = SHARED / "crmarena-pro" / "b2b_tasks.json"
needs_crmarena_pro = pytest.mark.skipif(
    not CRMARENA_PRO_TASKS.exists(),
    reason=f"CRMArena-Pro's B2B task file is not at {CRMARENA_PRO_TASKS} (a bare clone without ../shared)",
)
