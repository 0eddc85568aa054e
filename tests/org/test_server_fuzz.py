"""Property: any request (method, path, query string, headers, body, a
Content-Length that lies) gets an HTTP answer in Salesforce's JSON error shape or a
real answer, never a dropped connection; the server is alive after. Real sockets."""

from __future__ import annotations

import json
import socket
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crm_tui.org.server.rest import OrgServer
from tests.helpers.fuzz import property_settings
from tests.helpers.soql_org import TODAY, build_tiny_org


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    org = build_tiny_org(tmp_path_factory.mktemp("fuzz") / "org.sqlite")
    with OrgServer(org, today=TODAY, username="u@example.com", password="pw") as srv:
        yield srv


METHODS = st.sampled_from(
    ["GET", "POST", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "BREW", "get", "G\tET", ""]
)
SEGMENTS = st.sampled_from(
    [
        "services",
        "data",
        "v59.0",
        "v1.0",
        "v99999999999999999999.0",
        "query",
        "queryAll",
        "search",
        "parameterizedSearch",
        "sobjects",
        "Case",
        "Account",
        "describe",
        "limits",
        "01gLc0000000001-2000",
        "01gLc0000000001-99999999999999999999",
        "500Lc0000000001AAA",
        "oauth2",
        "token",
        "Soap",
        "u",
        "..",
        "%00",
        "%ff",
        "",
    ]
)
QUERY_VALUES = st.one_of(
    st.sampled_from(
        [
            "SELECT Id FROM Case",
            "SELECT COUNT() FROM Case",
            "FIND {rope}",
            "SELECT Id FROM Case WHERE CreatedDate = LAST_N_DAYS:999999999999",
            "SELECT Id FROM Case LIMIT 9223372036854775807",
        ]
    ),
    st.text(max_size=40),
)
PARAM_NAMES = st.sampled_from(
    ["q", "sobject", "Product2.fields", "Product2.limit", "overallLimit", "fields", "in", "x"]
)
HEADER_NAMES = st.sampled_from(
    [
        "Authorization",
        "Content-Type",
        "Sforce-Query-Options",
        "Host",
        "Content-Encoding",
        "Transfer-Encoding",
        "Expect",
        "X-Anything",
    ]
)
HEADER_VALUES = st.one_of(
    st.sampled_from(["Bearer SESSION", "batchSize=200", "batchSize=-1", "chunked", "100-continue"]),
    st.text(
        st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\x7f"), max_size=60
    ),
)
LENGTHS = st.one_of(
    st.none(),  # the true length
    st.sampled_from(["abc", "-1", "0", "1e3", " 5", "99999999999999999999", "3, 4"]),
    st.integers(0, 5000).map(str),
)


@st.composite
def requests(draw) -> bytes:
    method = draw(METHODS)
    path = "/" + "/".join(draw(st.lists(SEGMENTS, max_size=6)))
    params = draw(st.lists(st.tuples(PARAM_NAMES, QUERY_VALUES), max_size=4))
    if params:
        path += "?" + "&".join(f"{quote(k)}={quote(v)}" for k, v in params)
    if draw(st.booleans()):
        path += draw(st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=10))
    body = draw(st.binary(max_size=300))
    headers = draw(st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=5))
    length = draw(LENGTHS)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers]
    lines.append(f"Content-Length: {len(body) if length is None else length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def exchange(server: OrgServer, data: bytes) -> bytes:
    with socket.create_connection((server.host, server.port), timeout=20) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)  # the client says no more: the server answers, closes
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@property_settings(150)
@given(data=requests())
def test_every_request_is_answered_and_the_server_lives_on(server, data):
    answer = exchange(server, data)
    while answer.startswith(b"HTTP/1.1 100 "):  # `Expect: 100-continue`: an interim answer
        answer = answer.partition(b"\r\n\r\n")[2]
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    assert status_line.startswith("HTTP/1.1 "), answer[:200]
    status = int(status_line.split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    kind = headers["content-type"]
    assert status < 500 or b"UNKNOWN_EXCEPTION" not in body or kind.startswith("application")
    if data.startswith(b"HEAD "):
        return
    if kind.startswith("text/xml"):  # a SOAP login's answer or fault
        assert body.startswith(b"<?xml")
    else:
        assert kind.startswith("application/json")
        answered = json.loads(body[: int(headers["content-length"])])
        if status >= 400:
            assert isinstance(answered, list | dict) and answered
    # alive: a fresh client still gets an answer
    assert exchange(server, b"GET /services/data HTTP/1.1\r\nHost: x\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )
