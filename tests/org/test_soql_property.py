"""Property: any text, well-formed or not, gives a result or a Salesforce-shaped error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crm_tui.org.soql import QueryResult, SalesforceError, execute_soql, execute_sosl
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.fuzz import property_settings
from tests.helpers.soql_org import TODAY, build_tiny_org

KNOWN_CODES = {
    "MALFORMED_QUERY",
    "MALFORMED_SEARCH",
    "INVALID_FIELD",
    "INVALID_TYPE",
    "INVALID_QUERY_FILTER_OPERATOR",
    "NUMBER_OUTSIDE_VALID_RANGE",
}

FRAGMENTS = [
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "IN",
    "NOT IN",
    "LIKE",
    "GROUP BY",
    "HAVING",
    "ORDER BY",
    "ASC",
    "DESC",
    "NULLS FIRST",
    "NULLS LAST",
    "LIMIT",
    "OFFSET",
    "Id",
    "Name",
    "Status",
    "CreatedDate",
    "ClosedDate",
    "Quantity",
    "Account.Name",
    "OrderItem.Order.AccountId",
    "OrderItemId__r.Order.AccountId",
    "Owner.Name",
    "Case",
    "Account",
    "OrderItem",
    "Order",
    "Cases",
    "Nope",
    "COUNT()",
    "COUNT(Id)",
    "SUM(Quantity)",
    "MAX(CreatedDate)",
    "AVG(Name)",
    "(",
    ")",
    ",",
    "=",
    "!=",
    "<",
    ">=",
    "'Closed'",
    "'x\\'y'",
    "'%a\\_'",
    "null",
    "true",
    "3",
    "-1.5",
    "2024-01-01",
    "2024-01-01T00:00:00Z",
    "TODAY",
    "LAST_N_DAYS:7",
    "LAST_N_DAYS",
    "THIS_QUARTER",
    "(SELECT Id FROM Cases)",
    "(SELECT CaseId__c FROM CaseHistory__c)",
    "expr0",
    "'005Lc0000100000IAA'",
    ":",
]

SOQL_SHAPED = st.builds(
    lambda head, body: " ".join(head + body),
    st.sampled_from(
        [
            ["SELECT"],
            ["SELECT", "Id", "FROM", "Case"],
            ["SELECT", "COUNT()", "FROM", "Case", "WHERE"],
        ]
    ),
    st.lists(st.sampled_from(FRAGMENTS), max_size=14),
)
SOSL_SHAPED = st.builds(
    lambda term, body: f"FIND {{{term}}} " + " ".join(body),
    st.text(max_size=12),
    st.lists(
        st.sampled_from(
            FRAGMENTS
            + ["IN", "ALL FIELDS", "NAME FIELDS", "RETURNING", "Product2", "Product2(Id, Name)"]
        ),
        max_size=8,
    ),
)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("prop") / "org.sqlite")) as s:
        yield s


def answer_or_salesforce_error(run, store, text):
    try:
        result = run(store, text, today=TODAY)
    except SalesforceError as error:
        assert error.error_code in KNOWN_CODES, (text, error)
        assert isinstance(error.message, str) and error.message
        return None
    return result


SETTINGS = property_settings(150)


@SETTINGS
@given(text=st.one_of(SOQL_SHAPED, st.text(max_size=60)))
def test_random_soql_never_crashes(store, text):
    result = answer_or_salesforce_error(execute_soql, store, text)
    assert result is None or isinstance(result, QueryResult)


@SETTINGS
@given(text=st.one_of(SOSL_SHAPED, st.text(max_size=40)))
def test_random_sosl_never_crashes(store, text):
    result = answer_or_salesforce_error(execute_sosl, store, text)
    assert result is None or isinstance(result["searchRecords"], list)
