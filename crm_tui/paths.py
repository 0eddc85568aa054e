"""Where crm-tui keeps its data, and where its bundled data folders are.

Per-user data folder (platformdirs): ~/.local/share/crm-tui on Linux,
~/Library/Application Support/crm-tui on macOS, %LOCALAPPDATA%\\crm-tui on Windows.
Environment variables override: CRM_TUI_HOME (the whole folder), CRM_TUI_ORG (the org
file), CRM_TUI_TASKS (the task set), CRM_TUI_STUDY (the study database).
CRM_TUI_STUDY_URL (a `postgresql://` URL) puts the study store on a PostgreSQL server,
which many annotators on many machines share; it wins over CRM_TUI_STUDY.
"""

from __future__ import annotations

import ipaddress
import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from platformdirs import user_data_dir

PACKAGE_DIR = Path(__file__).resolve().parent


def data_home() -> Path:
    return Path(os.environ.get("CRM_TUI_HOME") or user_data_dir("crm-tui", appauthor=False))


def default_org_path() -> Path:
    return Path(os.environ.get("CRM_TUI_ORG") or data_home() / "orgs" / "default.sqlite")


def default_taskset_path() -> Path:
    return Path(os.environ.get("CRM_TUI_TASKS") or data_home() / "tasks" / "default.json")


def default_study_path() -> Path:
    return Path(os.environ.get("CRM_TUI_STUDY") or data_home() / "study.sqlite")


# The environment variable a browser tab's process learns its person's address from: the
# web server sets it per tab, the command line reads it into the app's launch settings.
CODE_SOURCE_VARIABLE = "CRM_TUI_CODE_SOURCE"

# Where a study lives: a study file's path, or a PostgreSQL server's URL
# (`postgresql://user@host/db`), which stays text (a Path would fold its `//`).
StudyLocation = Path | str


def default_study_location() -> StudyLocation:
    """The study store: a PostgreSQL URL (CRM_TUI_STUDY_URL, or a URL in CRM_TUI_STUDY),
    else the study file."""
    url = os.environ.get("CRM_TUI_STUDY_URL") or os.environ.get("CRM_TUI_STUDY") or ""
    return url if is_database_url(url) else default_study_path()


# What `--db` and the variables take as a server rather than a file.
_DATABASE_URL = re.compile(r"postgres(ql)?(\+\w+)?://", re.IGNORECASE)
_SECRET_QUERY_KEYS = {"password", "passfile", "sslpassword"}


def is_database_url(location: object) -> bool:
    return isinstance(location, str) and _DATABASE_URL.match(location) is not None


def study_location(location: str | Path) -> StudyLocation:
    """A URL stays text (a Path would fold its `//`); anything else is a file path."""
    return location if is_database_url(location) else Path(location)


def store_key(location: StudyLocation) -> str:
    """A short, stable name for a study store (its file, or its server without the
    password): what a person's own files in the data folder are kept under, since profile
    ids start again at 1 in every store."""
    import hashlib

    url = isinstance(location, str) and is_database_url(location)
    text = redact_url(str(location)) if url else str(Path(location).resolve())
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def redact_url(url: str) -> str:
    """`url` for messages and logs: the password, in the address or in the query, is
    `***` (`postgresql://ann:***@host/study`)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            who, where = netloc.rsplit("@", 1)
            if ":" in who:
                who = f"{who.split(':', 1)[0]}:***"
            netloc = f"{who}@{where}"
        query = urlencode(
            [
                (key, "***" if key.lower() in _SECRET_QUERY_KEYS else value)
                for key, value in parse_qsl(parts.query, keep_blank_values=True)
            ],
            safe="*",
        )
        return urlunsplit((parts.scheme, netloc, parts.path, query, ""))
    except ValueError:  # a malformed address: show none of it, it may hold the password
        return "<a PostgreSQL URL that cannot be read>"


def private_data_home() -> Path:
    """The data folder, made or closed to 0700: it holds study files (gold answers) and
    each profile's own files."""
    home = data_home()
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.chmod(home, 0o700)
    except OSError:  # a folder someone else owns: leave it; the files inside are 0600
        pass
    return home


def bundled_dir(name: str) -> Path:
    """`tasks` or `annotations`: inside the wheel (crm_tui/_data) or the checkout's top level."""
    installed = PACKAGE_DIR / "_data" / name
    if installed.is_dir():
        return installed
    return PACKAGE_DIR.parent / name


def is_loopback(host: str) -> bool:
    """True for a host name or address that only the local host can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
