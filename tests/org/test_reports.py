"""Reports on both backends: same results, checked against the org file itself.

`local` runs a report as one SQL statement; `salesforce` sends its SOQL to the loopback
server through simple-salesforce and aggregates the rows. The truth is computed here
straight from the org file with plain Python.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from datetime import date, datetime

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import (
    Aggregate,
    CrossFilter,
    DateGranularity,
    DateRange,
    Duration,
    DurationUnit,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
    dump_definition,
    parse_definition,
)
from crm_tui.org.reports.resolve import range_days
from tests.org.test_backends_parametrised import open_backend, salesforce_server  # noqa: F401

BACKENDS = ["local", "salesforce"]
TODAY = date(2025, 1, 15)  # the small org's today


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request, small_org_path, salesforce_server):  # noqa: F811
    be = open_backend(request.param, small_org_path, salesforce_server)
    yield be
    be.close()


@pytest.fixture(scope="module")
def db(small_org_path):
    conn = sqlite3.connect(small_org_path)
    conn.row_factory = sqlite3.Row
    yield conn
    conn.close()


def _hours(created: str, closed: str) -> float:
    a = datetime.fromisoformat(created[:19])
    b = datetime.fromisoformat(closed[:19])
    return int((b - a).total_seconds()) / 3600.0


# ----------------------------------------------------------------- against the org file
def test_both_backends_declare_reports(backend):
    assert backend.supports_reports


def test_closed_cases_of_a_year_by_owner_with_average_age(backend, db):
    d = ReportDefinition(
        "Case",
        filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
        date_ranges=(DateRange("ClosedDate", "2023"),),
        groupings=(Grouping("OwnerId"),),
        summaries=(Summary(Aggregate.AVG, "Age"), Summary(Aggregate.MAX, "Age")),
        sort=SummarySort("AVG(Age)", descending=False),
    )
    result = backend.run_report(d)
    ages: dict[str, list[float]] = defaultdict(list)
    for r in db.execute(
        "SELECT OwnerId, CreatedDate, ClosedDate FROM \"Case\" WHERE Status = 'Closed' "
        "AND ClosedDate >= '2023-01-01' AND ClosedDate < '2024-01-01'"
    ):
        ages[r["OwnerId"]].append(_hours(r["CreatedDate"], r["ClosedDate"]))
    names = dict(db.execute("SELECT Id, Name FROM User").fetchall())
    assert result.record_count == sum(len(v) for v in ages.values())
    assert {g.keys[0].record_id: g.count for g in result.groups} == {
        k: len(v) for k, v in ages.items()
    }
    for g in result.groups:
        owner = g.keys[0].record_id
        assert g.keys[0].label == names[owner]
        assert result.value(g, "AVG(Age)") == pytest.approx(sum(ages[owner]) / len(ages[owner]))
        assert result.value(g, "MAX(Age)") == pytest.approx(max(ages[owner]))
    avgs = [result.value(g, "AVG(Age)") for g in result.groups]
    assert avgs == sorted(avgs)


def test_parent_fields_date_groupings_and_matrix(backend, db):
    d = ReportDefinition(
        "Case",
        groupings=(
            Grouping("Account.ShippingState"),
            Grouping("CreatedDate", DateGranularity.QUARTER),
        ),
        summaries=(Summary(Aggregate.COUNT_DISTINCT, "AccountId"),),
        matrix=True,
    )
    result = backend.run_report(d)
    truth: Counter[tuple[str | None, str]] = Counter()
    for r in db.execute(
        'SELECT a.ShippingState, c.CreatedDate FROM "Case" c '
        "LEFT JOIN Account a ON a.Id = c.AccountId"
    ):
        month = int(r[1][5:7])
        truth[(r[0], f"{r[1][:4]}-Q{(month + 2) // 3}")] += 1
    assert {(g.keys[0].value, g.keys[1].value): g.count for g in result.groups} == dict(truth)
    rows, cols, cells = result.matrix()
    assert len(cells) == len(truth)
    assert [c.value for c in cols] == sorted(c.value for c in cols)


@pytest.mark.parametrize(
    "granularity, bucket",
    [
        ("day", lambda s: s[:10]),
        ("month", lambda s: s[:7]),
        ("year", lambda s: s[:4]),
        ("month_of_year", lambda s: int(s[5:7])),
        ("week", None),
    ],
)
def test_date_granularities(backend, db, granularity, bucket):
    d = ReportDefinition(
        "Order", groupings=(Grouping("EffectiveDate", DateGranularity(granularity)),)
    )
    result = backend.run_report(d)
    days = [r[0] for r in db.execute('SELECT EffectiveDate FROM "Order"')]
    if bucket is None:  # weeks start on Sunday

        def bucket(s):
            day = date.fromisoformat(s[:10])
            return date.fromordinal(day.toordinal() - (day.weekday() + 1) % 7).isoformat()

    assert {g.keys[0].value: g.count for g in result.groups} == Counter(map(bucket, days))


def test_case_history_user_ids_show_names(backend, db):
    d = ReportDefinition(
        "CaseHistory__c",
        filters=(
            ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),
            ReportFilter("OldValue__c", Operator.IS_NOT_EMPTY),
        ),
        groupings=(Grouping("OldValue__c"),),
        sort=SummarySort("COUNT()"),
        top_n=3,
    )
    result = backend.run_report(d)
    names = dict(db.execute("SELECT Id, Name FROM User").fetchall())
    counts = Counter(
        r[0]
        for r in db.execute(
            "SELECT OldValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' "
            "AND OldValue__c IS NOT NULL"
        )
    )
    assert result.group_count == len(counts)
    assert len(result.groups) == 3 and result.truncated
    for g in result.groups:
        assert g.keys[0].label == names[g.keys[0].value]
        assert g.keys[0].record_id == g.keys[0].value
        assert g.count == counts[g.keys[0].value]
    assert result.groups[0].count == max(counts.values())


def test_cross_filter_more_than_and_without(backend, db):
    history: defaultdict[str, int] = defaultdict(int)
    for r in db.execute("SELECT CaseId__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment'"):
        history[r[0]] += 1
    cases = [r[0] for r in db.execute('SELECT Id FROM "Case"')]
    owner = CrossFilter(
        "CaseHistory__c", (ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),)
    )
    transferred = backend.run_report(
        ReportDefinition("Case", cross_filters=(CrossFilter(**{**owner.__dict__, "more_than": 1}),))
    )
    assert transferred.record_count == sum(1 for c in cases if history[c] > 1)
    kept = backend.run_report(
        ReportDefinition(
            "Case",
            cross_filters=(CrossFilter(owner.child, owner.filters, with_=False, more_than=1),),
            row_limit=5000,
        )
    )
    assert sorted(kept.row_ids) == sorted(c for c in cases if history[c] <= 1)
    with_any = backend.run_report(
        ReportDefinition("Account", cross_filters=(CrossFilter("Cases"),))
    )
    without = backend.run_report(
        ReportDefinition("Account", cross_filters=(CrossFilter("Cases", with_=False),))
    )
    with_cases = {r[0] for r in db.execute('SELECT DISTINCT AccountId FROM "Case"')}
    accounts = [r[0] for r in db.execute("SELECT Id FROM Account")]
    assert with_any.record_count == sum(1 for a in accounts if a in with_cases)
    assert without.record_count == len(accounts) - with_any.record_count


def test_duration_in_days_filter_and_detail_rows(backend, db):
    d = ReportDefinition(
        "Case",
        columns=("CaseNumber", "Owner.Name", "Account.ShippingState"),
        durations=(Duration("Days open", "CreatedDate", "ClosedDate", DurationUnit.DAYS),),
        filters=(ReportFilter("Days open", Operator.GT, 2),),
        summaries=(Summary(Aggregate.SUM, "Days open"),),
        row_limit=10,
    )
    result = backend.run_report(d)
    rows = [
        r
        for r in db.execute(
            "SELECT c.Id, c.CaseNumber, u.Name, a.ShippingState, c.CreatedDate, c.ClosedDate "
            'FROM "Case" c LEFT JOIN User u ON u.Id = c.OwnerId '
            "LEFT JOIN Account a ON a.Id = c.AccountId WHERE c.ClosedDate IS NOT NULL"
        )
        if _hours(r[4], r[5]) / 24 > 2
    ]
    rows.sort(key=lambda r: r[0])
    assert result.record_count == len(rows)
    assert result.value_total("SUM(Days open)") == pytest.approx(
        sum(_hours(r[4], r[5]) / 24 for r in rows)
    )
    assert result.row_ids == tuple(r[0] for r in rows[:10])
    assert result.rows == tuple((r[1], r[2], r[3] or "") for r in rows[:10])
    assert result.truncated == (len(rows) > 10)


def test_relative_ranges_count_from_the_given_today(backend, db):
    d = ReportDefinition("Case", date_ranges=(DateRange("CreatedDate", "LAST_N_MONTHS:6"),))
    result = backend.run_report(d, today=date(2024, 7, 10))
    n = db.execute(
        "SELECT count(*) FROM \"Case\" WHERE CreatedDate >= '2024-01-01' "
        "AND CreatedDate < '2024-07-01'"
    ).fetchone()[0]
    assert result.record_count == n
    assert result.today == date(2024, 7, 10)


def test_every_list_view_operator_on_parent_fields(backend, db):
    states = [
        r[0]
        for r in db.execute(
            'SELECT a.ShippingState FROM "Case" c LEFT JOIN Account a ON a.Id = c.AccountId'
        )
    ]
    checks = {
        Operator.EQ: lambda s: s is not None and s.lower() == "ca",
        Operator.NE: lambda s: s is None or s.lower() != "ca",
        Operator.LT: lambda s: s is not None and s.lower() < "ma",
        Operator.GE: lambda s: s is not None and s.lower() >= "ma",
        Operator.CONTAINS: lambda s: s is not None and "a" in s.lower(),
        Operator.STARTS_WITH: lambda s: s is not None and s.lower().startswith("c"),
        Operator.IS_EMPTY: lambda s: not s,
        Operator.IS_NOT_EMPTY: lambda s: bool(s),
    }
    values = {
        Operator.EQ: "CA",
        Operator.NE: "CA",
        Operator.LT: "MA",
        Operator.GE: "MA",
        Operator.CONTAINS: "A",
        Operator.STARTS_WITH: "C",
    }
    for op, check in checks.items():
        d = ReportDefinition(
            "Case", filters=(ReportFilter("Account.ShippingState", op, values.get(op)),)
        )
        assert backend.run_report(d).record_count == sum(map(check, states)), op


# ----------------------------------------------------------------- the bound
def test_salesforce_refuses_before_fetching_past_its_bound(small_org_path, salesforce_server):  # noqa: F811
    be = open_backend("salesforce", small_org_path, salesforce_server)
    try:
        be.report_fetch_bound = 10
        with pytest.raises(CrmTuiError, match=r"would fetch [\d,]+ cases .*bound is 10"):
            be.run_report(  # Age: SOQL cannot average it, so the rows are fetched
                ReportDefinition(
                    "Case",
                    groupings=(Grouping("OwnerId"),),
                    summaries=(Summary(Aggregate.AVG, "Age"),),
                )
            )
    finally:
        be.close()


# ----------------------------------------------------------------- definitions
BAD = [
    (
        {"object": "Case", "columns": ["Account.Nope"]},
        "Column 'Account.Nope': unknown field 'Nope' on Account",
    ),
    (
        {"object": "Case", "columns": ["Nobody.Name"]},
        "Column 'Nobody.Name': no lookup 'Nobody' on Case",
    ),
    ({"object": "Case", "summaries": ["AVG(Subject)"]}, "Summary AVG(Subject): Subject is text"),
    (
        {"object": "Case", "groupings": ["Description"]},
        "Grouping 'Description': Description is a long text",
    ),
    (
        {"object": "Case", "groupings": ["Status", "Origin", "Priority", "OwnerId"]},
        "Groupings: at most 3, not 4",
    ),
    ({"object": "Nope"}, "Report type: No object 'Nope'"),
    ({"object": "Case", "summaries": ["MEDIAN(Age)"]}, "Summary 'MEDIAN(Age)': unknown aggregate"),
    (
        {"object": "Case", "filters": [{"field": "Status", "operator": "~", "value": 1}]},
        "Filter 1: unknown operator '~'",
    ),
    (
        {"object": "Case", "date_ranges": [{"field": "Subject", "range": "2024"}]},
        "Date range on Subject: Subject is not a date",
    ),
    (
        {"object": "Case", "date_ranges": [{"field": "CreatedDate", "range": "soon"}]},
        "Date range on CreatedDate: 'soon': use a relative range",
    ),
    (
        {"object": "Case", "cross_filters": [{"child": "Orders"}]},
        "Cross filter 1 (Orders): no related list 'Orders' on Case",
    ),
    ({"object": "Case", "sort": "AVG(Age)"}, "Sort: AVG(Age) is not one of the summaries"),
    (
        {"object": "Case", "groupings": [{"field": "Status", "by": "month"}]},
        "Grouping 'Status': Status is not a date",
    ),
    (
        {"object": "Case", "filters": [{"field": "Age", "operator": ">", "value": "x"}]},
        "Filter 1 (Age): Age (hours) needs a number",
    ),
    ({"object": "Case", "colour": "red"}, "Report definition: unknown key 'colour'"),
]


@pytest.mark.parametrize("doc, message", BAD, ids=[m.split(":")[0] for _, m in BAD])
def test_bad_definitions_name_the_part_in_one_line(backend, doc, message):
    import json

    with pytest.raises(CrmTuiError) as info:
        backend.run_report(parse_definition(json.dumps(doc), "json"))
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(message), text


def test_definitions_round_trip_through_toml_and_json():
    d = ReportDefinition(
        "Case",
        name="Closed cases by owner",
        columns=("CaseNumber", "Owner.Name"),
        filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
        date_ranges=(DateRange("CreatedDate", "LAST_N_MONTHS:4"),),
        cross_filters=(
            CrossFilter(
                "CaseHistory__c",
                (ReportFilter("Field__c", Operator.EQ, "Owner Assignment"),),
                with_=False,
                more_than=1,
            ),
        ),
        durations=(Duration("Days", "CreatedDate", "ClosedDate", DurationUnit.DAYS),),
        groupings=(Grouping("OwnerId"), Grouping("CreatedDate", DateGranularity.MONTH_OF_YEAR)),
        summaries=(Summary(Aggregate.AVG, "Age"),),
        sort=SummarySort("AVG(Age)", descending=False),
        top_n=5,
        matrix=True,
        today=date(2024, 5, 1),
    )
    assert parse_definition(dump_definition(d)) == d
    assert parse_definition(dump_definition(d, "json"), "json") == d


def test_calendar_ranges():
    assert range_days("2024-03", TODAY) == (date(2024, 3, 1), date(2024, 4, 1))
    assert range_days("2024-Q4", TODAY) == (date(2024, 10, 1), date(2025, 1, 1))
    assert range_days("2023", TODAY) == (date(2023, 1, 1), date(2024, 1, 1))
    assert range_days("2024-01-05..2024-02-10", TODAY) == (date(2024, 1, 5), date(2024, 2, 11))
    assert range_days("THIS_QUARTER", TODAY) == (date(2025, 1, 1), date(2025, 4, 1))
    assert range_days("LAST_N_MONTHS:3", TODAY) == (date(2024, 10, 1), date(2025, 1, 1))


@pytest.mark.parametrize(
    "toml_text, message",
    [
        ('object = "Case"\ntop_n = "x"', "Top N: needs a positive whole number, not 'x'"),
        ('object = "Case"\nrow_limit = "x"', "Row limit: needs a positive whole number, not 'x'"),
        ('object = "Case"\nmatrix = "false"', "Matrix: needs true or false, not 'false'"),
        (
            'object = "Case"\n[[cross_filters]]\nchild = "CaseHistory__c"\nmore_than = "x"',
            "Cross filter more_than: needs a whole number from 0, not 'x'",
        ),
        (
            'object = "Case"\nsort = {summary = "COUNT()", descending = "no"}',
            "Sort descending: needs true or false, not 'no'",
        ),
    ],
)
def test_values_of_the_wrong_type_name_the_part(toml_text, message):
    """Typed into the builder or given to the CLI: one line, never a ValueError."""
    with pytest.raises(CrmTuiError) as caught:
        parse_definition(toml_text)
    assert str(caught.value) == message
