"""Closing the local backend while a worker thread queries it (the app quit while its
object list was still counting): the query ends first, and the process lives on. Closing
the connection under a running statement crashed the interpreter (SIGSEGV) at quit."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers.paths import ROOT

CLOSE_WHILE_COUNTING = """
import sys, threading, time
from crm_tui.org.backends.local import LocalBackend

for round in range(40):
    backend = LocalBackend(sys.argv[1])
    started = threading.Event()

    def count():
        started.set()
        try:
            while True:
                backend.soql("SELECT Id, Subject FROM Case ORDER BY Subject")
        except Exception:
            pass  # closed under it: an error for the worker, which the app ignores

    worker = threading.Thread(target=count, daemon=True)
    worker.start()
    started.wait()
    time.sleep(0.002 * (round % 5))
    backend.close()
    worker.join(timeout=30)
    assert not worker.is_alive()
print("survived")
"""


def test_closing_while_a_worker_counts_does_not_crash(small_org_path):
    run = subprocess.run(
        [sys.executable, "-c", CLOSE_WHILE_COUNTING, str(small_org_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "survived" in run.stdout, (run.returncode, run.stderr[-2000:])
