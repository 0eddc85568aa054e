"""The documentation's `tasks stats` table: the default org's task set as `crm-tui tasks
stats` prints it, beside CRMArena's own file where it is at ../shared/crmarena/.

Run (from the repository's root): python docs/tasks_stats.py
It generates the default org (seed 1, scale 1) and its task set in a temporary folder and
writes docs/snippets/tasks_stats.txt, which the "Task families and gold" page includes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "snippets" / "tasks_stats.txt"
CRMARENA = ROOT.parent / "shared" / "crmarena" / "tasks_natural.json"


def crm_tui(*args: str) -> str:
    run = subprocess.run(
        [sys.executable, "-m", "crm_tui", *args], capture_output=True, text=True, check=True
    )
    return run.stdout


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        org, tasks = folder / "org.sqlite", folder / "tasks.json"
        crm_tui("org", "generate", "--out", str(org), "--seed", "1", "--scale", "1")
        crm_tui("tasks", "generate", "--org", str(org), "--out", str(tasks))
        extra = []
        if CRMARENA.is_file():
            crmarena = folder / "crmarena.json"
            crm_tui("tasks", "import", str(CRMARENA), "--out", str(crmarena))
            extra = ["--crmarena", str(crmarena)]
        table = crm_tui("tasks", "stats", str(tasks), *extra).replace(str(tasks), "tasks.json")
    OUT.write_text(
        "\n".join(
            line.strip() if i == 0 else line.rstrip() for i, line in enumerate(table.splitlines())
        )
        + "\n"
    )
    print(json.dumps({"wrote": str(OUT.relative_to(ROOT)), "lines": table.count("\n")}))


if __name__ == "__main__":
    main()
