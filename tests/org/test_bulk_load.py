"""The fast paths of org generation give exactly what their plain definitions give: Ids,
the content hash, and the indexes built after the load."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import date

import pytest

from crm_tui.org.schema.catalogue import OBJECTS
from crm_tui.org.schema.ids import (
    base62,
    checksum_suffix,
    make_id,
)
from crm_tui.org.soql.executor import compiled
from crm_tui.org.store.check import check_org
from crm_tui.org.store.orgstore import CASELESS_TYPES, REPORT_INDEXES, OrgError, OrgStore, q

LAST_NUMBER = 62**10 - 62**5 - 1  # the largest counter that fits the 10 digits


def reference_id(prefix: str, number: int, instance: str = "Lc") -> str:
    """make_id as Salesforce defines it: base-62 counter, then the case-safe suffix."""
    id15 = prefix + instance + base62(number + 62**5, 10)
    return id15 + checksum_suffix(id15)


def reference_hash(store: OrgStore) -> str:
    """The content hash as first written: one update per row of `repr(tuple(row))`."""
    h = hashlib.sha256()
    for obj in OBJECTS:
        h.update(f"\x00{obj.name}\x00".encode())
        cur = store.conn.execute(
            f"SELECT {', '.join(map(q, obj.field_names))} FROM {q(obj.name)} ORDER BY Id"
        )
        for row in cur:
            h.update(repr(tuple(row)).encode())
    h.update(b"\x00_latent\x00")
    for row in store.conn.execute("SELECT * FROM _latent ORDER BY object, record_id, variable"):
        h.update(repr(tuple(row)).encode())
    return h.hexdigest()


def test_make_id_is_the_salesforce_definition():
    r = random.Random(17)
    numbers = [*range(0, 20_000, 7), *(r.randrange(LAST_NUMBER) for _ in range(3000))]
    numbers += [3844**2 - 62**5 + k for k in range(-3, 4)] + [LAST_NUMBER]
    for prefix, instance in (("500", "Lc"), ("a1N", "Lc"), ("0ZG", "Ws"), ("XYZ", "AB")):
        for n in numbers:
            assert make_id(prefix, n, instance) == reference_id(prefix, n, instance), (prefix, n)


def test_make_id_refuses_what_does_not_fit():
    for bad in (LAST_NUMBER + 1, -(62**5) - 1):
        with pytest.raises(ValueError):
            make_id("500", bad)
    with pytest.raises(ValueError):
        make_id("50", 1)


def test_the_content_hash_is_the_repr_of_every_row_in_id_order(small_org):
    assert small_org.content_hash() == reference_hash(small_org)
    assert small_org.meta("content_hash") == reference_hash(small_org)


def catalogue_indexes(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    return {name for (name,) in rows}


def test_secondary_indexes_come_after_the_load_and_all_exist_once_finished(tmp_path):
    store = OrgStore.create(tmp_path / "org.sqlite")
    assert catalogue_indexes(store.conn) == set()  # the bulk load keeps no index up to date
    store.insert("Issue__c", [{"Id": make_id("a1M", 1), "Name": "Broken zipper"}])
    store.finish()
    expected = {f"ix_{o.name}_{f.name}" for o in OBJECTS for f in o.fields if f.indexed}
    expected -= {f"ix_{o.name}_Id" for o in OBJECTS}
    expected |= {
        f"ix_{o.name}_{f.name}_nocase"
        for o in OBJECTS
        for f in o.fields
        if f.indexed and f.type in CASELESS_TYPES
    }
    expected |= {f"ix_{obj}_{name}" for obj, made in REPORT_INDEXES.items() for name in made}
    assert catalogue_indexes(store.conn) == expected
    plan = store.conn.execute(
        "EXPLAIN QUERY PLAN SELECT Id FROM Issue__c ORDER BY Name COLLATE NOCASE, Id"
    ).fetchall()
    assert "ix_Issue__c_Name_nocase" in str([tuple(row) for row in plan])
    assert check_org(store).ok
    store.close()


def test_an_unknown_field_is_refused_in_one_line(tmp_path):
    with OrgStore.create(tmp_path / "org.sqlite") as store:
        with pytest.raises(OrgError, match="Issue__c has no field 'Colour'"):
            store.insert("Issue__c", [{"Id": make_id("a1M", 1), "Name": "x", "Colour": "red"}])


def test_rows_as_tuples_are_written_as_the_same_rows_as_dicts(tmp_path):
    rows = [
        {
            "Id": make_id("01s", n),
            "Name": f"Book {n}",
            "Description": None if n % 2 else "x",
            "IsActive": n % 3,
        }
        for n in range(1, 8)
    ]
    with OrgStore.create(tmp_path / "dicts.sqlite") as dicts:
        assert dicts.insert("Pricebook2", rows) == 7
        expected = [tuple(r) for r in dicts.conn.execute("SELECT * FROM Pricebook2 ORDER BY rowid")]
    with OrgStore.create(tmp_path / "tuples.sqlite") as tuples:
        columns = ("Name", "Id", "IsActive", "Description")
        written = tuples.insert_tuples(
            "Pricebook2", columns, (tuple(r[c] for c in columns) for r in rows)
        )
        assert written == 7
        got = [tuple(r) for r in tuples.conn.execute("SELECT * FROM Pricebook2 ORDER BY rowid")]
    assert got == expected
    with OrgStore.create(tmp_path / "bad.sqlite") as store:
        with pytest.raises(OrgError, match="Pricebook2 has no field 'Colour'"):
            store.insert_tuples("Pricebook2", ("Id", "Colour"), [(make_id("01s", 1), "red")])
        assert store.count("Pricebook2") == 0


def test_closed_cases_of_a_period_by_owner_are_read_from_the_report_index(small_org):
    """The rows the Age report fetches (and the handle-time reports group) come from the
    covering index alone, not a table row per case."""
    soql = (
        "SELECT OwnerId, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' "
        "AND ClosedDate >= 2023-01-01T00:00:00Z AND ClosedDate < 2024-01-01T00:00:00Z"
    )
    plan = compiled(soql, date(2024, 9, 1), "b2c")
    steps = small_org.conn.execute("EXPLAIN QUERY PLAN " + plan.sql, plan.params).fetchall()
    assert "COVERING INDEX ix_Case_closed_by_owner" in str([tuple(s) for s in steps])
