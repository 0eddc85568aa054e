"""Annotator profiles: who is working, their background, and what they may see."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore, lock
from crm_tui.study.store.models import Annotator, Mode


def create_profile(
    store: StudyStore, name: str, role: str, crm_years: float, mode: str = Mode.ANNOTATOR
) -> Annotator:
    with store.transaction() as session:
        return add_profile(session, name, role, crm_years, mode, store.now()[0])


def add_profile(
    session: Session, name: str, role: str, crm_years: float, mode: str, now: datetime
) -> Annotator:
    """Check and add a profile inside the caller's transaction (an invitation makes its
    profile in the same one)."""
    name, role = name.strip(), role.strip()
    if not name:
        raise CrmTuiError("profile name: must not be empty")
    if not role:
        raise CrmTuiError("profile role: must not be empty (e.g. Customer Service Agent)")
    if not 0 <= crm_years <= 80:
        raise CrmTuiError(f"profile crm_years: {crm_years} is not between 0 and 80")
    try:
        mode = Mode(mode)
    except ValueError:
        raise CrmTuiError(
            f"profile mode: {mode!r} is not one of {', '.join(m.value for m in Mode)}"
        ) from None
    lock(session, "profiles")  # a name is checked free, then taken
    if session.exec(select(Annotator).where(Annotator.name == name)).first():
        raise CrmTuiError(f"profile name: {name!r} is taken")
    annotator = Annotator(name=name, role=role, crm_years=crm_years, mode=mode, created_at=now)
    session.add(annotator)
    session.flush()
    return annotator


def find_profile(session: Session, name: str) -> Annotator | None:
    return session.exec(select(Annotator).where(Annotator.name == name.strip())).first()


def list_profiles(store: StudyStore, mode: Mode | None = None) -> list[Annotator]:
    """Every profile by name, or those of one mode (the app's list: annotators only)."""
    with store.transaction() as session:
        query = select(Annotator).order_by(Annotator.name)
        if mode is not None:
            query = query.where(Annotator.mode == mode)
        return list(session.exec(query))


def get_profile(session: Session, annotator_id: int) -> Annotator:
    annotator = session.get(Annotator, annotator_id)
    if annotator is None:
        raise CrmTuiError(f"no annotator profile with id {annotator_id}")
    return annotator


def require_mode(session: Session, annotator_id: int, *modes: Mode) -> Annotator:
    """The profile, if its mode is one of `modes` (the gate in front of gold answers)."""
    annotator = get_profile(session, annotator_id)
    if annotator.mode not in modes:
        raise CrmTuiError(
            f"{annotator.name} is a {annotator.mode}; this needs the "
            f"{' or '.join(m.value for m in modes)} role"
        )
    return annotator
