"""`crm-tui org serve` stops on SIGTERM or Ctrl-C wherever the signal lands, even in the
middle of handing a request to its thread."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from crm_tui.cli.org_serve import serve_until_signalled
from crm_tui.org.server.rest import OrgServer
from tests.helpers.soql_org import build_tiny_org


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_a_request_thread_starts_stops_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach only the main thread, and this test runs elsewhere")
    server = OrgServer(build_tiny_org(tmp_path / "org.sqlite"), query_workers=0)
    handing_over = server.httpd.process_request
    signalled = threading.Event()

    def signal_during_hand_over(request: Any, client_address: Any) -> None:
        # The request's thread has started when the signal arrives: the moment a
        # KeyboardInterrupt raised by a handler used to free the thread's slot twice.
        original_start = threading.Thread.start

        def start_then_signal(thread: threading.Thread) -> None:
            original_start(thread)
            if not signalled.is_set():
                signalled.set()
                os.kill(os.getpid(), signum)

        monkeypatch.setattr(threading.Thread, "start", start_then_signal)
        try:
            handing_over(request, client_address)
        finally:
            monkeypatch.setattr(threading.Thread, "start", original_start)

    monkeypatch.setattr(server.httpd, "process_request", signal_during_hand_over)
    watchdog_fired = threading.Event()

    def watchdog() -> None:
        if not server_stopped.wait(20):
            watchdog_fired.set()
            server.httpd.shutdown()

    def one_request() -> None:
        request = urllib.request.Request(
            f"{server.url}/services/data/v59.0/query/?q=SELECT+COUNT()+FROM+Case",
            headers={"Authorization": f"Bearer {server.session_id}"},
        )
        try:
            urllib.request.urlopen(request, timeout=20).close()
        except OSError:
            pass  # the server may close before answering; only its stopping matters here

    server_stopped = threading.Event()
    threads = [threading.Thread(target=watchdog), threading.Thread(target=one_request)]
    for thread in threads:
        thread.start()
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        serve_until_signalled(server)
    finally:
        server_stopped.set()
        for thread in threads:
            thread.join(30)
    assert signalled.is_set()
    assert not watchdog_fired.is_set(), "the signal did not stop the server"
    # The handlers a caller had are back once serving ends.
    assert {sig: signal.getsignal(sig) for sig in previous} == previous


# Run as `crm-tui org serve`, with each printed line saying whether SIGTERM would still
# kill the process outright (the default action) at the moment it is printed.
_REPORTING_HANDLERS = """
import signal, sys
import click
from crm_tui.cli.main import cli
echo = click.echo
def echo_with_handler(message=None, **kwargs):
    default = signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    echo(f"{'DEFAULT' if default else 'HANDLED'} {message}", **kwargs)
click.echo = echo_with_handler
cli()
"""


def test_a_signal_right_after_the_first_line_is_handled(tmp_path: Path) -> None:
    """A client that stops the server as soon as it says it is serving: by then the
    server's own handler must be in place, or SIGTERM kills it before its workers are
    stopped (their semaphores then leak)."""
    org = build_tiny_org(tmp_path / "org.sqlite")
    command = [sys.executable, "-c", _REPORTING_HANDLERS, "org", "serve", "--org", str(org),
               "--port", "0", "--query-workers", "1"]  # fmt: skip
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=60)
    assert first.startswith("HANDLED serving "), first
    assert process.returncode == 0 and "leaked" not in errors, errors
