"""When the app dies of an unexpected error, the traceback shows no
locals (a request's `Authorization: Bearer ...` header among them) and the exit code
is not 0. Real subprocess, Textual's headless driver."""

from __future__ import annotations

import os
import subprocess
import sys

SECRET = "00DLc-SECRET-SESSION-TOKEN"
SCRIPT = """
import requests
from crm_tui.cli import main
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.study.study_app import StudyApp

def crash(self):
    headers = {"Authorization": "Bearer SECRET"}
    raise requests.TooManyRedirects("Exceeded 30 redirects.")

CrmApp.on_mount = StudyApp.on_mount = crash
main(["--org", ORG])
"""


def test_a_crash_prints_no_locals_and_exits_non_zero(small_org_path, tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            SCRIPT.replace("SECRET", SECRET).replace("ORG", repr(str(small_org_path))),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **os.environ,
            "CRM_TUI_HOME": str(tmp_path),
            "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver",
        },
    )
    assert done.returncode not in (0, None)
    assert "TooManyRedirects" in done.stderr
    assert SECRET not in done.stderr and SECRET not in done.stdout
