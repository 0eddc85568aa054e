"""Queries answered by worker processes (`query_pool`): the same bytes as
the server's own process gives, pages behind locators, errors and the time budget in
Salesforce's shape. Real servers on 127.0.0.1, real worker processes."""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from crm_tui.org.server.query_pool import runs_here
from crm_tui.org.server.rest import OrgServer
from crm_tui.org.soql import execute_soql
from tests.helpers.processes import child_pids
from tests.helpers.soql_org import TODAY, build_tiny_org

RECORDS = "SELECT Id, Name, Account.Name FROM Contact ORDER BY Name"
SEARCH = "FIND {a* OR e*} RETURNING Account(Name), Contact(Name)"


@pytest.fixture(scope="module")
def tiny_org(tmp_path_factory):
    return build_tiny_org(tmp_path_factory.mktemp("pool") / "org.sqlite")


@pytest.fixture(scope="module")
def servers(tiny_org):
    with (
        OrgServer(tiny_org, today=TODAY) as here,
        OrgServer(tiny_org, today=TODAY, query_workers=1) as pooled,
    ):
        yield here, pooled


def get(server: OrgServer, path: str, batch: int | None = None) -> tuple[int, bytes]:
    headers = {"Authorization": f"Bearer {server.session_id}"}
    if batch:
        headers["Sforce-Query-Options"] = f"batchSize={batch}"
    conn = http.client.HTTPConnection(server.host, server.port, timeout=60)
    try:
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def query(text: str, resource: str = "query") -> str:
    return f"/services/data/v59.0/{resource}/?q={urllib.parse.quote(text)}"


def test_small_queries_stay_in_the_servers_process_and_record_lists_go_to_workers():
    assert runs_here("SELECT COUNT() FROM Case")
    assert runs_here("SELECT Status, COUNT(Id) FROM Case GROUP BY Status")
    assert runs_here("SELECT MAX(CreatedDate) FROM Case")
    assert runs_here("SELECT Id FROM Case LIMIT 10")
    assert runs_here("SELEKT nonsense")  # refused at once, here
    assert not runs_here("SELECT Id, Subject FROM Case")
    assert not runs_here("SELECT Id FROM Case LIMIT 5000")


@pytest.mark.parametrize(
    "path",
    [query(RECORDS), query(SEARCH, "search"), query("SELECT COUNT() FROM Contact")],
    ids=["records", "search", "count"],
)
def test_workers_answer_the_same_bytes_as_the_servers_process(servers, path):
    here, pooled = servers
    assert get(pooled, path) == get(here, path)
    assert get(pooled, path)[0] == 200


def test_worker_answers_page_behind_query_locators(servers, tiny_org):
    here, pooled = servers
    text = "SELECT Id, Name FROM Contact"
    pages = []
    status, body = get(pooled, query(text), batch=200)
    assert status == 200
    answer = json.loads(body)
    pages.append(answer["records"])
    while not answer["done"]:
        status, body = get(pooled, answer["nextRecordsUrl"])
        answer = json.loads(body)
        pages.append(answer["records"])
    everything = json.loads(get(here, query(text))[1])["records"]
    assert [r for page in pages for r in page] == everything


def test_worker_errors_and_the_time_budget_keep_salesforces_shape(tiny_org, default_org_path):
    # A budget spent at the first progress check (see test_server_hardening's timeout test).
    with OrgServer(default_org_path, query_workers=1, query_seconds=0.0) as srv:
        slow = "SELECT Id, Subject FROM Case WHERE Subject LIKE '%a%' ORDER BY Subject"
        status, body = get(srv, query(slow))
        assert status == 400 and json.loads(body)[0]["errorCode"] == "QUERY_TIMEOUT"
        worst = "FIND {" + " OR ".join(["a*", "e*", "o*", "i*"] * 5) + "}"
        status, body = get(srv, query(worst, "search"))
        assert status == 400 and json.loads(body)[0]["errorCode"] == "QUERY_TIMEOUT"
        srv.api.query_seconds = 30.0  # the next query is answered as usual
        assert get(srv, query(slow))[0] == 200
    with OrgServer(tiny_org, today=TODAY, query_workers=1) as srv:
        status, body = get(srv, query("SELECT Id, Nope FROM Contact ORDER BY Name"))
        assert status == 400 and json.loads(body)[0]["errorCode"] == "INVALID_FIELD"


def _alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill"])
def test_query_workers_end_with_the_server(tiny_org, tmp_path, stop):
    server = subprocess.Popen(
        [sys.executable, "-c", "from crm_tui.cli import main; main()", "org", "serve"]
        + ["--org", str(tiny_org), "--port", "0", "--query-workers", "2", "--today", "2024-06-01"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRM_TUI_HOME": str(tmp_path)},
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split(" at ")[1].split()[0]
        session = server.stdout.readline().split(": ")[1].strip()
        conn = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1]), timeout=60)
        conn.request("GET", query(RECORDS), headers={"Authorization": f"Bearer {session}"})
        assert conn.getresponse().status == 200  # answered by a worker: the pool is up
        conn.close()
        workers = {pid for pid in child_pids(server.pid) if "spawn_main" in _cmdline(pid)}
        assert workers  # started on demand: one for one query
        server.send_signal(stop)
        server.wait(timeout=30)
        deadline = time.monotonic() + 10
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(workers)
    finally:
        server.kill()
        server.wait()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def test_a_server_stopped_before_it_serves_stops_at_once(tiny_org):
    """`stop()` on a server whose loop never ran (a SIGTERM just after its lines print)
    returns: it once waited for ever on a loop that was never going to end."""
    server = OrgServer(tiny_org, today=TODAY, query_workers=1)
    stopper = threading.Thread(target=server.stop, daemon=True)
    stopper.start()
    stopper.join(timeout=20)
    assert not stopper.is_alive()


@pytest.mark.parametrize("workers", ["0", "2"])
def test_sigterm_as_soon_as_the_lines_print_stops_the_server(tiny_org, tmp_path, workers):
    server = subprocess.Popen(
        [sys.executable, "-c", "from crm_tui.cli import main; main()", "org", "serve"]
        + ["--org", str(tiny_org), "--port", "0", "--query-workers", workers],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRM_TUI_HOME": str(tmp_path)},
    )
    try:
        assert server.stdout is not None
        while (line := server.stdout.readline()) and not line.startswith("or login"):
            pass
        server.terminate()
        server.wait(timeout=20)
    finally:
        server.kill()
        server.wait()


def test_queries_are_routed_by_the_size_of_their_answer_not_their_limit_alone():
    # A child sub-query brings every child of each record: no LIMIT bounds that.
    assert not runs_here("SELECT Id, (SELECT Id, Subject FROM Cases) FROM Account LIMIT 200")
    # 200 records of long texts are megabytes, however short the LIMIT.
    assert not runs_here("SELECT Id, Description FROM Case LIMIT 200")
    assert runs_here("SELECT Id, Subject, Status FROM Case LIMIT 200")


@pytest.mark.parametrize("workers", [0, 1], ids=["here", "in a worker"])
def test_pages_are_bounded_in_bytes_and_together_give_every_record_once(small_org_path, workers):
    text = "SELECT Id, Subject, Account.Name FROM Case ORDER BY Id"
    with OrgServer(small_org_path, query_workers=workers, page_bytes=20_000) as srv:
        everything = execute_soql(srv.store, text, today=srv.api.today).records
        status, body = get(srv, query(text), batch=2000)
        pages = [json.loads(body)]
        while not pages[-1]["done"]:
            status, body = get(srv, pages[-1]["nextRecordsUrl"])
            assert status == 200
            pages.append(json.loads(body))
    assert len(pages) > 1 and all(len(json.dumps(p["records"])) <= 20_000 for p in pages)
    assert all(p["totalSize"] == pages[0]["totalSize"] for p in pages)
    seen = [r for p in pages for r in p["records"]]
    assert [r["Id"] for r in seen] == [r["Id"] for r in everything]
    # A page asked for at an offset between two pages is cut the same way.
    with OrgServer(small_org_path, query_workers=workers, page_bytes=20_000) as srv:
        first = json.loads(get(srv, query(text), batch=2000)[1])
        locator = first["nextRecordsUrl"].rsplit("-", 1)[0]
        odd = json.loads(get(srv, f"{locator}-3")[1])
    assert [r["Id"] for r in odd["records"]] == [r["Id"] for r in seen[3 : 3 + len(odd["records"])]]
    assert len(json.dumps(odd["records"])) <= 20_000


@pytest.mark.parametrize("workers", [0, 1], ids=["here", "in a worker"])
def test_an_answer_past_its_bound_is_a_salesforce_error_naming_it(small_org_path, workers):
    text = "SELECT Id, Name, (SELECT Id, Subject FROM Cases) FROM Account"
    with OrgServer(small_org_path, query_workers=workers, answer_bytes=1_000) as srv:
        status, body = get(srv, query(text))
        assert status == 400
        error = json.loads(body)[0]
        assert error["errorCode"] == "EXCEEDED_MAX_SIZE_REQUEST"
        assert "1,000 bytes" in error["message"] and "LIMIT" in error["message"]
        assert get(srv, query("SELECT COUNT() FROM Case"))[0] == 200  # serving on


@pytest.mark.parametrize("workers", [0, 1], ids=["here", "in a worker"])
def test_a_search_answer_past_its_bound_is_a_salesforce_error_too(tiny_org, workers):
    with OrgServer(tiny_org, today=TODAY, query_workers=workers, answer_bytes=100) as srv:
        status, body = get(srv, query(SEARCH, "search"))
        assert status == 400, body
        assert json.loads(body)[0]["errorCode"] == "EXCEEDED_MAX_SIZE_REQUEST"
        srv.api.bounds = dataclasses.replace(srv.api.bounds, answer_bytes=1 << 20)
        assert get(srv, query(SEARCH, "search"))[0] == 200
