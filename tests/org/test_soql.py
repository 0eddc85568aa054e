"""SOQL and SOSL over a tiny hand-written org: each feature, with exact answers."""

from __future__ import annotations

from datetime import date

import pytest

from crm_tui.org.soql import SalesforceError, execute_soql, execute_sosl
from crm_tui.org.soql.dates import date_range
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.soql_org import (
    ACCOUNTS,
    CASES,
    ISSUES,
    PRODUCTS,
    TODAY,
    USERS,
    build_tiny_org,
)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("soql") / "org.sqlite")) as s:
        yield s


def ids(store, soql):
    return [r["Id"] for r in execute_soql(store, soql, today=TODAY).records]


def case_numbers(store, where):
    soql = f"SELECT CaseNumber FROM Case WHERE {where} ORDER BY CaseNumber"
    return [int(r["CaseNumber"]) - 1 for r in execute_soql(store, soql, today=TODAY).records]


def error_of(store, soql, run=execute_soql):
    with pytest.raises(SalesforceError) as caught:
        run(store, soql, today=TODAY)
    return caught.value


def test_select_fields_case_insensitively_with_canonical_keys(store):
    record = execute_soql(
        store, f"select id, SUBJECT from CASE where ID = '{CASES[0]}'", today=TODAY
    ).records[0]
    assert list(record) == ["attributes", "Id", "Subject"]
    assert record["Subject"] == "Rope arrived late"


def test_parent_paths_nest_and_null_parents_are_null(store):
    records = execute_soql(
        store,
        "SELECT CaseNumber, Account.Name, Account.ShippingState FROM Case ORDER BY CaseNumber",
        today=TODAY,
    ).records
    assert records[0]["Account"]["ShippingState"] == "CA"
    assert records[5]["Account"] is None


def test_multi_hop_path(store):
    records = execute_soql(
        store,
        "SELECT OrderItemId__r.Order.Account.Name FROM Case WHERE CaseNumber = '00000003'",
        today=TODAY,
    ).records
    assert records[0]["OrderItemId__r"]["Order"]["Account"]["Name"] == "bob smith"


def test_child_subquery_uses_relationship_names(store):
    records = execute_soql(
        store,
        "SELECT Name, (SELECT Subject FROM Cases__r WHERE "
        "Status = 'Closed' LIMIT 1) FROM Issue__c ORDER BY Name",
        today=TODAY,
    ).records
    assert records[0]["Cases__r"]["totalSize"] == 1
    assert records[1]["Cases__r"]["records"][0]["Subject"] == "Case 1"
    empty = execute_soql(
        store, "SELECT Name, (SELECT Id FROM Cases) FROM Account WHERE Name = 'nobody'", today=TODAY
    )
    assert empty.records == []


@pytest.mark.parametrize(
    "where, expected",
    [
        ("Status = 'closed'", [0, 1, 4]),  # text equality ignores case, as in Salesforce
        ("Status != 'Closed'", [2, 3, 5]),
        ("Priority IN ('High')", [1, 3, 5]),
        ("Status NOT IN ('Closed', 'New')", [3, 5]),
        ("Subject LIKE 'rope%'", [0]),
        ("CreatedDate < 2024-02-01T00:00:00Z", [4]),
        ("CreatedDate <= 2024-02-01T00:00:00Z", [3, 4]),
        ("CreatedDate > 2024-05-14T23:59:59.000+0000", [0]),
        ("CreatedDate >= 2024-05-14T23:59:59Z", [0, 1]),
        ("ClosedDate = null", [2, 3, 5]),
        ("ClosedDate != null", [0, 1, 4]),
        ("AccountId = null OR Status = 'New'", [2, 5]),
        ("NOT Status = 'Closed'", [2, 3, 5]),
        ("(Status = 'Closed' OR Status = 'New') AND Priority = 'Low'", [0, 2, 4]),
        ("NOT (AccountId = null OR Priority = 'Low')", [1, 3]),
        ("Account.ShippingState != 'CA'", [2, 3, 4, 5]),  # != keeps nulls, as in SOQL
        ("Id IN (SELECT CaseId__c FROM CaseHistory__c WHERE OldValue__c != null)", [1]),
        ("Id NOT IN (SELECT CaseId__c FROM CaseHistory__c)", [3, 4, 5]),
        (f"OwnerId = '{USERS[1][:15]}'", [1, 3]),  # a 15-character Id matches
    ],
)
def test_where_operators(store, where, expected):
    assert case_numbers(store, where) == expected


@pytest.mark.parametrize(
    "literal, expected",
    [
        ("TODAY", [0]),
        ("YESTERDAY", [1]),
        ("LAST_N_DAYS:3", [0, 1, 5]),
        ("THIS_WEEK", [0, 1, 5]),
        ("LAST_WEEK", []),
        ("THIS_MONTH", [0, 1, 5]),
        ("LAST_MONTH", [2]),
        ("THIS_QUARTER", [0, 1, 2, 5]),
        ("LAST_QUARTER", [3]),
        ("THIS_YEAR", [0, 1, 2, 3, 5]),
        ("LAST_YEAR", [4]),
        ("LAST_N_MONTHS:4", [2, 3]),
        ("N_DAYS_AGO:3", [5]),
        ("LAST_90_DAYS", [0, 1, 2, 5]),
    ],
)
def test_date_literals_against_a_configurable_today(store, literal, expected):
    assert case_numbers(store, f"CreatedDate = {literal}") == expected


def test_date_literal_ranges_and_comparisons(store):
    assert date_range("LAST_N_WEEKS", 2, TODAY) == (date(2024, 4, 28), date(2024, 5, 12))
    assert date_range("NEXT_QUARTER", None, TODAY) == (date(2024, 7, 1), date(2024, 10, 1))
    assert case_numbers(store, "CreatedDate < THIS_MONTH") == [2, 3, 4]
    assert case_numbers(store, "CreatedDate > YESTERDAY") == [0]
    orders = execute_soql(
        store, "SELECT OrderNumber FROM Order WHERE EffectiveDate = LAST_N_DAYS:14", today=TODAY
    ).records
    assert [o["OrderNumber"] for o in orders] == ["00000100"]


def test_group_by_having_aggregates_aliases_and_expr_names(store):
    result = execute_soql(
        store,
        "SELECT OwnerId, COUNT(Id), MIN(CreatedDate) earliest, "
        "COUNT_DISTINCT(IssueId__c) FROM Case GROUP BY OwnerId "
        "HAVING COUNT(Id) >= 2 ORDER BY COUNT(Id) DESC",
        today=TODAY,
    )
    assert result.records == [
        {
            "attributes": {"type": "AggregateResult"},
            "OwnerId": USERS[0],
            "expr0": 4,
            "earliest": "2023-12-31T23:00:00.000+0000",
            "expr1": 1,
        },
        {
            "attributes": {"type": "AggregateResult"},
            "OwnerId": USERS[1],
            "expr0": 2,
            "earliest": "2024-02-01T00:00:00.000+0000",
            "expr1": 1,
        },
    ]
    totals = execute_soql(
        store,
        "SELECT SUM(Quantity) units, AVG(UnitPrice), MAX(Quantity) FROM OrderItem",
        today=TODAY,
    ).records[0]
    assert (totals["units"], totals["expr0"], totals["expr1"]) == (3.0, 54.75, 2.0)
    by_state = execute_soql(
        store,
        "SELECT Account.ShippingState, COUNT(Id) FROM Case "
        "WHERE Status = 'Closed' GROUP BY Account.ShippingState "
        "ORDER BY Account.ShippingState NULLS LAST",
        today=TODAY,
    ).records
    assert [(r["ShippingState"], r["expr0"]) for r in by_state] == [("CA", 2), (None, 1)]


def test_count_and_count_field(store):
    assert execute_soql(
        store, "SELECT COUNT() FROM Case WHERE Status = 'Closed'", today=TODAY
    ).to_json() == {"totalSize": 3, "done": True, "records": []}
    assert (
        execute_soql(store, "SELECT COUNT(ClosedDate) FROM Case", today=TODAY).records[0]["expr0"]
        == 3
    )


def test_order_by_nulls_limit_offset(store):
    order = "SELECT Id FROM Case ORDER BY ClosedDate {} LIMIT {} OFFSET {}"
    assert ids(store, order.format("ASC NULLS LAST", 2, 0)) == [CASES[4], CASES[0]]
    assert ids(store, order.format("DESC NULLS FIRST", 1, 3)) == [CASES[1]]
    assert ids(store, "SELECT Id FROM Account ORDER BY Name DESC") == [
        ACCOUNTS[2],
        ACCOUNTS[1],
        ACCOUNTS[0],
    ]


def test_string_escapes_and_like_escapes(store):
    assert ids(store, r"SELECT Id FROM Account WHERE Name = 'Ann O\'Brien'") == [ACCOUNTS[0]]
    assert ids(store, r"SELECT Id FROM Account WHERE Name LIKE '%50\%%'") == [ACCOUNTS[2]]
    assert ids(store, r"SELECT Id FROM Account WHERE Name LIKE '%5_\%%'") == [ACCOUNTS[2]]


def test_values_are_bound_never_spliced(store):
    escaped = r"x\' OR \'1\'=\'1"  # what simple_salesforce.format_soql sends
    assert ids(store, f"SELECT Id FROM Account WHERE Name = '{escaped}'") == []
    assert ids(store, "SELECT Id FROM Account WHERE Name = 'x' OR Name != 'x'") != []


@pytest.mark.parametrize(
    "soql, code, words",
    [
        ("SELECT Id FROM Accountz", "INVALID_TYPE", "sObject type 'Accountz' is not supported"),
        ("SELECT Nope FROM Case", "INVALID_FIELD", "No such column 'Nope' on entity 'Case'"),
        (
            "SELECT Acount.Name FROM Case",
            "INVALID_FIELD",
            "Didn't understand relationship 'Acount'",
        ),
        (
            "SELECT Id, (SELECT Id FROM Kases) FROM Account",
            "INVALID_TYPE",
            "Didn't understand relationship 'Kases' in FROM part",
        ),
        ("SELECT Id FROM Case WHERE", "MALFORMED_QUERY", "unexpected token: <EOF>"),
        (
            "SELECT Id FROM Case WHERE Status = 'a' OR Status = 'b' AND Priority = 'c'",
            "MALFORMED_QUERY",
            "unexpected token: 'AND'",
        ),
        ("SELECT Id Case", "MALFORMED_QUERY", "unexpected token"),
        (
            "SELECT Status, COUNT(Id) FROM Case",
            "MALFORMED_QUERY",
            "Field must be grouped or aggregated: Status",
        ),
        ("SELECT SUM(Status) FROM Case", "MALFORMED_QUERY", "does not support aggregate operator"),
        (
            "SELECT Id FROM Case WHERE CreatedDate > 2024-01-01",
            "INVALID_FIELD",
            "must be of type dateTime",
        ),
        (
            "SELECT Id FROM Case WHERE CreatedDate > '2024-01-01T00:00:00Z'",
            "INVALID_FIELD",
            "must be of type dateTime",
        ),
        (
            "SELECT Id FROM OrderItem WHERE Quantity > '2'",
            "INVALID_FIELD",
            "must be of type double",
        ),
        (
            "SELECT Id FROM Case WHERE OwnerId = 'bob'",
            "INVALID_QUERY_FILTER_OPERATOR",
            "invalid ID field: bob",
        ),
        ("SELECT Id FROM Case WHERE COUNT(Id) > 1", "MALFORMED_QUERY", "not allowed in the WHERE"),
        ("SELECT Id FROM Case OFFSET 2001", "NUMBER_OUTSIDE_VALID_RANGE", "2000"),
        ("SELECT Id, Id FROM Case", "MALFORMED_QUERY", "duplicate field selected: Id"),
    ],
)
def test_errors_are_worded_as_salesforce_words_them(store, soql, code, words):
    error = error_of(store, soql)
    assert error.error_code == code and words in error.message
    assert error.to_json() == [{"message": error.message, "errorCode": code}]


def test_error_messages_point_at_the_column(store):
    message = error_of(store, "SELECT Id FROM Accountz LIMIT 2").message
    assert message.startswith(
        "\nSELECT Id FROM Accountz LIMIT 2\n               ^\nERROR at Row:1:Column:16\n"
    )


def test_sosl_all_fields_name_fields_where_and_limit(store):
    found = execute_sosl(
        store, "FIND {rope} IN ALL FIELDS RETURNING Product2(Id, Name), Case(Subject)", today=TODAY
    )["searchRecords"]
    assert [(r["attributes"]["type"], r.get("Name") or r["Subject"]) for r in found] == [
        ("Product2", "Speed Jump Rope"),
        ("Case", "Rope arrived late"),
    ]
    by_name = execute_sosl(
        store, "FIND {insulation} IN NAME FIELDS RETURNING Product2", today=TODAY
    )
    assert by_name == {"searchRecords": []}  # the word is only in the description
    filtered = execute_sosl(
        store,
        "FIND {jack* OR rope} RETURNING Product2(Name WHERE IsActive = false LIMIT 5)",
        today=TODAY,
    )["searchRecords"]
    assert [r["Name"] for r in filtered] == ["Trail Jacket"]
    assert execute_sosl(store, 'FIND {"speed training"}', today=TODAY)["searchRecords"] == [
        {
            "attributes": {
                "type": "Product2",
                "url": f"/services/data/v59.0/sobjects/Product2/{PRODUCTS[0]}",
            },
            "Id": PRODUCTS[0],
        }
    ]
    limited = execute_sosl(store, "FIND {rope} RETURNING Product2, Case LIMIT 1", today=TODAY)
    assert len(limited["searchRecords"]) == 1


@pytest.mark.parametrize(
    "sosl, code",
    [
        ("FIND {a}", "MALFORMED_SEARCH"),
        ("FIND rope", "MALFORMED_SEARCH"),
        ("FIND {rope} RETURNING Nope__c", "INVALID_TYPE"),
        ("FIND {rope} RETURNING Product2(Nope)", "INVALID_FIELD"),
        ("FIND {rope AND} RETURNING Product2", "MALFORMED_SEARCH"),
    ],
)
def test_sosl_errors(store, sosl, code):
    assert error_of(store, sosl, execute_sosl).error_code == code


def test_issue_ids_reach_aggregate_keys(store):
    rows = execute_soql(
        store,
        "SELECT IssueId__c, COUNT(Id) FROM Case GROUP BY IssueId__c ORDER BY IssueId__c",
        today=TODAY,
    ).records
    assert [(r["IssueId__c"], r["expr0"]) for r in rows] == [(ISSUES[0], 4), (ISSUES[1], 2)]
