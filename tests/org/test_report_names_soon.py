"""A fetched report asks for its groups' names together with its rows.

The Salesforce backend fetches the rows of a report SOQL cannot aggregate, page by page,
and names a lookup grouping's records by one semi-join query. That query goes out on a
connection of its own with the rows' query, so the server finds both at once: the
loopback server here holds the rows' query until the names query has reached it, which a
backend asking one call after the other would never do. The names' further pages are
asked for only once the rows are known to be within the bound.
"""

from __future__ import annotations

import threading
from urllib.parse import parse_qs, urlsplit

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.reports import Grouping, ReportDefinition, Summary, SummarySort
from crm_tui.org.server import rest
from tests.org.test_backends_parametrised import open_backend, salesforce_server  # noqa: F401
from tests.org.test_reports_backends import TODAY, assert_same_result

BY_OWNER = ReportDefinition(
    "Case",
    groupings=(Grouping("OwnerId"),),
    summaries=(Summary.parse("AVG(Age)"),),
    sort=SummarySort("AVG(Age)"),
)
NAMES = "SELECT Id, Name FROM User WHERE Id IN (SELECT"
HOLD_SECONDS = 10.0


@pytest.fixture
def backends(small_org_path, salesforce_server, monkeypatch):  # noqa: F811
    monkeypatch.setattr(rest, "DEFAULT_BATCH", 20)  # the small org's cases in several pages
    local = open_backend("local", small_org_path, salesforce_server)
    remote = open_backend("salesforce", small_org_path, salesforce_server)
    remote.describe("User")
    yield local, remote
    local.close()
    remote.close()


def _watch(server, monkeypatch, answer_names=None):
    """Record each call the server answers; hold the rows' query until the names query
    arrived (or HOLD_SECONDS passed), noting whether it had."""
    seen: list[str] = []
    held: list[bool] = []
    names_asked = threading.Event()
    handle = server.api.handle

    def watched(method, url, headers, body, host):
        parts = urlsplit(url)
        text = parse_qs(parts.query).get("q", [""])[0]
        if text.startswith(NAMES):
            seen.append("names")
            names_asked.set()
            if answer_names is not None:
                return answer_names
        elif text:
            seen.append("rows")
            held.append(names_asked.wait(HOLD_SECONDS))
        elif "/query/01g" in parts.path:  # a query locator: a further page
            seen.append("page")
        return handle(method, url, headers, body, host)

    monkeypatch.setattr(server.api, "handle", watched)
    return seen, held


def test_names_are_asked_for_with_the_rows(backends, salesforce_server, monkeypatch):  # noqa: F811
    local, remote = backends
    seen, held = _watch(salesforce_server[0], monkeypatch)
    got = remote.run_report(BY_OWNER, today=TODAY)
    assert remote.last_report_path == "fetched"
    assert seen.count("rows") == 1 and seen.count("names") == 1
    assert held == [True], seen  # the rows' query did not wait for nothing
    assert seen.count("page") >= 2, seen
    assert_same_result(local.run_report(BY_OWNER, today=TODAY), got)


def test_a_failed_names_query_fails_the_report_with_one_clear_line(
    backends,
    salesforce_server,  # noqa: F811
    monkeypatch,
):
    _, remote = backends
    refusal = rest._error(500, "UNKNOWN_EXCEPTION", "the names went missing")
    _watch(salesforce_server[0], monkeypatch, answer_names=refusal)
    with pytest.raises(CrmTuiError, match="the names went missing"):
        remote.run_report(BY_OWNER, today=TODAY)


def test_past_the_bound_no_further_names_are_asked_for(backends, salesforce_server, monkeypatch):  # noqa: F811
    _, remote = backends
    seen, _ = _watch(salesforce_server[0], monkeypatch)
    monkeypatch.setattr(remote, "report_fetch_bound", 10)
    with pytest.raises(CrmTuiError, match="the bound is 10"):
        remote.run_report(BY_OWNER, today=TODAY)
    # the names' first page came with the rows' (several pages of 20 owners in all);
    # no further page of either was asked for
    assert sorted(seen) == ["names", "rows"]
