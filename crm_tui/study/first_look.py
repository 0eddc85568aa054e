"""What the app's first screen shows, read straight from the study file with the standard
library's sqlite3 before the study store is loaded (SQLAlchemy and SQLModel were half of
the app's start): the name of the study the app will open and the profiles a person may
pick from the list.

It answers only where the store will show the same: a local study file, a study of this
org (`pick_study`'s rule: the one named, else the newest), nobody invited (an invited file
starts on the code screen) and every read without error. Anything else (a server URL, a
live Salesforce org, invitations, no such study, a file it cannot read) is None, and the
app waits for the store. Every action still goes through the store once it is open.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from crm_tui.paths import StudyLocation, is_database_url
from crm_tui.study.views import Profile
from crm_tui.study.work.modes import Mode

BUSY_TIMEOUT_S = 1.0  # a file locked for longer is left to the store, which waits longer


@dataclass(frozen=True)
class FirstLook:
    """The study's name and the profiles `StudyService.pickable_profiles` would list."""

    study_name: str
    profiles: tuple[Profile, ...]


def first_look(path: StudyLocation, name: str | None, org_fingerprint: str) -> FirstLook | None:
    """The first screen's content from the study file at `path`, or None (see above)."""
    if is_database_url(path) or org_fingerprint.startswith("salesforce-"):
        return None  # a server, or a study of CRMArena's own org: the store decides
    file = Path(path)
    if not file.is_file():
        return None
    try:
        # mode=rw: never creates a file; query_only: never writes to one.
        connection = sqlite3.connect(
            f"{file.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S
        )
    except sqlite3.Error:
        return None
    try:
        connection.isolation_level = None
        connection.execute("PRAGMA query_only = ON")
        connection.execute("BEGIN")  # every read below sees the same moment of the file
        return _read(connection, name, org_fingerprint)
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def _read(connection: sqlite3.Connection, name: str | None, org: str) -> FirstLook | None:
    is_study_file = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if is_study_file is None:
        return None
    if connection.execute("SELECT 1 FROM invitation LIMIT 1").fetchone() is not None:
        return None
    studies = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM study WHERE org_fingerprint = ? ORDER BY id", (org,)
        )
    ]
    if name is not None:
        chosen = name if name in studies else None
    else:
        chosen = studies[-1] if studies else None
    if chosen is None:
        return None
    profiles = tuple(
        Profile(int(id_), str(person), str(role), float(years), Mode(mode))
        for id_, person, role, years, mode in connection.execute(
            "SELECT id, name, role, crm_years, mode FROM annotator WHERE mode = ? ORDER BY name",
            (Mode.ANNOTATOR.value,),
        )
    )
    return FirstLook(chosen, profiles)
