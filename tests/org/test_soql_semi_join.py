"""Semi-joins (`Id IN (SELECT ...)`): the outer field is looked up through its index, not
read row by row, and Salesforce's meaning holds: a null field is never IN a sub-select,
and always NOT IN one."""

from __future__ import annotations

import pytest

from crm_tui.org.soql.compiler import compile_query
from crm_tui.org.soql.executor import execute_soql
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.soql_org import CASES, PRODUCTS, TODAY, build_tiny_org


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("semi") / "org.sqlite")) as s:
        yield s


def case_numbers(store, where: str) -> list[int]:
    records = execute_soql(store, f"SELECT Id FROM Case WHERE {where}", today=TODAY).records
    return sorted(CASES.index(r["Id"]) for r in records)


@pytest.mark.parametrize(
    "where, field",
    [
        (
            f"OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Product2Id = '{PRODUCTS[0]}')",
            "OrderItemId__c",
        ),
        ("Id IN (SELECT CaseId__c FROM CaseHistory__c WHERE OldValue__c != null)", "Id"),
        ("AccountId IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", "AccountId"),
    ],
)
def test_the_outer_field_is_searched_through_its_index(store, where, field):
    text = f"SELECT Id FROM Case WHERE {where}"
    plan = compile_query(text, parse_query(text), TODAY)
    steps = [row[3] for row in store.conn.execute("EXPLAIN QUERY PLAN " + plan.sql, plan.params)]
    outer = [s for s in steps if s.startswith(("SCAN t0", "SEARCH t0"))]
    assert outer and outer[0].startswith("SEARCH t0") and f"({field}=?)" in outer[0], steps


@pytest.mark.parametrize(
    "where, expected",
    [
        # Case 5 has no account: never IN, always NOT IN, NOT (... IN ...) keeps it.
        ("AccountId IN (SELECT Id FROM Account)", [0, 1, 2, 3, 4]),
        ("AccountId IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", [0, 1]),
        ("AccountId NOT IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", [2, 3, 4, 5]),
        ("AccountId NOT IN (SELECT Id FROM Account)", [5]),
        ("NOT AccountId IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", [2, 3, 4, 5]),
        ("NOT AccountId NOT IN (SELECT Id FROM Account WHERE ShippingState = 'CA')", [0, 1]),
        (
            "AccountId IN (SELECT Id FROM Account WHERE ShippingState = 'CA') OR Status = 'New'",
            [0, 1, 2],
        ),
        (
            "NOT (AccountId IN (SELECT Id FROM Account) AND Status = 'Escalated')",
            [0, 1, 2, 3, 4, 5],
        ),
        # The sub-select's own nulls (case 5 has no account) never make NOT IN unknown.
        (
            "AccountId NOT IN (SELECT AccountId FROM Case WHERE Status = 'Escalated')",
            [0, 1, 2, 3, 4, 5],
        ),
    ],
)
def test_nulls_never_match_in_and_always_match_not_in(store, where, expected):
    assert case_numbers(store, where) == expected
