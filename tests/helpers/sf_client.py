"""Start the loopback server over TLS and build unmodified simple-salesforce clients for it."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import requests
import requests.adapters
from simple_salesforce import Salesforce

from crm_tui.org.backends.sf_connection import TimeoutSession
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer

API_VERSION = "59.0"
# The login the test servers accept (the server checks it; a real `org serve` prints its own).
USERNAME, PASSWORD, TOKEN = "agent@example.com", "pw-for-tests", "tok"


def with_login(kw: dict) -> dict:
    """OrgServer keywords with the test login unless the caller gives its own."""
    return {"username": USERNAME, "password": PASSWORD, "security_token": TOKEN, **kw}


@contextmanager
def serve_tls(org_path: Path, cert_dir: Path, **kw):
    certs = make_loopback_certificates(cert_dir)
    with OrgServer(org_path, tls=certs.server_context(), **with_login(kw)) as server:
        yield server, certs.ca_pem


def password_client(server: OrgServer, ca_pem: Path) -> Salesforce:
    """simple-salesforce logging in as CRMArena's harness does, with the server's login."""
    return Salesforce(
        username=server.username,
        password=server.password,
        security_token=server.api.security_token,
        session=login_session(server, ca_pem),
        version=API_VERSION,
    )


def trusted_session(ca_pem: Path, session: requests.Session | None = None) -> requests.Session:
    """`session` (by default a new one of the kind the app uses) trusting only the test
    CA at `ca_pem`."""
    session = session or TimeoutSession()
    session.verify = str(ca_pem)
    session.trust_env = False  # REQUESTS_CA_BUNDLE would otherwise override `verify`
    return session


def login_session(
    server: OrgServer, ca_pem: Path, session: requests.Session | None = None
) -> requests.Session:
    """A trusted session whose logins at login.salesforce.com reach the loopback server."""
    session = trusted_session(ca_pem, session)
    session.mount("https://login.salesforce.com/", LoginRedirect(server.port))
    return session


def client(server: OrgServer, ca_pem: Path) -> Salesforce:
    return Salesforce(
        instance_url=server.url,
        session_id=server.session_id,
        session=trusted_session(ca_pem),
        version=API_VERSION,
    )


class LoginRedirect(requests.adapters.HTTPAdapter):
    """Sends https://login.salesforce.com/... to the loopback server (login is hard-coded)."""

    def __init__(self, port: int, **kw):
        self.port = port
        super().__init__(**kw)

    def send(self, request, *args, **kw):
        request.url = request.url.replace("login.salesforce.com", f"127.0.0.1:{self.port}", 1)
        return super().send(request, *args, **kw)
