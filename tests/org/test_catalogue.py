"""The schema catalogue: 16 objects, API names, the lookup graph."""

import json

import pytest

from crm_tui.org.schema import catalogue as c
from crm_tui.org.schema.ids import checksum_suffix, is_valid_id, make_id, same_id, to18
from tests.helpers.paths import CRMARENA_DIR as SHARED


def test_sixteen_objects_match_crmarena_schema():
    schema = json.loads((SHARED / "schema_with_dependencies.json").read_text())
    assert sorted(o["object"] for o in schema) == sorted(c.OBJECT_NAMES)
    assert len(c.OBJECTS) == 16


# Fields CRMArena's paper-era schema had that the "as loaded today" set drops.
DROPPED = {
    ("User", "ProfileId"),
    ("Case", "Channel"),
    ("Issue__c", "Description__c"),
    ("ProductCategoryProduct", "ProductCategory"),
    ("ProductCategoryProduct", "Product"),
}


def test_every_crmarena_field_is_catalogued_except_the_dropped_ones():
    schema = json.loads((SHARED / "schema_with_dependencies.json").read_text())
    for o in schema:
        obj = c.get_object(o["object"])
        for name in o["fields"]:
            if (obj.name, name) in DROPPED:
                assert not obj.has_field(name)
            else:
                assert obj.has_field(name), f"{obj.name}.{name}"


def test_lookup_graph_is_spec_2_3():
    deps = (SHARED / "dependencies.txt").read_text()
    expected = set()
    current = None
    for line in deps.splitlines():
        if line.startswith("Dependencies for "):
            current = line.removeprefix("Dependencies for ").rstrip(":")
        elif "Field:" in line:
            fld, ref = line.split("Field:")[1].split(", Referenced Object:")
            expected.add((current, fld.strip().lower(), ref.strip()))
    expected |= {("Case", "orderitemid__c", "OrderItem"), ("Case", "issueid__c", "Issue__c")}
    got = {(o, f.lower(), r) for o, f, r in c.lookup_edges()}
    assert got == expected
    assert len(got) == 22


def test_relationship_names_both_directions():
    case = c.get_object("Case")
    assert case.parent_relationship_fields["account"].name == "AccountId"
    assert case.field("accountid").child_relationship == "Cases"
    children = {r.name: r for r in c.child_relationships("Account")}
    assert children["Cases"].child == "Case" and children["Cases"].field == "AccountId"
    assert {"Contacts", "Orders", "LiveChatTranscripts"} <= set(children)
    # child relationship names are unique per parent
    for obj in c.OBJECTS:
        names = [r.name for r in c.child_relationships(obj.name)]
        assert len(names) == len(set(names)), obj.name


def test_field_types_labels_and_picklists():
    for obj in c.OBJECTS:
        assert obj.field("Id").type is c.FieldType.ID
        assert obj.title_field in obj.field_names
        for f in obj.fields:
            assert f.label and f.description
            if f.type is c.FieldType.PICKLIST:
                assert f.picklist
            if f.is_lookup:
                assert f.reference_to is not None and c.has_object(f.reference_to)
    assert "Closed" in c.get_object("Case").field("Status").picklist


def test_key_prefixes_unique_and_real():
    prefixes = {o.name: o.key_prefix for o in c.OBJECTS}
    assert len(set(prefixes.values())) == 16
    assert prefixes["User"] == "005" and prefixes["Case"] == "500"
    assert prefixes["Knowledge__kav"] == "ka0" and prefixes["PricebookEntry"] == "01u"


@pytest.mark.parametrize(
    "id15,suffix",
    [
        ("500Ws000007qifM", "IAQ"),  # from CRMArena's tasks
        ("005Ws000001xYl3", "IAE"),
        ("ka0Ws000000Qrof", "IAC"),
        ("a1MWs0000012u7B", "MAQ"),
    ],
)
def test_checksum_matches_real_salesforce_ids(id15, suffix):
    assert checksum_suffix(id15) == suffix
    assert to18(id15) == id15 + suffix


def test_make_id_is_valid_and_distinct():
    ids = {make_id("500", n) for n in range(2000)}
    assert len(ids) == 2000
    assert all(is_valid_id(i) and len(i) == 18 and i.startswith("500") for i in ids)
    assert not is_valid_id("500Ws000007qifMAAA")  # wrong suffix
    assert not is_valid_id("500Ws000007qif")  # too short
    assert same_id("500Ws000007qifM", "500Ws000007qifMIAQ")
    assert not same_id("500ws000007qifM", "500Ws000007qifMIAQ")  # Ids are case-sensitive
