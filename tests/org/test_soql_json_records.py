"""The REST server has records written straight to JSON text (`execute_soql_json`, by
SQLite in `soql.sqlite_json`): the very bytes `json.dumps` writes for the records
`execute_soql` shapes, on every object, with nested parents and child sub-queries, and
for the shapes that still go through dicts (aggregates, REAL columns)."""

from __future__ import annotations

import json

import pytest

from crm_tui.org.schema.catalogue import OBJECTS, child_relationships
from crm_tui.org.soql.compiler import compile_query
from crm_tui.org.soql.executor import compiled, execute_soql, execute_soql_json
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.soql.sf_errors import SalesforceError
from crm_tui.org.soql.sqlite_json import json_records, sqlite_writes_json_dumps_text
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.soql_org import PRODUCTS, TODAY, USERS, build_tiny_org, rid

QUERIES = [
    *(f"SELECT {', '.join(o.field_names)} FROM {o.name}" for o in OBJECTS),
    "SELECT Id, Account.Name, Owner.Name FROM Case",
    "SELECT COUNT() FROM Case",
    "SELECT Status, COUNT(Id), MAX(CreatedDate) FROM Case GROUP BY Status",
    f"SELECT Id, (SELECT Id FROM {child_relationships('Case')[0].name}) FROM Case",
    "SELECT Quantity, UnitPrice, Product2Id FROM OrderItem WHERE Quantity > 1.5",
    "SELECT Id FROM Case WHERE Subject = 'nothing like this'",
]
# What SQLite writes itself: parents (missing ones too), several levels, booleans, dates,
# child sub-queries with their own parents, order, limit and offset, sorted pages.
SQLITE_WRITTEN = [
    "SELECT Account.ShippingState, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed'",
    "SELECT Id, Subject, Account.Name, Owner.Name, Account.ShippingState, Status FROM Case",
    "SELECT OrderItemId__r.Order.Account.Name, OrderItemId__r.Product2.IsActive, "
    "OrderItemId__r.Product2.Name, CaseNumber FROM Case",
    "SELECT Name, IsActive, Description FROM Product2 ORDER BY Name",
    "SELECT Id, Name, (SELECT Id, Subject, CreatedDate, ClosedDate, Owner.Name FROM Cases "
    "ORDER BY CreatedDate DESC LIMIT 2 OFFSET 1) FROM Account",
    "SELECT Name, (SELECT CaseNumber FROM Cases WHERE Status != 'Closed'), "
    "(SELECT OrderNumber, EffectiveDate FROM Orders) FROM Account ORDER BY Name",
    "SELECT Id, Subject, Account.Name FROM Case ORDER BY CreatedDate DESC LIMIT 2 OFFSET 1",
    "SELECT CaseId__c, NewValue__c, OldValue__c FROM CaseHistory__c "
    "WHERE Field__c = 'Owner Assignment'",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("json") / "org.sqlite")) as s:
        yield s


@pytest.mark.parametrize(
    "soql", QUERIES + SQLITE_WRITTEN, ids=[q[:60] for q in QUERIES + SQLITE_WRITTEN]
)
def test_json_text_is_what_json_dumps_writes(store, soql):
    shaped = execute_soql(store, soql, today=TODAY)
    written = execute_soql_json(store, soql, today=TODAY)
    assert written.total_size == shaped.total_size
    assert written.records == [json.dumps(r) for r in shaped.records]
    assert written.body() == json.dumps(shaped.to_json()).encode()


def test_text_needing_escapes_is_escaped_as_json_dumps_does(store):
    shaped = execute_soql(store, "SELECT Name, ShippingState FROM Account", today=TODAY)
    written = execute_soql_json(store, "SELECT Name, ShippingState FROM Account", today=TODAY)
    assert any("'" in r["Name"] or "%" in r["Name"] for r in shaped.records)
    assert [json.loads(r) for r in written.records] == shaped.records


def _sqlite_texts(store, soql):
    plan = compile_query(soql, parse_query(soql), TODAY)
    return json_records(store.conn, plan, "/services/data/v59.0/sobjects")


@pytest.mark.parametrize("soql", SQLITE_WRITTEN, ids=[q[:60] for q in SQLITE_WRITTEN])
def test_sqlite_writes_the_records_itself(store, soql):
    assert sqlite_writes_json_dumps_text()
    texts = _sqlite_texts(store, soql)
    assert texts is not None
    assert texts == [json.dumps(r) for r in execute_soql(store, soql, today=TODAY).records]


ODD_TEXT = "".join(map(chr, range(1, 128))) + "Zoë \u2028 \U0001f600 \ufeff end"


@pytest.fixture
def odd_store(tmp_path):
    """The tiny org with text of every ASCII character, accents, a line separator and an
    emoji, on a parent and on a child record."""
    with OrgStore.open(build_tiny_org(tmp_path / "org.sqlite"), readonly=False) as s:
        s.insert(
            "Account",
            [{"Id": rid("Account", 9), "Name": ODD_TEXT, "LastName": "Zoë"}],
        )
        s.insert(
            "Case",
            [
                {
                    "Id": rid("Case", 9),
                    "CaseNumber": "00000099",
                    "Subject": ODD_TEXT,
                    "Description": "ligne 1\nligne 2\t«fin»",
                    "Status": "New",
                    "AccountId": rid("Account", 9),
                    "OwnerId": USERS[0],
                    "CreatedDate": "2024-05-01T00:00:00.000+0000",
                }
            ],
        )
        s.conn.commit()
        yield s


@pytest.mark.parametrize(
    "soql",
    [
        "SELECT Id, Subject, Description, Account.Name FROM Case",
        "SELECT Name, LastName, (SELECT Subject, Description FROM Cases) FROM Account",
    ],
)
def test_every_character_is_escaped_as_json_dumps_does(odd_store, soql):
    shaped = execute_soql(odd_store, soql, today=TODAY)
    assert _sqlite_texts(odd_store, soql) is not None
    written = execute_soql_json(odd_store, soql, today=TODAY)
    assert written.records == [json.dumps(r) for r in shaped.records]
    assert json.dumps(ODD_TEXT)[1:-1] in written.body().decode()


def test_a_value_sqlite_cannot_write_sends_the_answer_to_python(odd_store):
    """A Boolean stored as 0.5 (REAL): SQLite's text comes out NULL, Python shapes it."""
    odd_store.conn.execute(f"UPDATE Product2 SET IsActive = 0.5 WHERE Id = '{PRODUCTS[0]}'")
    soql = "SELECT Name, IsActive FROM Product2 ORDER BY Name"
    assert _sqlite_texts(odd_store, soql) is None
    shaped = execute_soql(odd_store, soql, today=TODAY)
    assert execute_soql_json(odd_store, soql, today=TODAY).records == [
        json.dumps(r) for r in shaped.records
    ]
    assert shaped.records[0]["IsActive"] is True


def test_a_repeated_query_reuses_its_plan_and_a_bad_one_fails_each_time(store):
    soql = "SELECT Id, Account.Name FROM Case WHERE Status = 'Closed'"
    first = execute_soql_json(store, soql, today=TODAY)
    hits = compiled.cache_info().hits
    assert execute_soql_json(store, soql, today=TODAY).records == first.records
    assert compiled.cache_info().hits == hits + 1
    for _ in range(2):
        with pytest.raises(SalesforceError):
            execute_soql_json(store, "SELECT Nope FROM Case", today=TODAY)


def test_a_delete_character_in_otherwise_ascii_text_is_escaped(odd_store):
    """DEL (0x7f) is ASCII yet `json.dumps` escapes it: an answer whose only such character
    is a DEL is escaped too (the all-ASCII shortcut must not skip it)."""
    odd_store.conn.execute(f"UPDATE \"Case\" SET Subject = 'a\x7fb' WHERE Id = '{rid('Case', 9)}'")
    soql = "SELECT Subject FROM Case WHERE CaseNumber = '00000099'"
    written = execute_soql_json(odd_store, soql, today=TODAY)
    assert written.records == [json.dumps(r) for r in execute_soql(odd_store, soql).records]
    assert "\\u007f" in written.records[0]
