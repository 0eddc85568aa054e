"""A matrix report's subtotals, on both backends against the org file: each
row's and each column's summary is taken over all its records (an average of the row, not
of its cells), and the grand total over every record."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from datetime import datetime

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.reports import Grouping, ReportDefinition, Summary, SummarySort
from crm_tui.org.reports.matrix import run_matrix
from tests.helpers.sf_client import serve_tls
from tests.org.test_backends_parametrised import open_backend

MATRIX = ReportDefinition(
    "Case",
    groupings=(Grouping("Status"), Grouping("Priority")),
    summaries=(Summary.parse("AVG(Age)"), Summary.parse("COUNT_DISTINCT(AccountId)")),
    sort=SummarySort("AVG(Age)"),
    top_n=3,  # the cells shown are cut; the subtotals still cover every record
    matrix=True,
)


@pytest.fixture(scope="module", params=["local", "salesforce"])
def backend(request, small_org_path, salesforce_server):
    be = open_backend(request.param, small_org_path, salesforce_server)
    yield be
    be.close()


@pytest.fixture(scope="module")
def salesforce_server(small_org_path, tmp_path_factory):
    with serve_tls(small_org_path, tmp_path_factory.mktemp("certs")) as (server, ca_pem):
        yield server, ca_pem


def hours(start: str, end: str) -> float:
    stamp = "%Y-%m-%dT%H:%M:%S"
    return (
        datetime.strptime(end[:19], stamp) - datetime.strptime(start[:19], stamp)
    ).total_seconds() / 3600


def averages(small_org_path, column: str) -> dict[str, float]:
    ages: dict[str, list[float]] = defaultdict(list)
    with sqlite3.connect(small_org_path) as conn:
        for key, created, closed in conn.execute(
            f'SELECT {column}, CreatedDate, ClosedDate FROM "Case" WHERE ClosedDate IS NOT NULL'
        ):
            ages[key].append(hours(created, closed))
    return {k: sum(v) / len(v) for k, v in ages.items()}


def test_subtotals_are_over_all_the_records_of_the_row_or_column(backend, small_org_path):
    result, matrix = run_matrix(backend.run_report, MATRIX)
    assert matrix.summary == "AVG(Age)"
    assert len(result.groups) == 3 < result.group_count
    by_status, by_priority = (
        averages(small_org_path, "Status"),
        averages(small_org_path, "Priority"),
    )
    assert {k: pytest.approx(v) for k, v in matrix.row_totals.items() if v is not None} == by_status
    assert {k: pytest.approx(v) for k, v in matrix.column_totals.items() if v is not None} == {
        c.value: by_priority[c.value] for c in matrix.columns if c.value in by_priority
    }
    everything = averages(small_org_path, "'all'")["all"]
    assert matrix.total == pytest.approx(everything)


def test_a_matrix_needs_two_groupings(backend):
    with pytest.raises(CrmTuiError, match="two groupings"):
        run_matrix(backend.run_report, MATRIX.with_(groupings=MATRIX.groupings[:1]))
