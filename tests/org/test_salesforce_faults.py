"""Every error from the org, expected or not, reaches the app as a
CrmTuiError without secrets (real TLS server on 127.0.0.1 answering badly on purpose)."""

from __future__ import annotations

import pytest
import requests

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials
from crm_tui.org.server.rest import Response
from tests.helpers.sf_client import LoginRedirect, serve_tls, trusted_session
from tests.helpers.soql_org import TODAY, build_tiny_org


@pytest.fixture
def served(tmp_path):
    org = build_tiny_org(tmp_path / "org.sqlite")
    with serve_tls(org, tmp_path / "certs", today=TODAY) as (server, ca_pem):
        session = trusted_session(ca_pem)
        session.mount("https://login.salesforce.com/", LoginRedirect(server.port))
        creds = SalesforceCredentials(
            username=server.username,
            password=server.password,
            security_token=server.api.security_token,
        )
        backend = SalesforceBackend(creds, session=session)
        yield server, backend
        backend.close()


def _answer_with(server, response):
    inner = server.api.handle

    def handle(method, url, headers, body, host):
        if "/sobjects/" in url or "/query" in url:
            return response(url)
        return inner(method, url, headers, body, host)

    server.api.handle = handle


@pytest.mark.parametrize(
    "response",
    [
        lambda url: Response(302, b"", headers={"Location": url}),  # TooManyRedirects
        lambda url: Response(200, b"\x1f\x8b not gzip", headers={"Content-Encoding": "gzip"}),
        lambda url: Response(200, b"[1, 2, 3]"),  # JSON, but not the shape asked for
    ],
    ids=["redirect-loop", "bad-gzip", "wrong-shape"],
)
def test_any_failure_of_the_org_is_a_crm_tui_error_without_secrets(served, response):
    server, backend = served
    _answer_with(server, response)
    with pytest.raises(CrmTuiError) as caught:
        backend.count("Case")
    text = str(caught.value)
    for secret in (server.session_id, server.password):
        assert secret not in text


@pytest.mark.parametrize(
    "record",
    [
        b'{"attributes": {"type": "Case"}, "Id": "500000000000001AAA", "X": NaN}',
        '{"Id": "500000000000001AAA", "X": "caf\u00e9"}'.encode("latin-1"),
    ],
    ids=["NaN", "latin-1"],
)
def test_answers_the_fast_parser_refuses_read_as_before(served, tmp_path, record):
    """The app's session parses with orjson; what orjson refuses (NaN, a body not in
    UTF-8) is read by requests' own parser: the same values a plain session reads."""
    server, backend = served
    page = b'{"totalSize": 1, "done": true, "records": [' + record + b"]}"
    _answer_with(server, lambda url: Response(200, page))
    got = backend.soql("SELECT Id, X FROM Case").records[0]["X"]
    url = f"{server.url}/services/data/v59.0/query?q=SELECT+Id+FROM+Case"
    ca_pem = tmp_path / "certs" / "ca.pem"
    plain = trusted_session(ca_pem, requests.Session()).get(url).json()["records"][0]["X"]
    assert type(got) is type(plain) and str(got) == str(plain)
