"""The REST server bounds its threads and read-only connections: past each
cap a client gets Salesforce's REQUEST_LIMIT_EXCEEDED shape at once, never a hang.
Real HTTP on 127.0.0.1, real sockets held open."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from crm_tui.org.server.rest import OrgServer
from tests.helpers.soql_org import TODAY, build_tiny_org
from tests.helpers.waiting import wait_until

COUNT = "/services/data/v59.0/query/?q=" + urllib.parse.quote("SELECT COUNT() FROM Account")


@pytest.fixture(scope="module")
def tiny_org(tmp_path_factory):
    return build_tiny_org(tmp_path_factory.mktemp("limits") / "org.sqlite")


def get(server: OrgServer, path: str, timeout: float = 10.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {server.session_id}"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def idle_connections(server: OrgServer, n: int) -> list[socket.socket]:
    """`n` clients that connect and say nothing: each holds a server thread."""
    return [socket.create_connection((server.host, server.port), timeout=10) for _ in range(n)]


def test_connections_past_the_cap_get_a_503_at_once_and_threads_stay_bounded(tiny_org):
    with OrgServer(tiny_org, today=TODAY, max_connections=3) as srv:
        threads_before = threading.active_count()
        held = idle_connections(srv, 20)
        try:
            # 3 threads serve the first three; the other 17 are answered and closed (their
            # answers read first: then every connection has been accepted).
            refused = [s for s in held[3:] if s.recv(4096).startswith(b"HTTP/1.1 503 ")]
            assert len(refused) == 17
            assert threading.active_count() - threads_before <= 3
            start = time.perf_counter()
            status, body = get(srv, COUNT, timeout=5)
            assert time.perf_counter() - start < 2.5
            assert status == 503
            [error] = json.loads(body)
            assert error["errorCode"] == "REQUEST_LIMIT_EXCEEDED"
            assert "3 connections" in error["message"]
        finally:
            for s in held:
                s.close()
        # The held threads see their clients go and free their slots.
        wait_until(lambda: get(srv, COUNT)[0] == 200, "a slot freed by a closed client")
        status, body = get(srv, COUNT)
        assert status == 200 and json.loads(body)["totalSize"] > 0


def test_queries_past_the_cap_wait_their_turn_then_get_a_503(tiny_org):
    with (
        OrgServer(tiny_org, today=TODAY, max_queries=1, query_wait_seconds=0.3) as srv,
        _holding_the_only_turn(srv),
    ):
        start = time.perf_counter()
        status, body = get(srv, COUNT)
        waited = time.perf_counter() - start
        assert status == 503 and 0.3 <= waited < 3
        [error] = json.loads(body)
        assert error["errorCode"] == "REQUEST_LIMIT_EXCEEDED"
        assert "1 queries already running" in error["message"]
    with OrgServer(tiny_org, today=TODAY, max_queries=1, query_wait_seconds=5) as srv:
        with _holding_the_only_turn(srv, release_after=0.5):
            status, body = get(srv, COUNT)  # waits for the turn, then is answered
        assert status == 200


def test_concurrent_queries_never_open_more_read_only_connections_than_the_cap(tiny_org):
    with OrgServer(tiny_org, today=TODAY, max_queries=2) as srv:
        answers: list[int] = []

        def client() -> None:
            for _ in range(5):
                answers.append(get(srv, COUNT, timeout=30)[0])

        clients = [threading.Thread(target=client) for _ in range(12)]
        for t in clients:
            t.start()
        for t in clients:
            t.join()
        assert answers == [200] * 60
        assert len(srv.api.readers) <= 2  # every connection opened was pooled: ≤ the cap


@contextmanager
def _holding_the_only_turn(server: OrgServer, release_after: float | None = None) -> Iterator[None]:
    """Hold a query turn from another thread (as a long query would), for a while."""
    gate, holding = threading.Event(), threading.Event()

    def hold(_reader: object) -> None:
        holding.set()
        gate.wait(30)

    thread = threading.Thread(target=server.api.run, args=(hold,))
    thread.start()
    assert holding.wait(10)
    if release_after is not None:
        threading.Timer(release_after, gate.set).start()
    try:
        yield
    finally:
        gate.set()
        thread.join(30)


def test_an_interrupt_while_a_connection_is_handed_over_frees_its_slot_once(
    tiny_org, monkeypatch: pytest.MonkeyPatch
):
    """A KeyboardInterrupt (a server embedded in a program with Python's default Ctrl-C)
    that lands after the connection's thread has started: both the loop and the thread
    end the connection, and its slot comes back once, not twice."""
    server = OrgServer(tiny_org, max_connections=2, query_workers=0)
    httpd = server.httpd
    original_start = threading.Thread.start
    started: list[threading.Thread] = []

    def start_then_interrupt(thread: threading.Thread) -> None:
        original_start(thread)
        started.append(thread)
        raise KeyboardInterrupt

    thread_errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: thread_errors.append(args.exc_value))
    ours, theirs = socket.socketpair()
    try:
        monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
        with pytest.raises(KeyboardInterrupt):
            httpd.process_request(ours, ("127.0.0.1", 1))
        monkeypatch.setattr(threading.Thread, "start", original_start)
        theirs.close()  # the connection's thread reads the end and finishes
        started[0].join(10)
        assert not started[0].is_alive()
        assert thread_errors == []
        # Exactly the two slots: both free, none made up by a second release.
        assert httpd.connection_slots.acquire(blocking=False)
        assert httpd.connection_slots.acquire(blocking=False)
        assert not httpd.connection_slots.acquire(blocking=False)
    finally:
        monkeypatch.setattr(threading.Thread, "start", original_start)
        server.stop()
