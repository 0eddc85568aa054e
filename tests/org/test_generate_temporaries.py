"""A killed `org generate` leaves `.NAME.<pid>.tmp`; the next run removes
those of dead processes and leaves a live run's alone (real processes)."""

from __future__ import annotations

import subprocess
import sys

from crm_tui.org.generate.build_file import generate


def test_the_next_generate_removes_temporaries_of_dead_runs_only(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        out = tmp_path / "org.sqlite"
        stale = tmp_path / f".org.sqlite.{dead.pid}.tmp"
        running = tmp_path / f".org.sqlite.{live.pid}.tmp"
        other = tmp_path / ".other.sqlite.1.tmp"
        for path in (stale, running, other):
            path.write_bytes(b"half an org")
        generate(out, seed=3, scale=0.02)
        assert not stale.exists()
        assert running.exists() and other.exists() and out.exists()
    finally:
        live.kill()
        live.wait()
