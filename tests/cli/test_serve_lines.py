"""`crm-tui org serve` prints lines that work when pasted.

The server runs in its own process as a person starts it; each printed line is run in a
shell as printed (the app's line with `org report` in place of the app, which opens a
Salesforce org the same way and prints instead of drawing).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import fails

BIN = str(Path(sys.executable).parent)  # crm-tui and python3 of this environment
REPORT = """
name = "Cases by status"
object = "Case"
summaries = ["COUNT()"]

[[groupings]]
field = "Status"
"""


def _clean_env(tmp_path: Path) -> dict[str, str]:
    """No Salesforce login or CA bundle of the person running the tests."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("SALESFORCE_") and key not in ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
    }
    return env | {"CRM_TUI_HOME": str(tmp_path / "home"), "PATH": BIN + os.pathsep + env["PATH"]}


def _start(org: Path, tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """`crm-tui org serve --port 0 ARGS` in its own process, as a person starts it."""
    return subprocess.Popen(
        [sys.executable, "-c", "from crm_tui.cli import main; main()", "org", "serve"]
        + ["--org", str(org), "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_clean_env(tmp_path),
    )


@pytest.fixture
def serve(small_org_path, tmp_path):
    """Start `crm-tui org serve --port 0 ARGS...`; returns its printed lines by label."""
    started = []

    def start(*args: str) -> dict[str, str]:
        process = _start(small_org_path, tmp_path, *args)
        started.append(process)
        assert process.stdout is not None
        lines: dict[str, str] = {}
        while (line := process.stdout.readline()) and not line.startswith("or login"):
            label, _, value = line.partition(" : ")
            lines[label.strip()] = value.strip()
        assert lines, process.stderr.read() if process.stderr else ""
        return lines

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=30)


def _run(line: str, tmp_path: Path) -> str:
    done = subprocess.run(
        line, shell=True, cwd=tmp_path, env=_clean_env(tmp_path), capture_output=True, text=True
    )
    assert done.returncode == 0, f"{line}\n{done.stderr}"
    return done.stdout


def test_tls_lines_for_the_app_and_python_work_as_printed(serve, tmp_path):
    lines = serve("--tls")
    assert lines["app"].endswith(" crm-tui --salesforce") and "REQUESTS_CA_BUNDLE=" in lines["app"]
    (tmp_path / "report.toml").write_text(REPORT)
    as_report = lines["app"].removesuffix("--salesforce") + "org report report.toml --salesforce"
    assert "Closed" in _run(as_report + " --format csv", tmp_path)
    assert _run(lines["python"], tmp_path).strip().isdigit()  # the COUNT() of cases


def test_plain_http_prints_no_client_line_that_cannot_work(serve, tmp_path):
    lines = serve()
    assert not any("Salesforce(" in value for value in lines.values())
    assert "--tls" in lines["client"]  # simple-salesforce speaks https only
    if shutil.which("curl"):
        assert '"totalSize"' in _run(lines["try"], tmp_path)


def test_a_busy_port_is_named(small_org_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = fails(capsys, "org", "serve", "--org", small_org_path, "--port", port)
    assert f"127.0.0.1:{port}" in line and "--port" in line


def test_without_the_ca_the_app_says_what_to_set(serve, tmp_path):
    lines = serve("--tls")
    (tmp_path / "report.toml").write_text(REPORT)
    untrusted = lines["app"].split(" ", 1)[1]  # the line without REQUESTS_CA_BUNDLE=...
    done = subprocess.run(
        untrusted.removesuffix("--salesforce") + "org report report.toml --salesforce",
        shell=True,
        cwd=tmp_path,
        env=_clean_env(tmp_path),
        capture_output=True,
        text=True,
    )
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1 and "REQUESTS_CA_BUNDLE" in last, done.stderr


def test_tls_keeps_its_certificate_folder_private(serve, tmp_path):
    folder = tmp_path / "home" / "loopback-tls"
    folder.mkdir(parents=True, mode=0o755)  # left open by an older version
    folder.chmod(0o755)
    serve("--tls")
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "server-key.pem").stat().st_mode & 0o777 == 0o600


def test_a_fresh_tls_folder_is_private_from_the_start(tmp_path):
    from crm_tui.org.server.loopback_tls import make_loopback_certificates

    certs = make_loopback_certificates(tmp_path / "home" / "loopback-tls")
    assert certs.key_pem.parent.stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "home").stat().st_mode & 0o777 == 0o700


def _first_line_then_errors(org: Path, tmp_path: Path, *args: str) -> str:
    """Start `org serve --port 0 ARGS`, wait for its first line, stop it: its stderr."""
    process = _start(org, tmp_path, *args)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("serving ")
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    return errors


def test_plain_http_on_every_address_warns_that_it_travels_in_clear(small_org_path, tmp_path):
    errors = _first_line_then_errors(small_org_path, tmp_path, "--host", "0.0.0.0")
    assert "warning: listening on 0.0.0.0" in errors and "--tls" in errors, errors


def test_plain_http_on_loopback_gives_no_warning(small_org_path, tmp_path):
    errors = _first_line_then_errors(small_org_path, tmp_path)
    assert "warning" not in errors, errors
