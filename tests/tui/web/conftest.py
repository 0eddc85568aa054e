"""Fixtures of the `crm-tui web` tests: a small study made with the documented commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.web.served_study import cli


@pytest.fixture(scope="module")
def study_db(tmp_path_factory, small_org_path) -> Path:
    """Study 'web' on the small org, one query per annotator (18 queries, 2 per family)."""
    folder = tmp_path_factory.mktemp("served")
    tasks, db = folder / "tasks.json", folder / "study.sqlite"
    cli("tasks", "generate", "--org", small_org_path, "--per-task", 2, "--out", tasks)
    cli(
        "study",
        "create",
        "web",
        "--org",
        small_org_path,
        "--tasks",
        tasks,
        "--items",
        1,
        "--db",
        db,
    )
    return db
