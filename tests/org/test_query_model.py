"""The query model's SOQL: what both backends run, written once (`query.to_soql`).

What the rows mean is checked on both backends against the org file in
`test_backends_parametrised.py`; here, the shape of the text itself: Salesforce's meanings
spelled out, values escaped, and keyset pages an index can seek to.
"""

from __future__ import annotations

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Cursor, Filter, Sort, object_of
from crm_tui.org.backends.query import (
    CountQuery,
    RecordQuery,
    children_of,
    parts,
    to_soql,
)
from crm_tui.org.schema.catalogue import child_relationships
from crm_tui.org.schema.ids import make_id
from crm_tui.org.soql.parser import parse_query

CASE = object_of("Case")
ACCOUNT = make_id("001", 7)


def where(query: RecordQuery | CountQuery, obj=CASE) -> str:
    soql = to_soql(query, obj)
    parse_query(soql)  # the project's own parser reads every statement
    return soql.split(" WHERE ", 1)[1].split(" ORDER BY ")[0] if " WHERE " in soql else ""


@pytest.mark.parametrize(
    "op, condition",
    [
        ("=", "(CreatedDate >= 2020-02-05T00:00:00Z AND CreatedDate < 2020-02-06T00:00:00Z)"),
        (
            "!=",
            "(CreatedDate < 2020-02-05T00:00:00Z OR CreatedDate >= 2020-02-06T00:00:00Z"
            " OR CreatedDate = null)",
        ),
        ("<", "CreatedDate < 2020-02-05T00:00:00Z"),
        ("<=", "CreatedDate < 2020-02-06T00:00:00Z"),
        (">", "CreatedDate >= 2020-02-06T00:00:00Z"),
        (">=", "CreatedDate >= 2020-02-05T00:00:00Z"),
    ],
)
def test_a_bare_day_on_a_datetime_is_that_whole_day_in_utc(op, condition):
    assert where(RecordQuery("Case", (Filter("CreatedDate", op, "2020-02-05"),))) == condition


def test_a_time_with_an_offset_is_compared_in_utc():
    flt = Filter("CreatedDate", ">", "2020-02-05T09:30:00+02:00")
    assert where(RecordQuery("Case", (flt,))) == "CreatedDate > 2020-02-05T07:30:00Z"


@pytest.mark.parametrize(
    "flt, condition",
    [
        (Filter("Subject", "contains", "50%_off"), r"Subject LIKE '%50\%\_off%'"),
        (Filter("Subject", "starts with", "O'Neil"), r"Subject LIKE 'O\'Neil%'"),
        (Filter("Subject", "=", 'C:\\ "x"'), r"""Subject = 'C:\\ \"x\"'"""),
        (Filter("Subject", "is empty"), "(Subject = null OR Subject = '')"),
        (Filter("ClosedDate", "is not empty"), "ClosedDate != null"),
        (Filter("AccountId", "=", ACCOUNT[:15]), f"AccountId = '{ACCOUNT}'"),
    ],
)
def test_values_are_escaped_and_typed(flt, condition):
    assert where(RecordQuery("Case", (flt,))) == condition


def test_numbers_and_booleans_are_soql_literals():
    item, product = object_of("OrderItem"), object_of("Product2")
    assert where(RecordQuery("OrderItem", (Filter("UnitPrice", ">", "1e20"),)), item) == (
        "UnitPrice > 100000000000000000000"
    )
    assert where(RecordQuery("Product2", (Filter("IsActive", "=", "no"),)), product) == (
        "IsActive = false"
    )


def test_pages_sort_by_field_then_id_and_ask_for_one_more_row():
    soql = to_soql(RecordQuery("Case", sort=Sort("Priority", True), limit=30), CASE)
    assert soql.endswith(" ORDER BY Priority DESC NULLS LAST, Id DESC LIMIT 31")
    assert "Account.Name" in soql and "OrderItemId__r.OrderItemNumber" in soql  # lookups named


def test_a_cursor_is_a_range_the_index_can_seek_to():
    after = Cursor("High", make_id("500", 3))
    query = RecordQuery("Case", sort=Sort("Priority"), after=after)
    assert (
        where(query) == f"(Priority >= 'High' AND (Priority > 'High' OR Id > '{after.record_id}'))"
    )


def test_a_page_crossing_the_nulls_is_read_in_two_stretches():
    """Descending, NULLs come last: after a value, first the rest of the values, then every
    NULL; ascending, NULLs come first: after a NULL, the rest of them, then every value."""
    cursor = Cursor("2021-01-01T00:00:00.000+0000", make_id("500", 3))
    first, then = parts(RecordQuery("Case", sort=Sort("ClosedDate", True), after=cursor), CASE)
    assert where(first) == (
        "ClosedDate != null AND (ClosedDate <= 2021-01-01T00:00:00Z AND "
        f"(ClosedDate < 2021-01-01T00:00:00Z OR Id < '{cursor.record_id}'))"
    )
    assert where(then) == "ClosedDate = null"
    in_nulls = Cursor(None, cursor.record_id)
    first, then = parts(RecordQuery("Case", sort=Sort("ClosedDate"), after=in_nulls), CASE)
    assert where(first) == f"ClosedDate = null AND Id > '{cursor.record_id}'"
    assert where(then) == "ClosedDate != null"
    # One query when the page cannot cross: each of these is a single stretch already.
    assert len(parts(RecordQuery("Case", sort=Sort("ClosedDate"), after=cursor), CASE)) == 1
    assert len(parts(RecordQuery("Case", sort=Sort("ClosedDate", True), after=in_nulls), CASE)) == 1


def test_a_related_list_is_a_page_by_id_and_a_capped_count():
    rel = next(r for r in child_relationships("Account") if r.name == "Cases")
    preview, count = children_of(rel, ACCOUNT, preview_rows=5)
    assert to_soql(count, CASE) == (
        f"SELECT COUNT() FROM Case WHERE AccountId = '{ACCOUNT}' LIMIT 10001"
    )
    assert to_soql(preview, CASE, source="Cases").endswith(
        f"FROM Cases WHERE AccountId = '{ACCOUNT}' ORDER BY Id ASC LIMIT 6"
    )


@pytest.mark.parametrize(
    "flt, message",
    [
        (Filter("CreatedDate", "=", "yesterday"), "Date/Time Opened .CreatedDate. needs a date"),
        (Filter("AccountId", "=", "nope"), r"Account \(AccountId\) needs a Salesforce Id"),
        (Filter("CreatedDate", "contains", "2020"), "is not text: 'contains' does not apply"),
        (Filter("Status", "=", None), "the filter needs a value"),
    ],
)
def test_filters_that_do_not_fit_are_errors_naming_the_field(flt, message):
    with pytest.raises(CrmTuiError, match=message):
        to_soql(RecordQuery("Case", (flt,)), CASE)


def test_a_lookup_sorts_by_its_records_name_in_two_stretches():
    """Sorted by OwnerId, a page is in the order of the owner names shown (ORDER BY
    Owner.Name, Id, as Salesforce sorts): the empty lookups first ascending, then the
    named ones, each its own query, so neither sorts every row of a big list."""
    empty, named = parts(RecordQuery("Case", sort=Sort("OwnerId"), limit=30), CASE)
    assert to_soql(named, CASE).endswith(" ORDER BY Owner.Name ASC NULLS FIRST, Id ASC LIMIT 31")
    assert (where(empty), where(named)) == ("OwnerId = null", "Owner.Name != null")
    first, then = parts(RecordQuery("Case", sort=Sort("OwnerId", True)), CASE)
    assert (where(first), where(then)) == ("Owner.Name != null", "OwnerId = null")
    # The cursor holds the name: ties on it go on by Id.
    cursor = Cursor("Jacob O'Neil", make_id("500", 3))
    (rest,) = parts(RecordQuery("Case", sort=Sort("OwnerId"), after=cursor), CASE)
    assert where(rest) == (
        "Owner.Name != null AND (Owner.Name >= 'Jacob O\\'Neil' AND "
        f"(Owner.Name > 'Jacob O\\'Neil' OR Id > '{cursor.record_id}'))"
    )
    last, nulls = parts(RecordQuery("Case", sort=Sort("OwnerId", True), after=cursor), CASE)
    assert where(nulls) == "OwnerId = null"
