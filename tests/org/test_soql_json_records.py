"""The REST server writes plain-field records straight to JSON text (`execute_soql_json`):
the very bytes `json.dumps` writes for the records `execute_soql` shapes, on every
object and for the shapes that still go through dicts (parents, children, aggregates)."""

from __future__ import annotations

import json

import pytest

from crm_tui.org.schema.catalogue import OBJECTS, child_relationships
from crm_tui.org.soql.executor import execute_soql, execute_soql_json
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.soql_org import TODAY, build_tiny_org

QUERIES = [
    *(f"SELECT {', '.join(o.field_names)} FROM {o.name}" for o in OBJECTS),
    "SELECT Id, Account.Name, Owner.Name FROM Case",
    "SELECT COUNT() FROM Case",
    "SELECT Status, COUNT(Id), MAX(CreatedDate) FROM Case GROUP BY Status",
    f"SELECT Id, (SELECT Id FROM {child_relationships('Case')[0].name}) FROM Case",
    "SELECT Quantity, UnitPrice, Product2Id FROM OrderItem WHERE Quantity > 1.5",
    "SELECT Id FROM Case WHERE Subject = 'nothing like this'",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("json") / "org.sqlite")) as s:
        yield s


@pytest.mark.parametrize("soql", QUERIES, ids=[q[:60] for q in QUERIES])
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
