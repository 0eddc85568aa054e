"""The local backend on a hand-written org: keyset paging, filters, records, search."""

from __future__ import annotations

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends import local as local_backend
from crm_tui.org.backends.interface import Backend, Filter, Operator, Sort
from crm_tui.org.backends.local import LocalBackend, fts_query, fts_words
from crm_tui.org.schema.ids import make_id
from crm_tui.org.store.orgstore import OrgStore

USERS = [make_id("005", i) for i in range(3)]
ACCOUNTS = [make_id("001", i) for i in range(4)]
CASES = [make_id("500", i) for i in range(23)]
ORDERS = [make_id("801", i) for i in range(2)]
ITEMS = [make_id("802", i) for i in range(3)]


def _case(i: int) -> dict:
    return {
        "Id": CASES[i],
        "CaseNumber": f"{1000 + i:08d}",
        "Subject": ["Late parcel", "Broken zipper", "Wrong size"][i % 3],
        "Description": "The customer wrote about a thermos" if i == 4 else "Nothing special",
        # Ties (3 statuses) and NULLs (every 4th) in the sort keys.
        "Status": None if i % 4 == 0 else ["New", "Working", "Closed"][i % 3],
        "Priority": ["Low", "High"][i % 2],
        "AccountId": ACCOUNTS[i % 4],
        "OwnerId": USERS[i % 3],
        "CreatedDate": f"2023-0{1 + i % 5}-01T10:00:00.000+0000",
        "ClosedDate": None if i % 2 else f"2023-06-{1 + i % 7:02d}T10:00:00.000+0000",
        "OrderItemId__c": ITEMS[i % 3],
    }


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny.sqlite"
    store = OrgStore.create(path)
    store.insert(
        "User",
        [
            {
                "Id": u,
                "Name": f"Agent {n}",
                "LastName": f"Agent{n}",
                "Email": f"a{n}@x.com",
                "Username": f"a{n}@x.com",
            }
            for n, u in enumerate(USERS)
        ],
    )
    store.insert(
        "Account",
        [{"Id": a, "Name": f"Customer {n}", "LastName": f"C{n}"} for n, a in enumerate(ACCOUNTS)],
    )
    store.insert(
        "Order",
        [
            {
                "Id": o,
                "OrderNumber": f"0000010{n}",
                "AccountId": ACCOUNTS[0],
                "Status": "Activated",
                "EffectiveDate": "2023-01-0{n+1}",
            }
            for n, o in enumerate(ORDERS)
        ],
    )
    store.insert(
        "OrderItem",
        [
            {
                "Id": it,
                "OrderItemNumber": f"000{n}",
                "OrderId": ORDERS[0],
                "Quantity": 2.0,
                "UnitPrice": 10.5,
            }
            for n, it in enumerate(ITEMS)
        ],
    )
    store.insert("Case", [_case(i) for i in range(len(CASES))])
    store.insert(
        "EmailMessage",
        [
            {
                "Id": make_id("02s", 0),
                "Subject": "Where is my parcel",
                "TextBody": "Please help",
                "ParentId": CASES[1],
                "MessageDate": "2023-02-01T10:00:00.000+0000",
            }
        ],
    )
    store.finish()
    store.close()
    be = LocalBackend(path)
    yield be
    be.close()


def _all_pages(backend, obj, sort, filters=(), limit=4):
    seen, cursor, pages = [], None, 0
    while True:
        page = backend.page(obj, list(filters), sort, after=cursor, limit=limit)
        assert len(page.records) <= limit
        seen += [r["Id"] for r in page.records]
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            return seen, pages
        assert pages < 100, "paging does not end"


def _expected(backend, field, descending, keep=lambda c: True):
    cases = [_case(i) for i in range(len(CASES)) if keep(_case(i))]
    # SQLite's order: NULLs first ascending, last descending; Id breaks ties.
    ordered = sorted(cases, key=lambda c: (c[field] is not None, c[field] or "", c["Id"]))
    ids = [c["Id"] for c in ordered]
    return ids[::-1] if descending else ids


@pytest.mark.parametrize("field", ["Status", "ClosedDate", "Priority", "CreatedDate", "Id"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("limit", [1, 4, 7, 50])
def test_paging_returns_every_row_once_in_order(backend, field, descending, limit):
    seen, pages = _all_pages(backend, "Case", Sort(field, descending), limit=limit)
    assert seen == _expected(backend, field, descending)
    assert len(set(seen)) == len(CASES)
    assert pages == max(1, -(-len(CASES) // limit))


def test_paging_with_a_filter_and_nulls(backend):
    flt = Filter("Priority", "=", "High")
    seen, _ = _all_pages(backend, "Case", Sort("Status", True), [flt], limit=3)
    assert seen == _expected(backend, "Status", True, lambda c: c["Priority"] == "High")
    assert backend.count("Case", [flt]) == len(seen)


def test_page_resolves_lookups_to_names(backend):
    page = backend.page("Case", [Filter("Id", "=", CASES[5])])
    record = page.records[0]
    case = backend.describe("Case")
    assert page.display(case.field("OwnerId"), record) == "Agent 2"
    assert page.display(case.field("AccountId"), record) == "Customer 1"


@pytest.mark.parametrize(
    "flt, expected",
    [
        (Filter("Status", "=", "Closed"), {i for i in range(23) if i % 4 and i % 3 == 2}),
        (Filter("Status", "!=", "Closed"), {i for i in range(23) if not (i % 4 and i % 3 == 2)}),
        (Filter("Status", "is empty"), {i for i in range(23) if i % 4 == 0}),
        (Filter("ClosedDate", "is not empty"), {i for i in range(23) if i % 2 == 0}),
        (Filter("Subject", "contains", "ZIP"), {i for i in range(23) if i % 3 == 1}),
        (Filter("Subject", "contains", "%"), set()),
        (Filter("CaseNumber", "starts with", "0000101"), set(range(10, 20))),
        (Filter("CreatedDate", ">=", "2023-05-01"), {i for i in range(23) if i % 5 == 4}),
        (Filter("CreatedDate", "<", "2023-02-01"), {i for i in range(23) if i % 5 == 0}),
    ],
)
def test_filters_return_what_they_should(backend, flt, expected):
    seen, _ = _all_pages(backend, "Case", Sort("Id"), [flt], limit=50)
    assert set(seen) == {CASES[i] for i in expected}
    assert backend.count("Case", [flt]) == len(expected)


def test_numeric_filter_coerces_text(backend):
    page = backend.page("OrderItem", [Filter("UnitPrice", Operator.GT, "10")])
    assert len(page.records) == 3
    assert backend.page("OrderItem", [Filter("Quantity", "<=", "1")]).records == []


@pytest.mark.parametrize(
    "flt, message",
    [
        (Filter("Nope", "=", "x"), "No field 'Nope' on Case"),
        (Filter("Status", "like", "x"), "Unknown filter operator 'like'"),
        (Filter("Status", "=", None), "needs a value"),
    ],
)
def test_bad_filter_is_a_clear_error(backend, flt, message):
    with pytest.raises(CrmTuiError, match=message):
        backend.page("Case", [flt])


def test_bad_number_and_bad_sort_are_errors(backend):
    with pytest.raises(CrmTuiError, match="needs a number"):
        backend.page("OrderItem", [Filter("Quantity", ">", "lots")])
    with pytest.raises(CrmTuiError, match="No field 'Colour'"):
        backend.page("Case", sort=Sort("Colour"))
    with pytest.raises(CrmTuiError, match="No object 'Thing'"):
        backend.count("Thing")


def test_list_objects_counts_every_object(backend):
    counts = {o.name: o.count for o in backend.list_objects()}
    assert len(counts) == 16
    assert counts["Case"] == 23 and counts["Account"] == 4 and counts["Contact"] == 0


def test_get_record_labels_fields_and_links_lookups(backend):
    view = backend.get_record(CASES[1])
    assert (view.object_name, view.title) == ("Case", "00001001")
    by_name = {f.name: f for f in view.fields}
    assert by_name["AccountId"].label == "Account"
    assert by_name["AccountId"].display == "Customer 1"
    assert by_name["AccountId"].link == ACCOUNTS[1]
    assert by_name["ContactId"].link is None
    assert backend.get_record(CASES[1][:15]).record_id == CASES[1]


def test_get_record_unknown_ids_are_errors(backend):
    with pytest.raises(CrmTuiError, match="No Case with Id"):
        backend.get_record(make_id("500", 999))
    with pytest.raises(CrmTuiError, match="unknown key prefix"):
        backend.get_record("zzz000000000000AAA")


def test_related_lists_count_and_preview_children(backend):
    related = {r.name: r for r in backend.related(ACCOUNTS[0], preview_rows=2)}
    assert set(related) == {"Contacts", "Cases", "Orders", "LiveChatTranscripts"}
    cases = related["Cases"]
    assert cases.count == 6 and cases.count_label == "6"
    assert [r["Id"] for r in cases.page.records] == [CASES[0], CASES[4]]
    seen, _ = _all_pages(backend, "Case", Sort("Id"), [cases.filter])
    assert seen == [CASES[i] for i in range(0, 23, 4)]
    case_related = {r.name: r.count for r in backend.related(CASES[1])}
    assert case_related["EmailMessages"] == 1


def test_search_matches_words_and_prefixes(backend):
    hits = backend.search("zipp")
    assert {h.record_id for h in hits} == {CASES[i] for i in range(23) if i % 3 == 1}
    assert all(h.object_name == "Case" for h in hits)
    assert [h.record_id for h in backend.search("thermos")] == [CASES[4]]
    parcel = {h.object_name for h in backend.search("parcel")}
    assert parcel == {"Case", "EmailMessage"}
    assert {h.object_name for h in backend.search("parcel", objects=["EmailMessage"])} == {
        "EmailMessage"
    }
    assert backend.search('"') == [] and backend.search("   ") == []
    # FTS syntax in the text is read as plain words.
    assert {h.record_id for h in backend.search('late" parcel(*')} == {
        CASES[i] for i in range(23) if i % 3 == 0
    }


def test_fts_query_quotes_every_word():
    words = fts_words('late "parcel NEAR(')
    assert fts_query(words, prefix=True) == '"late" "parcel" "NEAR"*'
    assert fts_query(words, prefix=False) == '"late" "parcel" "NEAR"'
    assert fts_words("*-") == []


def test_search_with_too_many_matches_to_rank_still_finds_them(backend, monkeypatch):
    ranked = {h.record_id for h in backend.search("parcel")}
    monkeypatch.setattr(local_backend, "RANKED_MATCH_CAP", 2)  # "parcel" matches 9 records
    unranked = backend.search("parcel")
    assert {h.record_id for h in unranked} == ranked and len(unranked) == len(ranked) == 9
    assert len({h.record_id for h in backend.search("parcel", limit=3)}) == 3


def test_abilities_are_declared_on_the_interface(backend):
    """As Harlequin's adapters declare theirs: a flag on the class, and a clear error from a
    backend that lacks the ability (screens check the flag first)."""
    assert LocalBackend.supports_soql and LocalBackend.supports_search
    assert backend.soql("SELECT COUNT() FROM Case").total_size == len(CASES)

    class Bare(LocalBackend):
        supports_soql = supports_search = False
        soql = Backend.soql
        search = Backend.search

    bare = object.__new__(Bare)
    bare._name = "bare"
    with pytest.raises(CrmTuiError, match="bare does not run SOQL queries"):
        bare.soql("SELECT Id FROM Case")
    with pytest.raises(CrmTuiError, match="bare offers no search"):
        bare.search("parcel")
