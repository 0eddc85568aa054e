"""An annotator's own PostgreSQL login, made by the coordinator (`crm-tui study db-login`).

The URL it prints is the one the annotator is given (as CRM_TUI_STUDY_URL): the owner's
address with the login's own name and password, never the owner's. What such a login
may and may not do is `store/db_logins.py`'s; the app on it opens that person's profile
with no invitation code (the login is the credential), and `study revoke NAME` stops it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError

from crm_tui.errors import CrmTuiError
from crm_tui.study.store import db_logins
from crm_tui.study.store.db import StudyStore, lock_store
from crm_tui.study.store.models import Mode, row_id
from crm_tui.study.work.profiles import add_profile, find_profile

_NOT_IN_URL = {"user", "password", "passfile", "sslpassword"}
_INSUFFICIENT_PRIVILEGE = "42501"


@dataclass(frozen=True)
class IssuedLogin:
    """A new login: its URL (password included) exists only here, to be printed once."""

    name: str
    rolname: str
    url: str


def make_login(
    store: StudyStore, name: str, *, job_role: str = "Study participant", crm_years: float = 0.0
) -> IssuedLogin:
    """A PostgreSQL login for annotator profile NAME (made if missing)."""
    if not store.on_server:
        raise CrmTuiError(
            f"{store.path} is a SQLite file: logins are PostgreSQL's. A file handed to "
            "someone is entirely theirs; to keep gold from annotators, serve the study "
            "(`crm-tui web`) or keep it on PostgreSQL"
        )
    store.refuse_blinded()
    try:
        with store.transaction() as session:
            lock_store(session)  # views, policies and grants are remade for every login
            annotator = find_profile(session, name)
            if annotator is None:
                annotator = add_profile(
                    session, name, job_role, crm_years, Mode.ANNOTATOR, store.now()[0]
                )
            elif annotator.mode != Mode.ANNOTATOR:
                raise CrmTuiError(
                    f"profile {annotator.name!r} is a {annotator.mode}: logins are for "
                    "annotators only (coordinators use the owner's URL)"
                )
            made = db_logins.create_login(session.connection(), row_id(annotator))
            profile_name = annotator.name
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) == _INSUFFICIENT_PRIVILEGE:
            raise CrmTuiError(
                f"{store.path}: this connection may not create PostgreSQL roles; connect "
                "as the store's owner with the CREATEROLE privilege"
            ) from None
        raise
    url = store.engine.url
    query = {k: v for k, v in url.query.items() if k.lower() not in _NOT_IN_URL}
    login_url = url.set(
        drivername="postgresql", username=made.rolname, password=made.password, query=query
    ).render_as_string(hide_password=False)
    return IssuedLogin(profile_name, made.rolname, login_url)


def disable_logins(store: StudyStore, annotator_id: int) -> int:
    """Stop the profile's logins (none on a file); how many."""
    if not store.on_server:
        return 0
    with store.transaction() as session:
        return db_logins.disable_logins(session.connection(), annotator_id)
