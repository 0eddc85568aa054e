"""Fixtures of the study-store tests: the store on SQLite and on a real PostgreSQL server.

`study_store_url` runs a test once per store: a fresh SQLite file, then a fresh database
on the session's PostgreSQL server (one server per pytest-xdist worker, started on first
use and stopped at the end; skipped, saying why, where PostgreSQL is not installed).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.pg_server import PostgresServer, find_binaries, started_server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bin_dir = find_binaries()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (no initdb/postgres); .ci/run installs it")
    server = started_server(bin_dir)
    yield server
    server.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def study_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a new study store goes: a file path (no file yet), or the URL of a database
    holding an empty store at the latest version (migrating is tested on blank ones)."""
    if request.param == "sqlite":
        return tmp_path / "study.sqlite"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.migrated_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def blank_study_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a new study store goes, made from nothing by the migrations."""
    if request.param == "sqlite":
        return tmp_path / "study.sqlite"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()
