"""The REST server against an attacker who can reach its port but holds no credentials:
the work any request costs is bounded before a credential is checked."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from html import unescape

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crm_tui.org.server.rest import OrgServer, _xml_element
from crm_tui.org.soql import execute_soql
from tests.helpers.fuzz import property_settings
from tests.helpers.soql_org import TODAY, build_tiny_org
from tests.org.test_server_hardening import auth, call, query_path


@pytest.fixture(scope="module")
def tiny_org(tmp_path_factory):
    return build_tiny_org(tmp_path_factory.mktemp("attacks") / "org.sqlite")


@pytest.fixture(scope="module")
def server(tiny_org):
    with OrgServer(tiny_org, today=TODAY, username="ann@example.com", password="s3cret") as srv:
        yield srv


# ----------------------------------------------------------------- SOAP login parsing
def _reference(text: str, name: str) -> str | None:
    """What a login element means: the first `<prefix:name>` and the first closing tag after it."""
    match = re.search(rf"<(?:[\w.-]+:)?{name}>(.*?)</(?:[\w.-]+:)?{name}>", text, re.DOTALL)
    return unescape(match[1]) if match else None


@property_settings(300)
@given(
    st.lists(
        st.sampled_from(
            [
                "<username>",
                "</username>",
                "<n1:username>",
                "</n1:username>",
                "<password>",
                "</password>",
                "a",
                "&amp;",
                "<",
                ">",
                ":",
                "x:",
                "\n",
            ]
        ),
        max_size=12,
    )
)
def test_login_elements_are_read_as_before(pieces):
    text = "".join(pieces)
    for name in ("username", "password"):
        assert _xml_element(text, name) == _reference(text, name)


@pytest.mark.parametrize(
    "body",
    [
        "<username>" * 20_000,  # opening tags that never close: each one a scan to the end
        "<n1:username>" * 15_000,
        "<username>" + "<a" * 500_000,
    ],
    ids=["open-tags", "prefixed-open-tags", "one-open-tag"],
)
def test_reading_a_login_body_takes_linear_time(body):
    start = time.perf_counter()
    _xml_element(body, "username")
    _xml_element(body, "password")
    assert time.perf_counter() - start < 0.5


def test_the_worst_login_body_leaves_other_clients_answered(server):
    worst = b"<username>" * ((1 << 20) // 10)  # the largest body the server reads
    answers: list[int] = []

    def attacker() -> None:
        status, _, body = call(server, "POST", "/services/Soap/u/59.0", worst, timeout=60)
        answers.append(status)

    thread = threading.Thread(target=attacker)
    thread.start()
    time.sleep(0.05)
    start = time.perf_counter()
    status, _, _ = call(server, "GET", query_path("SELECT COUNT() FROM Case"), headers=auth(server))
    waited = time.perf_counter() - start
    thread.join(60)
    assert status == 200 and answers and answers[0] in (413, 500)
    assert waited < 1.0, waited


def test_a_login_body_past_its_size_is_refused_before_it_is_read_as_xml(server, monkeypatch):
    from crm_tui.org.server import rest

    def never(text, name):
        raise AssertionError("parsed")

    monkeypatch.setattr(rest, "_xml_element", never)
    padding = b" " * (rest.MAX_LOGIN_BODY + 1)
    status, _, _ = call(server, "POST", "/services/Soap/u/59.0", padding)
    assert status == 413
    status, _, _ = call(server, "POST", "/services/oauth2/token", b"grant_type=password&" + padding)
    assert status == 413


# ----------------------------------------------------------------- slow requests
def _slow_header_client(server, stop: threading.Event, every: float = 0.2) -> socket.socket:
    """A client that sends its request's headers a few bytes at a time, never ending them."""
    sock = socket.create_connection((server.host, server.port), timeout=30)
    sock.sendall(b"GET /services/data HTTP/1.1\r\nHost: x\r\n")

    def drip() -> None:
        n = 0
        while not stop.is_set():
            try:
                sock.sendall(f"X-{n}: y\r\n".encode())
            except OSError:
                return
            n += 1
            stop.wait(every)

    threading.Thread(target=drip, daemon=True).start()
    return sock


def test_a_request_must_be_complete_within_its_time(tiny_org):
    stop = threading.Event()
    with OrgServer(tiny_org, today=TODAY, request_seconds=1.0) as srv:
        sock = _slow_header_client(srv, stop)
        try:
            start = time.perf_counter()
            data = b""
            while chunk := sock.recv(4096):  # the server ends the connection
                data += chunk
            assert time.perf_counter() - start < 3.0
            assert data == b"" or data.startswith(b"HTTP/1.1 408 ")
        except ConnectionResetError:
            assert time.perf_counter() - start < 3.0
        finally:
            stop.set()
            sock.close()


def test_slow_clients_holding_every_slot_make_way_for_new_ones(tiny_org):
    stop = threading.Event()
    with OrgServer(tiny_org, today=TODAY, max_connections=5, request_seconds=30.0) as srv:
        slow = [_slow_header_client(srv, stop) for _ in range(5)]
        try:
            time.sleep(2.5)  # they have held their slots a while, each mid-request
            start = time.perf_counter()
            status, _, _ = call(srv, "GET", "/services/data", timeout=10)
            assert status == 200 and time.perf_counter() - start < 2.0
        finally:
            stop.set()
            for sock in slow:
                sock.close()


# ----------------------------------------------------------------- smaller refusals
def test_only_a_bearer_session_is_a_session(server):
    path = query_path("SELECT COUNT() FROM Case")
    assert call(server, "GET", path, headers=auth(server))[0] == 200
    for value in (f"Basic {server.session_id}", f"Token {server.session_id}", server.session_id):
        assert call(server, "GET", path, headers={"Authorization": value})[0] == 401, value


def test_non_ascii_bytes_in_the_authorization_header_are_a_401(server):
    raw = (
        b"GET /services/data/v59.0/limits HTTP/1.1\r\nHost: x\r\n"
        b"Authorization: Bearer \xff\xfe\xc3\xa9\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection((server.host, server.port), timeout=10) as sock:
        sock.sendall(raw)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]


def test_a_query_of_many_chained_conditions_is_a_400(server):
    text = "SELECT Id FROM Case WHERE " + " AND ".join(["(Status = 'New'"] * 1100) + ")" * 1100
    status, _, body = call(server, "GET", query_path(text), headers=auth(server))
    assert status == 400, body[:300]
    text = "SELECT Id FROM Case WHERE " + " OR ".join(["Status = 'New'"] * 1100)
    assert call(server, "GET", query_path(text), headers=auth(server))[0] in (200, 400)


def test_the_request_log_shows_no_password(tiny_org, capsys):
    with OrgServer(tiny_org, today=TODAY, password="s3cret", verbose=True) as srv:
        call(srv, "POST", "/services/oauth2/token?grant_type=password&password=s3cret&x=1")
        call(srv, "GET", f"/services/data/v59.0/limits?sessionId={srv.session_id}")
    err = capsys.readouterr().err
    assert "oauth2/token" in err and "s3cret" not in err and srv.session_id not in err


def test_a_client_that_leaves_mid_answer_prints_no_traceback(tiny_org, capfd):
    with OrgServer(tiny_org, today=TODAY) as srv:
        with socket.create_connection((srv.host, srv.port), timeout=10) as sock:
            sock.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
            )
            sock.sendall(
                f"GET {query_path('SELECT Id, Subject FROM Case')} HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {srv.session_id}\r\n\r\n".encode()
                * 50
            )
        # the server writes answers to a reset connection
        time.sleep(0.5)
        assert call(srv, "GET", "/services/data")[0] == 200
    err = capfd.readouterr().err
    assert "Traceback" not in err, err


# ----------------------------------------------------------------- odd locator offsets
def test_a_page_cut_at_an_odd_offset_leaves_other_clients_answered(small_org_path, monkeypatch):
    """A next-records URL with an offset between pages is re-cut from the JSON of two
    pages: that work must not hold the lock every other query needs."""
    from crm_tui.org.server import rest

    soql = "SELECT Id, Name, UnitPrice FROM PricebookEntry"
    headers = {"Sforce-Query-Options": "batchSize=200"}
    recut = rest._page_records
    others: list[int | str] = []

    def another_client() -> None:
        try:
            others.append(call(srv, "GET", query_path(soql), headers=headers, timeout=5)[0])
        except TimeoutError:
            others.append("no answer within 5 s")

    def recut_while_another_client_queries(cursor, offset, *bounds):
        if offset not in cursor.starts:
            other = threading.Thread(target=another_client)
            other.start()
            other.join(10)
        return recut(cursor, offset, *bounds)

    monkeypatch.setattr(rest, "_page_records", recut_while_another_client_queries)
    with OrgServer(small_org_path, today=TODAY, query_workers=0) as srv:
        headers.update(auth(srv))
        first = json.loads(call(srv, "GET", query_path(soql), headers=headers)[2])
        odd = first["nextRecordsUrl"].rsplit("-", 1)[0] + "-7"
        status, _, body = call(srv, "GET", odd, headers=headers, timeout=30)
        assert status == 200
        records = json.loads(body)["records"]
        whole = execute_soql(srv.store, soql, today=srv.api.today).records
    assert [r["Id"] for r in records] == [r["Id"] for r in whole[7:207]]
    assert others == [200]  # answered while the page was re-cut
