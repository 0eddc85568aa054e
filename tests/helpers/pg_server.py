"""A real PostgreSQL server for tests and benchmarks: PostgreSQL's own binaries (`initdb`,
`postgres`), a data folder in /tmp, 127.0.0.1 on a free port, password authentication.

As root, the server runs as the `postgres` user (or `nobody`), which owns its folder:
PostgreSQL refuses to run as root. `find_binaries()` returns None where PostgreSQL is not
installed (`.ci/run` installs it); the fixtures then skip, saying so. The server is a
child process that stops when its parent dies, so a killed test run leaves none behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

USER = "crm"
PR_SET_PDEATHSIG = 1  # prctl(2), Linux
_TMP = "/tmp" if Path("/tmp").is_dir() else None
PASSWORD = "pg-secret-5f3a"  # tests check that no message ever shows it


def find_binaries() -> Path | None:
    """The folder holding initdb and postgres, or None."""
    found = shutil.which("initdb")
    if found and (Path(found).resolve().parent / "postgres").exists():
        return Path(found).resolve().parent
    versions = Path("/usr/lib/postgresql").glob("*/bin")
    for folder in sorted(versions, key=lambda f: _number(f.parent.name), reverse=True):
        if (folder / "initdb").exists() and (folder / "postgres").exists():
            return folder
    return None


def _number(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop_with_parent() -> None:
    """In the server's process before exec: SIGINT (a fast shutdown) when its parent dies."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGINT)


def _run_as() -> str | None:
    """The unprivileged user to run the server as when we are root, else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root with neither a postgres nor a nobody user")


@dataclass
class PostgresServer:
    bin_dir: Path
    # In /tmp itself: the server's user must reach it (a pytest or TMPDIR folder may be
    # closed to it), and the socket's path must stay short.
    folder: Path = field(
        default_factory=lambda: Path(tempfile.mkdtemp(prefix="crm-tui-pg-", dir=_TMP))
    )
    port: int = field(default_factory=_free_port)
    _template: str | None = None
    _process: subprocess.Popen[bytes] | None = None

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def _run(self, *args: str) -> None:
        subprocess.run(
            [str(self.bin_dir / args[0]), *args[1:]],
            check=True,
            capture_output=True,
            user=_run_as(),
            cwd=self.folder,
        )

    def init(self) -> None:
        owner = _run_as()
        password_file = self.folder / "pw"
        password_file.write_text(PASSWORD)
        if owner is not None:
            entry = pwd.getpwnam(owner)
            for path in (self.folder, password_file):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            f"--pwfile={password_file}",
            "--auth-host=scram-sha-256",
            "--auth-local=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )

    def start(self) -> None:
        """Run `postgres` as our child, which the kernel stops if we die (a test run
        killed by a timeout leaves no server behind); return once it takes connections."""
        log = (self.folder / "log").open("ab")
        self._process = subprocess.Popen(
            [
                str(self.bin_dir / "postgres"),
                *("-D", str(self.data), "-p", str(self.port), "-k", str(self.folder)),
                *("-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"),
                # a test server need not survive a power cut: spare the shared disk
                *("-c", "fsync=off", "-c", "full_page_writes=off"),
            ],
            stdout=log,
            stderr=log,
            user=_run_as(),
            cwd=self.folder,
            preexec_fn=_stop_with_parent,  # after the switch of user, so it is kept
        )
        log.close()
        self._wait_until_ready()

    def _wait_until_ready(self, timeout_s: float = 60) -> None:
        import psycopg

        deadline = time.monotonic() + timeout_s
        while True:
            if self._process is not None and self._process.poll() is not None:
                log = (self.folder / "log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"postgres exited with {self._process.returncode}: {log}")
            try:
                psycopg.connect(self.url(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        """Fast shutdown (SIGINT): open sessions are cut, as when a server goes down."""
        if self._process is None:
            return
        self._process.send_signal(signal.SIGINT)
        self._process.wait(timeout=60)
        self._process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def new_database(self, template: str | None = None) -> str:
        """A fresh database, empty or a copy of database `template`; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def migrated_database(self) -> str:
        """A fresh database holding an empty study store at the latest schema version:
        a copy of one migrated once (copying is faster than migrating every time)."""
        if self._template is None:
            from crm_tui.study.store.db import StudyStore

            url = self.new_database()
            StudyStore.open(url).close()  # closed: a template must have no connections
            self._template = url.rsplit("/", 1)[1]
        return self.new_database(self._template)


def started_server(bin_dir: Path) -> PostgresServer:
    server = PostgresServer(bin_dir)
    try:
        server.init()
        server.start()
    except BaseException:
        server.remove()
        raise
    return server
