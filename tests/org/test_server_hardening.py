"""The REST server under hostile or careless clients: real HTTP on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import urllib.parse

import pytest

from crm_tui.org.server.rest import OrgServer
from crm_tui.org.soql import SalesforceError, execute_soql, execute_sosl
from tests.helpers.soql_org import TODAY, build_tiny_org

CLI = [sys.executable, "-c", "from crm_tui.cli import main; main()"]


@pytest.fixture(scope="module")
def tiny_org(tmp_path_factory):
    return build_tiny_org(tmp_path_factory.mktemp("hardening") / "org.sqlite")


@pytest.fixture(scope="module")
def server(tiny_org):
    with OrgServer(tiny_org, today=TODAY, username="ann@example.com", password="s3cret") as srv:
        yield srv


def call(server, method, path, body=b"", headers=None, timeout=10.0):
    """One request on a fresh connection: (status, content type, body bytes)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, answer.getheader("Content-Type", ""), answer.read()
    finally:
        conn.close()


def soap_login(server, username, password):
    body = (
        '<?xml version="1.0" encoding="utf-8" ?><env:Envelope xmlns:env='
        '"http://schemas.xmlsoap.org/soap/envelope/"><env:Body>'
        '<n1:login xmlns:n1="urn:partner.soap.sforce.com">'
        f"<n1:username>{username}</n1:username><n1:password>{password}</n1:password>"
        "</n1:login></env:Body></env:Envelope>"
    ).encode()
    return call(server, "POST", "/services/Soap/u/59.0", body, {"SOAPAction": "login"})


def oauth_login(server, **form):
    body = urllib.parse.urlencode(form).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    return call(server, "POST", "/services/oauth2/token", body, headers)


# ----------------------------------------------------------------- 1. login checks credentials
def test_soap_login_gives_the_session_only_to_the_servers_credentials(server):
    status, _, body = soap_login(server, "ann@example.com", "s3cret")
    assert status == 200 and f"<sessionId>{server.session_id}</sessionId>".encode() in body
    for username, password in [
        ("ann@example.com", "wrong"),
        ("bob@example.com", "s3cret"),
        ("anyone", ""),
        ("ann@example.com", "s3cretX"),
    ]:
        status, kind, body = soap_login(server, username, password)
        assert status == 500 and kind.startswith("text/xml")
        assert b"<sf:exceptionCode>INVALID_LOGIN</sf:exceptionCode>" in body
        assert server.session_id.encode() not in body


def test_oauth_login_checks_the_password_grant(server):
    status, _, body = oauth_login(server)
    assert status == 400 and json.loads(body) == {
        "error": "invalid_grant",
        "error_description": "authentication failure",
    }
    assert server.session_id.encode() not in body
    status, _, body = oauth_login(
        server, grant_type="password", username="ann@example.com", password="nope"
    )
    assert status == 400 and server.session_id.encode() not in body
    status, _, body = oauth_login(
        server,
        grant_type="password",
        client_id="k",
        client_secret="s",
        username="ann@example.com",
        password="s3cret",
    )
    assert status == 200 and json.loads(body)["access_token"] == server.session_id


def test_a_password_is_random_per_server_unless_given(tiny_org):
    with OrgServer(tiny_org) as one, OrgServer(tiny_org) as two:
        assert one.password != two.password and len(one.password) >= 16
        assert one.username == two.username
        status, _, _ = soap_login(one, one.username, two.password)
        assert status == 500


def _serve(org, home, *extra, env=None):
    return subprocess.Popen(
        [*CLI, "org", "serve", "--org", str(org), "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRM_TUI_HOME": str(home), **(env or {})},
    )


def _printed(process) -> dict[str, str]:
    lines: dict[str, str] = {}
    while len(lines) < 5:
        line = process.stdout.readline()
        assert line, process.stderr.read()
        key, sep, value = line.partition(" : ")
        if sep:
            lines[key.strip()] = value.strip()
        elif " at " in line:
            lines["url"] = line.split(" at ")[1].split()[0]
    return lines


def test_org_serve_prints_credentials_and_takes_them_from_options_or_env(tiny_org, tmp_path):
    runs = [
        _serve(tiny_org, tmp_path),
        _serve(tiny_org, tmp_path),
        _serve(tiny_org, tmp_path, "--username", "eve@example.com", "--password", "opt-pw"),
        _serve(
            tiny_org,
            tmp_path,
            env={"CRM_TUI_SERVE_USERNAME": "env@example.com", "CRM_TUI_SERVE_PASSWORD": "env-pw"},
        ),
    ]
    try:
        printed = [_printed(p) for p in runs]
        assert printed[0]["password"] != printed[1]["password"]
        assert (printed[2]["username"], printed[2]["password"]) == ("eve@example.com", "opt-pw")
        assert (printed[3]["username"], printed[3]["password"]) == ("env@example.com", "env-pw")
        for shown in printed:
            url = urllib.parse.urlsplit(shown["url"])
            srv = type("S", (), {"host": url.hostname, "port": url.port})
            status, _, body = soap_login(srv, shown["username"], shown["password"])
            assert status == 200 and shown["session id"].encode() in body
            assert soap_login(srv, shown["username"], "guess")[0] == 500
    finally:
        for p in runs:
            p.terminate()
            p.wait(timeout=10)
            p.stdout.close()
            p.stderr.close()


# ----------------------------------------------------------------- 4. always a JSON answer
def auth(server) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.session_id}"}


def query_path(text: str, resource: str = "query") -> str:
    return f"/services/data/v59.0/{resource}/?q={urllib.parse.quote(text)}"


def is_salesforce_error(body: bytes) -> str:
    """The errorCode of a Salesforce error body (a list of {message, errorCode})."""
    answer = json.loads(body)
    assert isinstance(answer, list) and answer and set(answer[0]) == {"message", "errorCode"}
    return answer[0]["errorCode"]


@pytest.mark.parametrize(
    ("text", "resource"),
    [
        ("SELECT Id FROM Case WHERE CreatedDate = LAST_N_DAYS:999999999999", "query"),
        ("SELECT Id FROM Case WHERE CreatedDate = NEXT_N_YEARS:99999", "query"),
        (
            "SELECT Status, COUNT(Id) FROM Case GROUP BY Status HAVING COUNT(Id) > 9" + "9" * 22,
            "query",
        ),
        ("SELECT Id FROM Case LIMIT 9223372036854775807", "query"),
        ("SELECT Id FROM Case WHERE Subject = 1" + "0" * 400, "query"),
        ("FIND {rope} RETURNING Case(Id WHERE CreatedDate = LAST_N_DAYS:999999999999)", "search"),
        ("FIND {rope} RETURNING Case(Id WHERE CreatedDate = NEXT_N_YEARS:99999)", "search"),
        ("FIND {rope} RETURNING Case(Id LIMIT 9223372036854775807)", "search"),
    ],
)
def test_out_of_range_numbers_get_a_salesforce_error_not_a_dropped_connection(
    server, text, resource
):
    status, kind, body = call(server, "GET", query_path(text, resource), headers=auth(server))
    assert kind.startswith("application/json")
    if status != 200:
        assert status == 400 and is_salesforce_error(body)
    assert call(server, "GET", "/services/data")[0] == 200


def raw_request(server, data: bytes, timeout: float = 5.0) -> bytes:
    """Bytes on a socket, the whole answer back (the server closes or answers one)."""
    import socket

    with socket.create_connection((server.host, server.port), timeout=timeout) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def split_answer(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"POST /services/oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        (b"POST /services/oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        (
            b"POST /services/oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n",
            413,
        ),
        (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nX-Big: " + b"b" * 70000 + b"\r\n\r\n", 431),
        (b"BREW /services/data HTTP/1.1\r\nHost: x\r\n\r\n", 501),
        (b"GET / HTTP/9.9\r\n\r\n", 505),
        (b"\x16\x03\x01 garbage\r\n\r\n", 400),
    ],
    ids=["length-abc", "length-negative", "length-huge", "414", "431", "501", "505", "garbage"],
)
def test_broken_requests_get_json_in_salesforce_shape(server, request_bytes, status):
    answered, headers, body = split_answer(raw_request(server, request_bytes))
    assert answered == status
    assert headers["content-type"].startswith("application/json")
    assert is_salesforce_error(body)
    assert call(server, "GET", "/services/data")[0] == 200


def test_an_unexpected_error_in_a_route_is_a_json_500(server, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.api, "route", boom)
    status, kind, body = call(
        server, "GET", query_path("SELECT Id FROM Case"), headers=auth(server)
    )
    assert status == 500 and kind.startswith("application/json")
    assert is_salesforce_error(body) == "UNKNOWN_EXCEPTION" and b"a bug" not in body


# ----------------------------------------------------------------- 5. listen backlog
def test_twenty_clients_with_a_connection_per_request_are_answered_fast(server):
    import threading
    import time

    assert server.httpd.request_queue_size >= 128

    def p99() -> float:
        timings: list[float] = []
        lock = threading.Lock()

        def client() -> None:
            for _ in range(10):
                start = time.perf_counter()
                assert call(server, "GET", "/services/data")[0] == 200
                with lock:
                    timings.append(time.perf_counter() - start)

        threads = [threading.Thread(target=client) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(timings) == 200
        return sorted(timings)[197]

    # A short backlog costs a SYN retransmission (1 s) every time; a busy test machine only
    # now and then: the best of three runs.
    # The bound tells a retransmitted SYN (1 s) from none on a machine busy with other
    # tests; the figures themselves come from tests/benchmarks/server_reliability.py.
    best = min(p99() for _ in range(3))
    assert best < 0.5, best


# ----------------------------------------------------------------- 2. budgets, concurrency
def test_query_size_limits_answer_salesforce_errors(server):
    from crm_tui.org.soql.executor import MAX_QUERY_CHARS
    from crm_tui.org.soql.sosl import MAX_SEARCH_TERMS

    too_many = "FIND {" + " OR ".join(["a*"] * (MAX_SEARCH_TERMS + 1)) + "}"
    status, _, body = call(server, "GET", query_path(too_many, "search"), headers=auth(server))
    assert status == 400 and is_salesforce_error(body) == "MALFORMED_SEARCH"
    assert b"terms" in body
    long_query = "SELECT Id FROM Case WHERE Subject = '" + "x" * MAX_QUERY_CHARS + "'"
    with pytest.raises(SalesforceError, match="too long") as caught:  # the engine's bound
        execute_soql(server.store, long_query)
    assert caught.value.error_code == "MALFORMED_QUERY"
    with pytest.raises(SalesforceError, match="too long"):
        execute_sosl(server.store, "FIND {" + "x" * MAX_QUERY_CHARS + "}")
    status, _, body = call(server, "GET", query_path(long_query), headers=auth(server))
    assert status == 414 and is_salesforce_error(body) == "URI_TOO_LONG"  # http.server's
    nested = "SELECT Id FROM Case WHERE " + "(" * 500 + "Subject = 'x'" + ")" * 500
    status, _, body = call(server, "GET", query_path(nested), headers=auth(server))
    assert status == 400 and is_salesforce_error(body) == "MALFORMED_QUERY"


ALL_ENTRY_FIELDS = (
    "Id, Name, Pricebook2Id, Product2Id, UnitPrice, Product2.Name, Product2.Description, "
    "Product2.IsActive, Pricebook2.Name"
)
SLOW_SOQL = (
    "SELECT Id, Name FROM PricebookEntry WHERE Product2.Name LIKE '%a%' "
    "OR Product2.Description LIKE '%e%' OR Pricebook2.Name LIKE '%o%' ORDER BY Name"
)


def test_a_query_past_its_time_budget_is_a_query_timeout(default_org_path):
    # A budget already spent at the first progress check: how fast the machine is (or how
    # busy with other tests) cannot decide whether these heavy queries time out.
    with OrgServer(default_org_path, query_seconds=0.0) as srv:
        status, _, body = call(srv, "GET", query_path(SLOW_SOQL), headers=auth(srv))
        assert status == 400 and is_salesforce_error(body) == "QUERY_TIMEOUT"
        worst = "FIND {" + " OR ".join(["a*", "e*", "o*", "i*"] * 5) + "}"
        status, _, body = call(srv, "GET", query_path(worst, "search"), headers=auth(srv))
        assert status == 400 and is_salesforce_error(body) == "QUERY_TIMEOUT"
        srv.api.query_seconds = 30.0  # the server answers the next query as usual
        count = query_path("SELECT COUNT() FROM Case")
        assert json.loads(call(srv, "GET", count, headers=auth(srv))[2])["totalSize"] == 977


def test_a_count_answers_fast_while_the_worst_queries_run(default_org_path):
    import threading
    import time

    from crm_tui.org.soql.sosl import MAX_SEARCH_TERMS

    worst = [
        query_path("FIND {" + " OR ".join(["a*", "e*"] * (MAX_SEARCH_TERMS // 2)) + "}", "search"),
        query_path(SLOW_SOQL),
        query_path(f"SELECT {ALL_ENTRY_FIELDS} FROM PricebookEntry"),
    ]
    with OrgServer(default_org_path) as srv:
        busy = threading.Event()
        stop = threading.Event()

        def hammer(path: str) -> None:
            while not stop.is_set():
                busy.set()
                call(srv, "GET", path, headers=auth(srv), timeout=120)

        threads = [threading.Thread(target=hammer, args=(p,)) for p in worst * 2]
        for t in threads:
            t.start()
        busy.wait()
        time.sleep(0.3)
        timings = []
        count = query_path("SELECT COUNT() FROM Case WHERE Status = 'Closed'")
        for _ in range(15):
            start = time.perf_counter()
            status, _, body = call(srv, "GET", count, headers=auth(srv))
            timings.append(time.perf_counter() - start)
            assert status == 200, body
        stop.set()
        for t in threads:
            t.join(timeout=120)
    timings.sort()
    # Under the old global lock a COUNT waited seconds to minutes behind the worst queries;
    # the bound leaves room for a busy test machine (figures: the server_reliability benchmark).
    assert timings[len(timings) // 2] < 0.5, timings


# ----------------------------------------------------------------- 3. locator memory
def test_kept_query_locators_are_bounded_in_bytes_and_expire(small_org_path):
    import time

    text = query_path(f"SELECT {ALL_ENTRY_FIELDS} FROM PricebookEntry")
    headers = {**{"Sforce-Query-Options": "batchSize=200"}}
    with OrgServer(small_org_path, locator_bytes=6_000_000, locator_seconds=60) as srv:
        headers.update(auth(srv))
        first = json.loads(call(srv, "GET", text, headers=headers)[2])
        assert first["done"] is False
        one_result = srv.api.locator_bytes_kept
        assert 0 < one_result < 6_000_000
        for _ in range(30):
            last = json.loads(call(srv, "GET", text, headers=headers)[2])
        assert srv.api.locator_bytes_kept <= 6_000_000
        status, _, body = call(srv, "GET", first["nextRecordsUrl"], headers=headers)
        assert status == 400 and is_salesforce_error(body) == "INVALID_QUERY_LOCATOR"
        status, _, body = call(srv, "GET", last["nextRecordsUrl"], headers=headers)
        assert status == 200 and len(json.loads(body)["records"]) == 200
        assert json.loads(body)["records"][0] == last_page_record(srv, last)
        srv.api.locator_seconds = 0.0
        time.sleep(0.01)
        status, _, body = call(srv, "GET", last["nextRecordsUrl"], headers=headers)
        assert status == 400 and is_salesforce_error(body) == "INVALID_QUERY_LOCATOR"
        assert srv.api.locator_bytes_kept == 0


def last_page_record(srv, page):
    """The record at the offset of `page`'s next-records URL, straight from the engine."""
    from crm_tui.org.soql import execute_soql

    offset = int(page["nextRecordsUrl"].rsplit("-", 1)[1])
    q = f"SELECT {ALL_ENTRY_FIELDS} FROM PricebookEntry"
    return execute_soql(srv.store, q, today=srv.api.today).records[offset]
