"""A command that needs the local default org, on a fresh home, makes it as the app's first
run does: the documented `crm-tui tasks generate --out tasks.json`."""

from __future__ import annotations

import json

from crm_tui import paths
from crm_tui.cli import main


def test_tasks_generate_on_a_fresh_home_makes_the_default_org(tmp_path, capsys):
    assert not paths.default_org_path().exists()  # the tests' fresh CRM_TUI_HOME
    out = tmp_path / "tasks.json"
    main(["tasks", "generate", "--out", str(out), "--per-task", "5"])
    printed = capsys.readouterr()
    assert len(json.loads(out.read_text())) == 45
    assert paths.default_org_path().exists() and paths.default_taskset_path().exists()
    # what was made is said on stderr: stdout stays the command's own output
    assert "made" in printed.err and printed.out.startswith(f"wrote {out}")
