"""Running the command line in-process the way the bad-input tests need it."""

from __future__ import annotations

from pathlib import Path

import pytest

from crm_tui.cli import main
from tests.helpers.paths import AGENTS

AGENT_FILE = AGENTS / "trial1" / "results_gpt-4o_react_all.json"


def fails(capsys, *argv) -> str:
    """Run the CLI expecting a refusal; return its one stderr line."""
    with pytest.raises(SystemExit) as caught:
        main([str(a) for a in argv])
    assert caught.value.code not in (0, None)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of `folder` with its bytes: to show a refused command changed nothing."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
