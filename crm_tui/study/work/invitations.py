"""Invitation codes: how a person reaches their profile in a multi-person study.

The coordinator runs `crm-tui study invite NAME --role ...`: that makes the profile and a
code of 4 groups of 4 characters from an alphabet without look-alikes (`7KQM-2XHD-...`,
80 random bits from `secrets`). The file keeps only what checks it: the first group
(`selector`) finds the row, the other twelve characters are checked against an scrypt
hash with a per-code salt, in constant time.

Whether the code is still good (decided here, said in the documentation):
- a code must be used for the first time before it expires (14 days by default);
- once used it is bound to its profile for good, and the same code reopens that profile
  (a person who closes the tab comes back with it) until the coordinator revokes it;
- a wrong, expired or revoked code gets one message (`BAD_CODE`), reaches no profile and
  is counted; `MAX_FAILURES` within `FAILURE_WINDOW` from one source lock it out, and then
  even a right code is refused with `LOCKED_OUT` until the window has passed;
- a right code from a source starts its count again: the wrong ones before it no longer
  count (a shared terminal's next person is not locked out by the last one's typos).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlmodel import Session, col, func, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store import db_logins
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import Annotator, Invitation, InvitationFailure, Mode, Study
from crm_tui.study.work.clock import as_utc
from crm_tui.study.work.profiles import add_profile, find_profile

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I/L look-alikes
GROUPS, GROUP_LENGTH = 4, 4
DEFAULT_EXPIRY = timedelta(days=14)
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)
# scrypt at n=2**14, r=8: ~16 MiB and some tens of ms per check; the selector means one
# check per try, never one per invitation.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}

BAD_CODE = "That code opens no profile. Check it, or ask the study coordinator for a new one."
LOCKED_OUT = (
    f"Too many wrong codes: wait {FAILURE_WINDOW.seconds // 60} minutes before trying again."
)


class InvitationState(StrEnum):
    PENDING = "pending"  # not used yet, not expired
    USED = "used"  # bound to its profile; reopens it until revoked
    EXPIRED = "expired"  # never used before it expired
    REVOKED = "revoked"


@dataclass(frozen=True)
class IssuedCode:
    """A new invitation: the code exists only here, to be printed once."""

    name: str
    mode: Mode
    code: str
    expires_at: datetime
    # Profiles with no code at all (made in the app before anyone was invited): the app
    # now opens on the code screen, so each needs `study invite NAME` to be reached.
    without_code: tuple[str, ...] = ()


@dataclass(frozen=True)
class InvitationRow:
    """An invitation as `crm-tui study invitations` lists it (never the code)."""

    name: str
    mode: Mode
    state: InvitationState
    study: str | None
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None


MAX_EXPIRY = timedelta(days=366)  # a code waits a year at most


def parse_expiry(text: str) -> timedelta:
    """`14d`, `36h`, `90m` or `2w` as a duration (CrmTuiError naming the option otherwise)."""
    match = re.fullmatch(r"\s*(\d+)\s*([mhdw])\s*", text.lower())
    if not match or int(match[1]) == 0:
        raise CrmTuiError(
            f"--expires: {text!r} is not a duration such as 14d, 36h, 90m or 2w (more than 0)"
        )
    unit = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}[match[2]]
    if len(match[1]) > 9:  # past any calendar; timedelta would overflow
        raise CrmTuiError(f"--expires: {text.strip()!r} is longer than {MAX_EXPIRY.days} days")
    duration = timedelta(**{unit: int(match[1])})
    if duration > MAX_EXPIRY:
        raise CrmTuiError(f"--expires: {text.strip()!r} is longer than {MAX_EXPIRY.days} days")
    return duration


def normalise_code(text: str) -> str:
    """The code's 16 characters as typed any way: lower case, spaces or dashes."""
    return re.sub(r"[\s\-]", "", text).upper()


def _hash(verifier: str, salt: bytes) -> bytes:
    return hashlib.scrypt(verifier.encode(), salt=salt, **_SCRYPT)


def _state(row: Invitation, now: datetime) -> InvitationState:
    if row.revoked_at is not None:
        return InvitationState.REVOKED
    if row.used_at is not None:
        return InvitationState.USED
    if as_utc(row.expires_at) <= now:
        return InvitationState.EXPIRED
    return InvitationState.PENDING


def _live(session: Session, annotator_id: int, now: datetime) -> list[Invitation]:
    rows = session.exec(select(Invitation).where(Invitation.annotator_id == annotator_id))
    return [
        row for row in rows if _state(row, now) in (InvitationState.PENDING, InvitationState.USED)
    ]


def invite(
    store: StudyStore,
    name: str,
    mode: str,
    *,
    job_role: str = "Study participant",
    crm_years: float = 0.0,
    study_name: str | None = None,
    expires_in: timedelta = DEFAULT_EXPIRY,
) -> IssuedCode:
    """Make profile NAME (or take it, if it has the same mode and no live code) and a new
    code for it."""
    now = store.now()[0]
    with store.transaction() as session:
        lock(session, "invitations")  # one live code per profile: checked, then written
        study_id = None
        if study_name is not None:
            study = session.exec(select(Study).where(Study.name == study_name)).first()
            if study is None:
                raise CrmTuiError(f"--study: no study named {study_name!r} in {store.path}")
            study_id = study.id
        annotator = find_profile(session, name)
        if annotator is None:
            annotator = add_profile(session, name, job_role, crm_years, mode, now)
        elif annotator.mode != mode:
            raise CrmTuiError(
                f"profile {annotator.name!r} is a {annotator.mode}, not a {mode}; "
                "invite another name"
            )
        assert annotator.id is not None, "add_profile flushes"
        if _live(session, annotator.id, now):
            raise CrmTuiError(
                f"profile {annotator.name!r} has a code that still works; revoke it first "
                f"(`crm-tui study revoke {annotator.name!r}`)"
            )
        taken = set(session.exec(select(Invitation.selector)))
        while True:
            characters = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP_LENGTH))
            selector, verifier = characters[:GROUP_LENGTH], characters[GROUP_LENGTH:]
            if selector not in taken:
                break
        salt = secrets.token_bytes(16)
        session.add(
            Invitation(
                annotator_id=annotator.id,
                study_id=study_id,
                selector=selector,
                salt=salt.hex(),
                verifier_hash=_hash(verifier, salt).hex(),
                created_at=now,
                expires_at=now + expires_in,
            )
        )
        session.flush()
        invited = set(session.exec(select(Invitation.annotator_id)))
        without_code = tuple(
            sorted(a.name for a in session.exec(select(Annotator)) if a.id not in invited)
        )
        groups = [characters[i : i + GROUP_LENGTH] for i in range(0, len(characters), GROUP_LENGTH)]
        return IssuedCode(
            annotator.name,
            Mode(annotator.mode),
            "-".join(groups),
            now + expires_in,
            without_code,
        )


OPENED = "opened"  # the reason of a try that opened a profile: the count starts again


def _recent_failures(session: Session, source: str, now: datetime) -> int:
    """Wrong tries from `source` within the window, since its last right code."""
    of_source = InvitationFailure.source == source
    since = now - FAILURE_WINDOW
    last_opened = session.exec(
        select(func.max(InvitationFailure.id)).where(of_source, InvitationFailure.reason == OPENED)
    ).one()
    return session.exec(
        select(func.count())
        .select_from(InvitationFailure)
        .where(
            of_source,
            col(InvitationFailure.failed_at) > since,
            col(InvitationFailure.id) > (last_opened or 0),
        )
    ).one()


_DUMMY_SALT = secrets.token_bytes(16)


def redeem(store: StudyStore, code: str, source: str) -> Annotator:
    """The profile `code` opens. Anything else (a wrong, expired or revoked code, or a
    source locked out) raises CrmTuiError with one message and is counted."""
    now = store.now()[0]
    with store.transaction() as session:
        # Counted, then added to: tries from one source wait for each other, so the
        # lock-out comes after exactly MAX_FAILURES (other sources go on beside them).
        lock(session, "invitation-source", source)
        if _recent_failures(session, source, now) >= MAX_FAILURES:
            reason, annotator_id, found = "locked", None, None
        else:
            reason, annotator_id, found = _check(session, normalise_code(code), now)
        if found is not None:
            if _recent_failures(session, source, now):  # wrong tries to forget
                session.add(
                    InvitationFailure(
                        source=source, annotator_id=found.id, reason=OPENED, failed_at=now
                    )
                )
            return found
        session.add(
            InvitationFailure(
                source=source, annotator_id=annotator_id, reason=reason, failed_at=now
            )
        )
    raise CrmTuiError(LOCKED_OUT if reason == "locked" else BAD_CODE)


def _check(session: Session, code: str, now: datetime) -> tuple[str, int | None, Annotator | None]:
    """(reason it failed, profile it named, profile it opens), marking a first use."""
    selector, verifier = code[:GROUP_LENGTH], code[GROUP_LENGTH:]
    well_formed = len(code) == GROUPS * GROUP_LENGTH and set(code) <= set(ALPHABET)
    row = (
        session.exec(select(Invitation).where(Invitation.selector == selector)).first()
        if well_formed
        else None
    )
    # Hash even when nothing matched: a try takes as long whether the selector exists or not.
    salt = bytes.fromhex(row.salt) if row is not None else _DUMMY_SALT
    digest = _hash(verifier, salt)
    if row is None or not hmac.compare_digest(digest, bytes.fromhex(row.verifier_hash)):
        return "wrong", None, None
    state = _state(row, now)
    if state in (InvitationState.EXPIRED, InvitationState.REVOKED):
        return state.value, row.annotator_id, None
    if row.used_at is None:
        row.used_at = now
        session.add(row)
    annotator = session.get(Annotator, row.annotator_id)
    assert annotator is not None, "an invitation's profile is never deleted"
    return "", row.annotator_id, annotator


def revoke(store: StudyStore, name: str) -> int:
    """Revoke profile NAME's codes that still work, and stop its PostgreSQL logins; how
    many."""
    now = store.now()[0]
    with store.transaction() as session:
        lock(session, "invitations")
        annotator = find_profile(session, name)
        if annotator is None:
            raise CrmTuiError(f"no profile named {name.strip()!r} in {store.path}")
        assert annotator.id is not None
        live = _live(session, annotator.id, now)
        for row in live:
            row.revoked_at = now
            session.add(row)
        # Their PostgreSQL logins (`crm-tui study db-login`) stop too.
        stopped = (
            db_logins.disable_logins(session.connection(), annotator.id) if store.on_server else 0
        )
        if not live and not stopped:
            logins = ", nor a PostgreSQL login" if store.on_server else ""
            raise CrmTuiError(f"profile {annotator.name!r} has no code that still works{logins}")
        return len(live) + stopped


def list_invitations(store: StudyStore) -> list[InvitationRow]:
    now = store.now()[0]
    with store.transaction() as session:
        studies = dict(session.exec(select(Study.id, Study.name)).all())
        rows = session.exec(
            select(Invitation, Annotator)
            .where(Invitation.annotator_id == Annotator.id)
            .order_by(col(Annotator.name), col(Invitation.id))
        ).all()
        return [
            InvitationRow(
                annotator.name,
                Mode(annotator.mode),
                _state(invitation, now),
                None if invitation.study_id is None else studies.get(invitation.study_id),
                as_utc(invitation.created_at),
                as_utc(invitation.expires_at),
                None if invitation.used_at is None else as_utc(invitation.used_at),
            )
            for invitation, annotator in rows
        ]


def has_invitations(store: StudyStore) -> bool:
    """Whether the file is a multi-person study: anyone was ever invited."""
    with store.transaction() as session:
        return session.exec(select(Invitation.id).limit(1)).first() is not None
