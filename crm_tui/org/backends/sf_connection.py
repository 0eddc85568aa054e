"""Credentials for a Salesforce org and the simple-salesforce client built from them.

Credentials come from the environment or a `.env` file under CRMArena's names. They live
only in memory: `repr` hides them, and `redact` scrubs them from any text before it is
shown, logged or raised.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import requests
from dotenv import dotenv_values
from simple_salesforce.api import Salesforce
from simple_salesforce.exceptions import SalesforceAuthenticationFailed

from crm_tui.errors import CrmTuiError

API_VERSION = "59.0"
REQUEST_TIMEOUT = 60.0  # seconds; a dead network must not hang a worker forever
PASSWORD_VARS = ("SALESFORCE_USERNAME", "SALESFORCE_PASSWORD", "SALESFORCE_SECURITY_TOKEN")
SESSION_VARS = ("SALESFORCE_INSTANCE_URL", "SALESFORCE_SESSION_ID")
REDACTED = "[redacted]"


@dataclass(frozen=True, repr=False)
class SalesforceCredentials:
    """Either username + password (+ security token) with a login domain, or a session."""

    username: str | None = None
    password: str | None = None
    security_token: str | None = None
    domain: str = "login"  # login, test (sandboxes) or a My Domain such as acme.my
    instance_url: str | None = None
    session_id: str | None = None

    @property
    def uses_password(self) -> bool:
        return self.password is not None

    @property
    def secrets(self) -> list[str]:
        """Every secret value, longest first (password + token is sent as one string)."""
        parts = [self.password, self.security_token, self.session_id]
        if self.password and self.security_token:
            parts.append(self.password + self.security_token)
        return sorted({p for p in parts if p}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text

    def __repr__(self) -> str:
        who = self.username if self.uses_password else self.instance_url
        return f"SalesforceCredentials({who!r}, domain={self.domain!r}, secrets hidden)"


def load_credentials(
    env_file: str | Path | None = None,
    domain: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> SalesforceCredentials:
    """Credentials from the environment, with `env_file` (default `./.env`) filling gaps."""
    environ = os.environ if environ is None else environ
    path = Path(env_file) if env_file is not None else Path(".env")
    if env_file is not None and not path.is_file():
        raise CrmTuiError(f"No .env file at {path}")
    values = (
        {k: v for k, v in dotenv_values(path).items() if v is not None} if path.is_file() else {}
    )
    values.update({k: v for k, v in environ.items() if k.startswith("SALESFORCE_")})
    domain = domain or values.get("SALESFORCE_DOMAIN") or "login"
    if all(values.get(name) for name in PASSWORD_VARS[:2]):
        return SalesforceCredentials(
            username=values["SALESFORCE_USERNAME"],
            password=values["SALESFORCE_PASSWORD"],
            security_token=values.get("SALESFORCE_SECURITY_TOKEN", ""),
            domain=domain,
        )
    if all(values.get(name) for name in SESSION_VARS):
        return SalesforceCredentials(
            instance_url=values["SALESFORCE_INSTANCE_URL"],
            session_id=values["SALESFORCE_SESSION_ID"],
            domain=domain,
        )
    where = f"the environment or {path}"
    missing = [n for n in PASSWORD_VARS[:2] if not values.get(n)]
    raise CrmTuiError(
        f"No Salesforce credentials in {where}: set {', '.join(PASSWORD_VARS)} "
        f"(and SALESFORCE_DOMAIN for a sandbox or My Domain), or "
        f"{' and '.join(SESSION_VARS)}. Missing: {', '.join(missing)}"
    )


# requests.Session.request(method, url, params, data, headers, cookies, files, auth, timeout,
# ...): the place of `timeout` among the arguments after `url`.
_TIMEOUT_POSITION = 7


class _OrjsonResponse(requests.Response):
    """A response whose `json()` parses with orjson when the caller wants plain values
    (crm-tui's clients: `object_pairs_hook=None`): a page of 2,000 records in 2.1 ms
    instead of json's 3.8. Anything orjson refuses (NaN, a body not in UTF-8) is read
    by `requests` as before, so the answer or the error is the same."""

    def json(self, **kwargs: Any) -> Any:
        if not any(kwargs.values()):
            try:
                return orjson.loads(self.content)
            except orjson.JSONDecodeError:
                pass
        return super().json(**kwargs)


class TimeoutSession(requests.Session):
    """A requests session whose calls time out unless the caller says otherwise, and
    whose answers parse fast (`_OrjsonResponse`)."""

    def __init__(self, timeout: float = REQUEST_TIMEOUT):
        super().__init__()
        self.timeout = timeout

    def request(
        self, method: str, url: str | bytes, *args: Any, **kwargs: Any
    ) -> requests.Response:
        if len(args) < _TIMEOUT_POSITION:  # the timeout was not passed by position
            kwargs.setdefault("timeout", self.timeout)
        response = super().request(method, url, *args, **kwargs)
        response.__class__ = _OrjsonResponse  # a subclass adding no state
        return response


# A real org's certificate is trusted as it is; one that is not is most likely a local
# server with its own CA (`crm-tui org serve --tls`), which requests trusts through this.
UNTRUSTED_CERTIFICATE = (
    "For a server with its own CA, such as `crm-tui org serve --tls`, set REQUESTS_CA_BUNDLE "
    "to that CA file (org serve prints the line to paste)."
)


def connect(
    credentials: SalesforceCredentials, session: requests.Session | None = None
) -> Salesforce:
    """A logged-in client; a CrmTuiError (without secrets) if login fails. Answers are
    parsed into plain dicts by `json`'s own object builder (`object_pairs_hook=None`):
    simple-salesforce's default OrderedDicts cost about twice the parsing of a big answer
    (measured by `tests/benchmarks/soql_latency.py`), and a `dict` hook, called with each
    object's pairs, still 40% more than none; nothing here needs their order semantics."""
    session = session or TimeoutSession()
    try:
        if credentials.uses_password:
            # simple-salesforce logs in again by itself when the session expires.
            return Salesforce(
                username=credentials.username,
                password=credentials.password,
                security_token=credentials.security_token,
                domain=credentials.domain,
                session=session,
                version=API_VERSION,
                object_pairs_hook=None,
            )
        return Salesforce(
            instance_url=credentials.instance_url,
            session_id=credentials.session_id,
            session=session,
            version=API_VERSION,
            object_pairs_hook=None,
        )
    except SalesforceAuthenticationFailed as exc:
        raise CrmTuiError(
            credentials.redact(
                f"Salesforce login to {credentials.domain}.salesforce.com failed: {exc.auth_message} "
                f"({exc.code}). Check SALESFORCE_USERNAME, SALESFORCE_PASSWORD and "
                f"SALESFORCE_SECURITY_TOKEN, and SALESFORCE_DOMAIN for a sandbox."
            )
        ) from None
    except requests.exceptions.SSLError:
        raise CrmTuiError(
            "Cannot trust the certificate of the Salesforce login server. " + UNTRUSTED_CERTIFICATE
        ) from None
    except requests.RequestException as exc:
        raise CrmTuiError(
            credentials.redact(f"Cannot reach Salesforce to log in: {type(exc).__name__}: {exc}")
        ) from None
    except Exception as exc:  # an answer the client cannot read: a message, not a crash
        raise CrmTuiError(
            f"Salesforce login to {credentials.domain}.salesforce.com failed: "
            f"unexpected {type(exc).__name__}"
        ) from None
