"""`crm-tui web`'s options and what it prints: refusals in one line (bad port, busy port,
a study that does not exist, a bad public URL), the warning off loopback, the address and
the invitation line once listening, and websockets from another site's page refused."""

from __future__ import annotations

import http.client
import os
import socket
import time
from pathlib import Path

import pytest

from crm_tui.web.server import SHUTDOWN_SECONDS
from tests.helpers.cli import fails
from tests.helpers.processes import child_pids
from tests.helpers.waiting import wait_until
from tests.tui.web.served_study import free_port, serve


def test_a_port_out_of_range_is_a_usage_error(capsys):
    line = fails(capsys, "web", "--port", "70000")
    assert "--port" in line and "70000" in line


def test_a_busy_port_is_one_line_naming_it(capsys, small_org_path, study_db):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = fails(capsys, "web", "--org", small_org_path, "--db", study_db, "--port", port)
    assert line.startswith(f"crm-tui: cannot listen on 127.0.0.1 port {port}: "), line
    assert "--port" in line


def test_a_study_that_does_not_exist_is_refused_with_the_command_that_makes_it(
    capsys, small_org_path, study_db
):
    line = fails(capsys, "web", "--org", small_org_path, "--db", study_db, "--study", "nope")
    assert line == (
        f"crm-tui: no study 'nope' in {study_db}: create it with "
        f"`crm-tui study create nope --db {study_db}`"
    )
    missing = study_db.parent / "none.sqlite"
    line = fails(capsys, "web", "--org", small_org_path, "--db", missing)
    assert line.startswith(f"crm-tui: no study file at {missing}: create a study with `")
    assert not missing.exists()


@pytest.mark.parametrize("url", ["study.example.org", "ftp://study.example.org", "https://"])
def test_a_public_url_must_be_an_http_address(capsys, url):
    assert "--public-url" in fails(capsys, "web", "--public-url", url)


def test_org_and_salesforce_together_are_a_usage_error(capsys, small_org_path):
    line = fails(capsys, "web", "--org", small_org_path, "--salesforce")
    assert "--org" in line and "--salesforce" in line


def test_salesforce_without_credentials_is_one_line_before_serving(capsys, tmp_path, study_db):
    missing = tmp_path / "nowhere.env"
    line = fails(capsys, "web", "--salesforce", "--env-file", missing, "--db", study_db)
    assert line == f"crm-tui: No .env file at {missing}"


def test_off_loopback_it_warns_and_refuses_other_sites_pages(tmp_path, small_org_path, study_db):
    port = free_port()
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(study_db), "--host", "0.0.0.0")
    running = serve(*options, folder=tmp_path, env=env, port=port)
    try:
        url = f"http://{socket.getfqdn()}:{port}"  # the address other machines use
        assert running.lines == [
            f"Serving study 'web' at {url} (study store {study_db})",
            "Each person opens it with an invitation code: crm-tui study invite 'THEIR NAME' "
            f"--role annotator --study web --db {study_db} --url {url}",
        ]
        assert websocket_status(port, origin="http://evil.example") == 403
        assert websocket_status(port, origin=f"http://127.0.0.1:{port}.evil.example") == 403
        assert child_pids(running.process.pid) == []  # no app was started for them
        tab = open_tab(port)  # a tab left open when the server stops
        apps = wait_until(lambda: child_pids(running.process.pid), "the tab's app")
    finally:
        started = time.monotonic()
        err = running.stop()
    # The apps are given SHUTDOWN_SECONDS to quit (one still starting under load may
    # need them all); the server must not wait beyond that.
    assert running.process.returncode == 0
    assert time.monotonic() - started < SHUTDOWN_SECONDS + 10
    wait_until(lambda: not any(alive(pid) for pid in apps), "the open tab's app to end")
    tab.close()
    assert err.splitlines()[0] == (
        "warning: listening on 0.0.0.0: invitation codes and answers travel in clear unless "
        "a TLS reverse proxy is in front (pass its address as --public-url)"
    )


def test_a_killed_server_takes_its_tabs_apps_with_it(tmp_path, small_org_path, study_db):
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    running = serve("--org", str(small_org_path), "--db", str(study_db), folder=tmp_path, env=env)
    port = int(running.url.rsplit(":", 1)[1])
    with open_tab(port) as tab:
        apps = wait_until(lambda: child_pids(running.process.pid), "the tab's app")
        read_until(tab, b"invitation code")  # drawn, and now idle: it writes nothing more
        running.process.kill()
        running.process.wait(timeout=10)
        wait_until(
            lambda: not any(alive(pid) for pid in apps),
            "the app of a tab whose server was killed to end",
        )


def test_a_tab_past_the_cap_is_told_the_server_is_full_and_gets_no_app(
    tmp_path, small_org_path, study_db
):
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(study_db), "--max-tabs", "1")
    running = serve(*options, folder=tmp_path, env=env)
    port = int(running.url.rsplit(":", 1)[1])
    try:
        with open_tab(port) as first:
            read_until(first, b"invitation code")
            apps = child_pids(running.process.pid)
            second, sent = handshake(port)  # the refusal may come in the handshake's packet
            with second:
                sent = read_until(second, b"server is full: it serves 1 browser tab", sent)
                read_until(second, b"\x88\x02\x03\xe8", sent)  # then a close frame, code 1000
            assert child_pids(running.process.pid) == apps  # no app for the second tab
        wait_until(lambda: not child_pids(running.process.pid), "the first tab's app to end")
        with open_tab(port) as again:  # a freed place is given to the next tab
            read_until(again, b"invitation code")
    finally:
        err = running.stop()
    assert "turned a tab away: 1 tabs open, the cap (--max-tabs)" in err


def test_one_address_cannot_take_every_place_whatever_it_forwards(
    tmp_path, small_org_path, study_db
):
    """Without --trust-proxy, X-Forwarded-For is the client's own word: two tabs from one
    address claiming two others still count as one address."""
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(study_db), "--max-tabs-per-address", "1")
    running = serve(*options, folder=tmp_path, env=env)
    port = int(running.url.rsplit(":", 1)[1])
    try:
        first, sent = handshake(port, forwarded_for="10.0.0.1")
        with first:
            read_until(first, b"invitation code", sent)
            second, sent = handshake(port, forwarded_for="10.0.0.2")
            with second:
                read_until(second, b"tab(s) to your address, its cap per address", sent)
    finally:
        err = running.stop()
    assert "turned a tab away: 127.0.0.1 has 1 tabs open" in err


def read_until(tab: socket.socket, text: bytes, seen: bytes = b"", timeout: float = 30) -> bytes:
    """Read the tab's websocket frames (raw) until the server has sent `text`; all read."""
    end = time.monotonic() + timeout
    while text not in seen:
        left = end - time.monotonic()
        assert left > 0, f"the app never drew {text!r}; it sent {seen[-300:]!r}"
        tab.settimeout(left)  # the socket's own timeout would end the wait sooner
        try:
            received = tab.recv(65536)
        except TimeoutError:
            continue
        assert received, f"the server closed the tab before sending {text!r}: {seen[-300:]!r}"
        seen += received
    return seen


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie waiting for its parent to reap it does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def open_tab(port: int) -> socket.socket:
    """A websocket as the page opens it (same origin), held open: the server starts an app."""
    return handshake(port)[0]


def handshake(port: int, forwarded_for: str | None = None) -> tuple[socket.socket, bytes]:
    """`open_tab`'s websocket, with what the server sent after its handshake response."""
    tab = socket.create_connection(("127.0.0.1", port), timeout=10)
    forwarded = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    tab.sendall(
        (
            "GET /ws?width=80&height=24 HTTP/1.1\r\n"
            f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n{forwarded}"
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ).encode()
    )
    response = tab.recv(4096)
    assert response.startswith(b"HTTP/1.1 101"), "the handshake was refused"
    return tab, response.split(b"\r\n\r\n", 1)[1]


def websocket_status(port: int, origin: str) -> int:
    """The HTTP status of a websocket handshake with `origin`, as a browser would send it."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(
        "GET",
        "/ws?width=80&height=24",
        headers={
            "Origin": origin,
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
    )
    status = connection.getresponse().status
    connection.close()
    return status
