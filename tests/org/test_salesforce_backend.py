"""SalesforceBackend through the unmodified simple-salesforce against the loopback server.

The server is real (TLS on 127.0.0.1, the SOQL engine over a real org file); a recorder
wrapped around its request handler shows what reached it, and can answer with a fault.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Filter, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend, sosl_escape
from crm_tui.org.backends.sf_connection import SalesforceCredentials, load_credentials
from crm_tui.org.schema.ids import make_id, to18
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import ORG_ID, OrgServer, Response
from crm_tui.org.soql.lexer import Kind, tokenize
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.launch import Launch
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pilot import settle
from tests.helpers.sf_client import login_session, trusted_session
from tests.helpers.study_on_org import create_profile, study_rows

PASSWORD, TOKEN = "pw-S3cret!", "tok-XYZ987"
TRICKY = 'C:\\Temp "quoted" O\'Neil'  # a quote, a backslash and double quotes
ACCOUNTS = [make_id("001", i) for i in range(4)]
PRODUCTS = [make_id("01t", i) for i in range(2)]


@pytest.fixture(scope="module")
def tricky_org(tmp_path_factory):
    path = tmp_path_factory.mktemp("tricky") / "tricky.sqlite"
    with OrgStore.create(path) as store:
        store.insert(
            "Account",
            [
                {"Id": ACCOUNTS[0], "Name": "Ann O'Brien", "LastName": "O'Brien"},
                {"Id": ACCOUNTS[1], "Name": TRICKY, "LastName": "O'Neil"},
                {"Id": ACCOUNTS[2], "Name": "C:\\Temp", "LastName": "Temp"},
                {"Id": ACCOUNTS[3], "Name": "50% _off_", "LastName": "Off"},
            ],
        )
        store.insert(
            "Product2",
            [
                {"Id": PRODUCTS[0], "Name": "Jump-Rope (Pro)!", "Description": "For speed work."},
                {"Id": PRODUCTS[1], "Name": "Jump Start Kit", "Description": "Cables."},
            ],
        )
        store.finish()
    return path


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return make_loopback_certificates(tmp_path_factory.mktemp("certs"))


class Recorder:
    """Wraps the server's handler: keeps every request, and answers `fault` when set."""

    def __init__(self, server: OrgServer):
        self.inner = server.api.handle
        self.requests: list[tuple[str, str]] = []
        self.fault: Callable[[str, str], Response | None] | None = None
        server.api.handle = self  # type: ignore[method-assign]  # the test stands in for it

    def __call__(self, method, url, headers, body, host):
        self.requests.append((method, url))
        answer = self.fault(method, url) if self.fault else None
        return answer or self.inner(method, url, headers, body, host)

    def queries(self) -> list[str]:
        return [
            parse_qs(urlsplit(url).query)["q"][0]
            for _, url in self.requests
            if "/query" in url or "/search" in url
        ]

    def logins(self) -> int:
        return sum("/services/Soap/u/" in url for _, url in self.requests)


def start(org, certs, **kw) -> tuple[OrgServer, Recorder]:
    login = {"username": "ann@example.com", "password": PASSWORD, "security_token": TOKEN}
    server = OrgServer(org, tls=certs.server_context(), **{**login, **kw}).start()
    return server, Recorder(server)


def session_for(server: OrgServer, certs):
    return login_session(server, certs.ca_pem)


def password_backend(server, certs, session=None) -> SalesforceBackend:
    creds = SalesforceCredentials(
        username="ann@example.com", password=PASSWORD, security_token=TOKEN
    )
    return SalesforceBackend(creds, session=session or session_for(server, certs))


@pytest.fixture(scope="module")
def tricky(tricky_org, certs):
    server, recorder = start(tricky_org, certs)
    backend = password_backend(server, certs)
    yield backend, recorder
    backend.close()
    server.stop()


@pytest.fixture
def live(tricky_org, certs):
    """A server this test may stop, restart or rotate the session of."""
    servers = [start(tricky_org, certs)]
    yield servers
    servers[-1][0].stop()


# ----------------------------------------------------------------- connection
def test_login_with_username_password_and_token(tricky):
    backend, recorder = tricky
    assert recorder.logins() == 1
    assert backend.fingerprint == f"salesforce-{to18(ORG_ID)}@{backend.name}"
    assert backend.name.startswith("127.0.0.1:")
    assert backend.count("Account") == 4
    assert backend.usage.calls >= 2 and backend.usage.org_limit == 15000
    assert "Salesforce API calls" in str(backend.usage)


def test_login_with_instance_url_and_session_id(tricky_org, certs, live):
    server, recorder = live[0]
    creds = SalesforceCredentials(instance_url=server.url, session_id=server.session_id)
    backend = SalesforceBackend(creds, session=trusted_session(certs.ca_pem))
    assert backend.count("Product2") == 2 and recorder.logins() == 0


@pytest.mark.parametrize("login", ["password", "session"])
def test_answers_are_parsed_into_plain_dicts(tricky_org, certs, live, login):
    server, _ = live[0]
    if login == "session":
        creds = SalesforceCredentials(instance_url=server.url, session_id=server.session_id)
        backend = SalesforceBackend(creds, session=trusted_session(certs.ca_pem))
    else:
        backend = password_backend(server, certs)
    answer = backend._sf.query("SELECT Id, Name FROM Account LIMIT 1")
    record = answer["records"][0]
    assert (type(answer), type(record), type(record["attributes"])) == (dict, dict, dict)


def test_credentials_from_env_file_and_environment(tmp_path):
    env = tmp_path / ".env"
    env.write_text(
        f"SALESFORCE_USERNAME=ann@example.com\nSALESFORCE_PASSWORD={PASSWORD}\n"
        f"SALESFORCE_SECURITY_TOKEN={TOKEN}\nSALESFORCE_DOMAIN=test\n"
    )
    creds = load_credentials(env, environ={})
    assert (creds.username, creds.password, creds.security_token, creds.domain) == (
        "ann@example.com",
        PASSWORD,
        TOKEN,
        "test",
    )
    assert PASSWORD not in repr(creds) and TOKEN not in repr(creds)
    # The environment wins over the file; --domain wins over both.
    creds = load_credentials(env, domain="acme.my", environ={"SALESFORCE_PASSWORD": "other"})
    assert (creds.password, creds.domain) == ("other", "acme.my")
    empty = tmp_path / "empty.env"
    empty.write_text("")
    session = load_credentials(
        empty,
        environ={
            "SALESFORCE_INSTANCE_URL": "https://x.my.salesforce.com",
            "SALESFORCE_SESSION_ID": "00Dabc!sess",
        },
    )
    assert session.session_id == "00Dabc!sess" and not session.uses_password
    with pytest.raises(CrmTuiError, match="No .env file at"):
        load_credentials(tmp_path / "missing.env", environ={})
    with pytest.raises(CrmTuiError, match="Missing: SALESFORCE_PASSWORD$"):
        load_credentials(empty, environ={"SALESFORCE_USERNAME": "ann@example.com"})


# ----------------------------------------------------------------- escaping
def test_filter_with_quotes_and_backslashes_reaches_the_server_escaped(tricky):
    backend, recorder = tricky
    page = backend.page("Account", [Filter("Name", "=", TRICKY)])
    assert [r["Id"] for r in page.records] == [ACCOUNTS[1]]
    soql = recorder.queries()[-1]
    literals = [t.value for t in tokenize(soql) if t.kind is Kind.STRING]
    assert TRICKY in literals  # the server decoded exactly the value typed
    assert "'C:\\\\Temp \\\"quoted\\\" O\\'Neil'" in soql
    assert backend.count("Account", [Filter("Name", "contains", "\\Temp")]) == 2
    assert backend.count("Account", [Filter("Name", "contains", "O'")]) == 2
    # LIKE wildcards in the value are literal characters.
    assert [
        r["Id"] for r in backend.page("Account", [Filter("Name", "contains", "%")]).records
    ] == [ACCOUNTS[3]]
    assert backend.count("Account", [Filter("Name", "starts with", "_")]) == 0


def test_sosl_search_with_reserved_characters(tricky):
    backend, recorder = tricky
    hits = backend.search("jump-rope (pro)!")
    assert [h.record_id for h in hits] == [PRODUCTS[0]]
    sosl = recorder.queries()[-1]
    assert sosl.startswith("FIND {jump\\-rope \\(pro\\)\\!*} IN ALL FIELDS RETURNING ")
    assert {h.record_id for h in backend.search("o'brien")} == {ACCOUNTS[0]}
    # Braces and parentheses cannot end the term early and inject a RETURNING clause.
    assert backend.search("rope} RETURNING User(Id") == []
    assert recorder.queries()[-1].startswith("FIND {rope\\} RETURNING User\\(Id*} IN ")
    assert backend.search("!!! ??") == []


def test_sosl_escape_covers_every_reserved_character():
    reserved = "?&|!{}[]()^~*:\\\"'+-"
    assert sosl_escape(reserved) == "".join("\\" + c for c in reserved)
    assert sosl_escape("plain") == "plain"


# ----------------------------------------------------------------- faults
def test_dropped_connection_is_a_clear_error_and_recovers(tricky_org, certs, live):
    server, _ = live[0]
    session = session_for(server, certs)
    backend = password_backend(server, certs, session)
    assert backend.page("Account", limit=2).records
    port, session_id = server.port, server.session_id
    server.stop()
    session.close()  # the server's end of the kept-alive connection goes with it
    with pytest.raises(CrmTuiError, match=f"Cannot reach Salesforce at 127.0.0.1:{port}"):
        backend.page("Account", limit=2)
    live.append(start(tricky_org, certs, port=port, session_id=session_id))
    assert len(backend.page("Account", limit=2).records) == 2


def test_expired_session_logs_in_again_once(live, certs):
    server, recorder = live[0]
    backend = password_backend(server, certs)
    assert backend.page("Account", limit=1).records
    server.api.session_id = "a-new-session"  # the old session has expired
    assert backend.page("Account", limit=1).records
    assert recorder.logins() == 2


def test_expired_session_id_is_a_clear_error(live, certs):
    server, _ = live[0]
    creds = SalesforceCredentials(instance_url=server.url, session_id=server.session_id)
    backend = SalesforceBackend(creds, session=trusted_session(certs.ca_pem))
    server.api.session_id = "a-new-session"
    with pytest.raises(CrmTuiError, match="session has expired") as caught:
        backend.page("Account")
    assert creds.session_id is not None and creds.session_id not in str(caught.value)


@pytest.mark.parametrize(
    "fault, message",
    [
        (
            Response(
                403,
                [
                    {
                        "errorCode": "REQUEST_LIMIT_EXCEEDED",
                        "message": "TotalRequests Limit exceeded.",
                    }
                ],
            ),
            "API request limit",
        ),
        (Response(200, b"<html>maintenance</html>", "text/html"), "cannot read"),
        (Response(200, {"records": "not a list", "totalSize": 1}), "cannot read"),
        (
            Response(500, [{"errorCode": "UNKNOWN_EXCEPTION", "message": "boom"}]),
            "HTTP 500 to a query: UNKNOWN_EXCEPTION: boom",
        ),
        (
            Response(400, [{"errorCode": "INVALID_FIELD", "message": "No such column"}]),
            "rejected a query: INVALID_FIELD",
        ),
    ],
)
def test_api_faults_are_clear_errors(tricky, fault, message):
    backend, recorder = tricky
    recorder.fault = lambda method, url: fault if "/query" in url else None
    try:
        with pytest.raises(CrmTuiError, match=message):
            backend.page("Account")
    finally:
        recorder.fault = None
    assert backend.page("Account", limit=1).records  # the next call works again


def test_no_credential_in_errors_or_logs(live, certs, caplog):
    server, recorder = live[0]
    secrets = [PASSWORD, TOKEN, PASSWORD + TOKEN]
    caplog.set_level(logging.DEBUG)
    errors = []
    backend = password_backend(server, certs)
    secrets.append(server.session_id)
    recorder.fault = lambda method, url: (
        Response(400, [{"errorCode": "X", "message": f"echo {PASSWORD} {server.session_id}"}])
        if "/query" in url
        else None
    )
    with pytest.raises(CrmTuiError) as caught:
        backend.page("Account")
    errors.append(str(caught.value))
    recorder.fault = None
    server.api.session_id = "rotated-session"
    backend.page("Account", limit=1)  # logs in again, with the password
    secrets.append(server.session_id)
    assert "[redacted]" in errors[0]
    text = caplog.text + "\n".join(errors) + repr(backend.__dict__)
    assert not [s for s in secrets if s in text]


# ----------------------------------------------------------------- paging at scale
@pytest.fixture(scope="module")
def default_pair(default_org_path, certs):
    server, recorder = start(default_org_path, certs)
    backend, local = password_backend(server, certs), LocalBackend(default_org_path)
    yield backend, local, recorder
    backend.close()
    local.close()
    server.stop()


def test_paging_977_cases_in_batches(default_pair):
    backend, local, recorder = default_pair
    assert backend.count("Case") == 977
    assert all("COUNT()" not in q or "/queryAll" not in q for q in recorder.queries())
    for sort in (Sort("CreatedDate", descending=True), Sort("ClosedDate"), Sort("Id")):
        seen, cursor, pages = [], None, 0
        while True:
            page = backend.page("Case", sort=sort, after=cursor, limit=200)
            seen += [r["Id"] for r in page.records]
            pages, cursor = pages + 1, page.next_cursor
            if cursor is None:
                break
        assert pages == 5 and len(set(seen)) == 977
        assert seen == [r["Id"] for r in local.page("Case", sort=sort, limit=977).records]


def test_a_page_longer_than_a_server_batch_follows_next_records(default_pair):
    backend, local, recorder = default_pair
    before = len(recorder.requests)
    page = backend.page("PricebookEntry", sort=Sort("Id"), limit=2100)
    assert [r["Id"] for r in page.records] == [
        r["Id"] for r in local.page("PricebookEntry", sort=Sort("Id"), limit=2100).records
    ]
    assert any("/query/01g" in url for _, url in recorder.requests[before:])


def test_soql_console_query_runs_on_the_org(default_pair):
    backend, local, _ = default_pair
    result = backend.soql("SELECT Id, Status FROM Case ORDER BY Id")
    assert result.total_size == 977
    assert [r["Id"] for r in result.records] == [
        r["Id"] for r in local.soql("SELECT Id, Status FROM Case ORDER BY Id").records
    ]
    assert backend.soql("SELECT COUNT() FROM PricebookEntry").total_size == 22_000
    with pytest.raises(CrmTuiError, match="MALFORMED_QUERY"):
        backend.soql("SELECT FROM Case")


# ----------------------------------------------------------------- a study on the org
async def test_a_study_attempt_survives_a_dropped_connection_and_an_expired_session(
    small_org_path, certs, tmp_path, monkeypatch
):
    server, recorder = start(small_org_path, certs)
    session = session_for(server, certs)
    backend = password_backend(server, certs, session)
    clock, study_path = FakeClock(), tmp_path / "study.sqlite"
    preset, preset_path = load_preset("paper-expert-study")
    with StudyStore.open(study_path, clock) as store:
        create_study(
            store,
            "live",
            preset,
            instances=study_rows(small_org_path, backend.fingerprint),
            task_set_hash="sha256:live",
            org_fingerprint=backend.fingerprint,
            preset_path=preset_path,
        )
    app = StudyApp(backend, Launch(study=study_path, study_clock=clock))
    errors: list[str] = []
    app.notify = lambda message, **kw: errors.append(message)  # type: ignore[method-assign]  # what the person would read
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await create_profile(pilot)
            await pilot.press("s")
            await settle(pilot)
            solve = app.screen
            assert isinstance(solve, SolveScreen)
            gold = next(
                r["answer"]
                for r in study_rows(small_org_path, backend.fingerprint)
                if r["crm_tui"]["answer_object"] == solve.family.answer_object
            )
            await pilot.press("f2")
            await settle(pilot)
            port, session_id = server.port, server.session_id
            server.stop()  # the network drops while the person browses
            session.close()
            app.navigate(RecordLocation(gold))
            await settle(pilot)
            assert any("Cannot reach Salesforce" in e for e in errors)
            server, recorder = start(small_org_path, certs, port=port, session_id=session_id)
            server.api.session_id = "expired-meanwhile"  # and the session expired
            app.navigate(RecordLocation(gold))  # the person tries again
            await settle(pilot)
            assert isinstance(app.screen, RecordScreen) and app.screen.record_id == gold
            assert recorder.logins() == 1
            await pilot.press("u")
            await settle(pilot)
            assert app.screen is solve
            await pilot.press("ctrl+s")
            await settle(pilot)
            await pilot.press("4")
            await settle(pilot)
    finally:
        server.stop()
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        attempt = db.exec(select(Attempt)).one()
        assert (attempt.status, attempt.answer_raw, attempt.score) == ("submitted", gold, 1.0)
    stored = study_path.read_bytes()
    for secret in (PASSWORD, TOKEN, session_id, "expired-meanwhile"):
        assert secret.encode() not in stored
    assert not [e for e in errors if PASSWORD in e or session_id in e]
