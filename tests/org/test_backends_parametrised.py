"""The backend contract, run over every backend (as Harlequin tests every adapter).

`local` reads the small org file; `salesforce` reads the same org through the unmodified
simple-salesforce, over TLS, from the loopback server. The truth is the org file itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import select
from textual.widgets import DataTable

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Filter, Operator, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials
from crm_tui.org.schema.catalogue import OBJECT_NAMES, child_relationships
from crm_tui.org.schema.ids import make_id, to18
from crm_tui.org.store.orgstore import OrgStore, q
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, RealismRating
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.browser.history import RecordLocation
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.browser.settings import BrowserSettings
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_app import StudyApp
from tests.helpers.pilot import settle
from tests.helpers.sf_client import login_session, serve_tls
from tests.helpers.study_on_org import create_profile, study_rows

BACKENDS = ["local", "salesforce"]


@pytest.fixture(scope="module")
def salesforce_server(small_org_path, tmp_path_factory):
    with serve_tls(small_org_path, tmp_path_factory.mktemp("certs")) as (server, ca_pem):
        yield server, ca_pem


def open_backend(kind: str, org_path, salesforce_server):
    if kind == "local":
        return LocalBackend(org_path)
    server, ca_pem = salesforce_server
    session = login_session(server, ca_pem)
    creds = SalesforceCredentials(
        username=server.username, password=server.password, security_token=server.api.security_token
    )
    return SalesforceBackend(creds, session=session)


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request, small_org_path, salesforce_server):
    be = open_backend(request.param, small_org_path, salesforce_server)
    yield be
    be.close()


@pytest.fixture(scope="module")
def truth(small_org_path):
    """Every row of every object, straight from the org file."""
    with OrgStore.open(small_org_path) as store:
        return {
            name: [dict(r) for r in store.conn.execute(f"SELECT * FROM {q(name)}")]
            for name in OBJECT_NAMES
        }


def _all_pages(backend, obj, sort, filters=(), limit=7) -> list[str]:
    seen, cursor = [], None
    for _ in range(1000):
        page = backend.page(obj, list(filters), sort, after=cursor, limit=limit)
        assert len(page.records) <= limit
        seen += [r["Id"] for r in page.records]
        cursor = page.next_cursor
        if cursor is None:
            return seen
    raise AssertionError("paging does not end")


def test_object_counts(backend, truth):
    assert {o.name: o.count for o in backend.list_objects()} == {
        name: len(rows) for name, rows in truth.items()
    }


@pytest.mark.parametrize("field", ["CreatedDate", "ClosedDate", "Status", "Priority", "Id"])
@pytest.mark.parametrize("descending", [False, True])
def test_paging_returns_every_row_once_in_order(backend, truth, field, descending):
    # NULLs first ascending and last descending; Id breaks ties.
    ordered = sorted(truth["Case"], key=lambda c: (c[field] is not None, c[field] or "", c["Id"]))
    expected = [c["Id"] for c in ordered][:: -1 if descending else 1]
    assert _all_pages(backend, "Case", Sort(field, descending)) == expected


def test_paging_a_boolean_and_a_number(backend, truth):
    for field, obj in (("IsActive", "Product2"), ("UnitPrice", "OrderItem")):
        for descending in (False, True):
            ordered = sorted(truth[obj], key=lambda r: (r[field], r["Id"]), reverse=descending)
            assert _all_pages(backend, obj, Sort(field, descending), limit=3) == [
                r["Id"] for r in ordered
            ]


FILTERS = [
    (Filter("Status", "=", "Closed"), lambda c: c["Status"] == "Closed"),
    (Filter("Status", "!=", "Closed"), lambda c: c["Status"] != "Closed"),
    (Filter("ClosedDate", "is empty"), lambda c: c["ClosedDate"] is None),
    (Filter("ClosedDate", "is not empty"), lambda c: c["ClosedDate"] is not None),
    (Filter("Subject", "contains", "ORDER"), lambda c: "order" in c["Subject"].lower()),
    (Filter("CaseNumber", "starts with", "0000100"), lambda c: c["CaseNumber"][:7] == "0000100"),
    (Filter("CreatedDate", ">=", "2021-06-01"), lambda c: c["CreatedDate"] >= "2021-06-01"),
    (Filter("CreatedDate", "<", "2021-06-01T00:00:00Z"), lambda c: c["CreatedDate"] < "2021-06-01"),
]


@pytest.mark.parametrize("flt, keep", FILTERS, ids=[f.describe() for f, _ in FILTERS])
def test_filters_return_what_they_should(backend, truth, flt, keep):
    expected = {c["Id"] for c in truth["Case"] if keep(c)}
    assert 0 < len(expected) < len(truth["Case"])  # each filter really filters
    assert set(_all_pages(backend, "Case", Sort("Id"), [flt], limit=50)) == expected
    assert backend.count("Case", [flt]) == len(expected)


DAY_MEANS = {  # Salesforce: a bare day against a DateTime is that whole day, in UTC
    "=": lambda stamp, day: stamp is not None and stamp[:10] == day,
    "!=": lambda stamp, day: stamp is None or stamp[:10] != day,
    "<": lambda stamp, day: stamp is not None and stamp[:10] < day,
    "<=": lambda stamp, day: stamp is not None and stamp[:10] <= day,
    ">": lambda stamp, day: stamp is not None and stamp[:10] > day,
    ">=": lambda stamp, day: stamp is not None and stamp[:10] >= day,
}


@pytest.mark.parametrize("field", ["CreatedDate", "ClosedDate"])
@pytest.mark.parametrize("op", list(DAY_MEANS))
def test_a_bare_day_against_a_datetime_is_that_whole_day_in_utc(backend, truth, field, op):
    """Stored times are UTC; `CreatedDate = 2020-02-05` is every case opened that day."""
    stamps = sorted(c[field] for c in truth["Case"] if c[field])
    day = stamps[len(stamps) // 2][:10]
    expected = [
        c["Id"]
        for c in sorted(truth["Case"], key=lambda c: c["Id"])
        if DAY_MEANS[op](c[field], day)
    ]
    assert 0 < len(expected) < len(truth["Case"])
    flt = Filter(field, op, day)
    assert _all_pages(backend, "Case", Sort("Id"), [flt], limit=25) == expected
    assert backend.count("Case", [flt]) == len(expected)


def test_number_and_boolean_filters(backend, truth):
    assert backend.count("OrderItem", [Filter("UnitPrice", ">", "50")]) == sum(
        r["UnitPrice"] > 50 for r in truth["OrderItem"]
    )
    assert backend.count("Product2", [Filter("IsActive", "=", "yes")]) == sum(
        bool(r["IsActive"]) for r in truth["Product2"]
    )


# ----------------------------------------------------------------- every operator, every type
# One field of each type, on an object of the small org, and how a person would type the
# filter value, made from the middle one of the field's distinct stored values.
TYPED_FIELDS: dict[str, tuple[str, str, Callable[[Any], str]]] = {
    "text": ("Case", "Subject", lambda v: v.upper()),  # = on text ignores case
    "picklist": ("Case", "Priority", str.lower),  # three values at any scale
    "number": ("OrderItem", "Quantity", lambda v: f"{v:g}"),
    "currency": ("OrderItem", "UnitPrice", str),
    "boolean": ("Pricebook2", "IsActive", lambda v: "yes" if v else "no"),
    "date": ("Order", "EffectiveDate", str),
    "datetime": ("Case", "ClosedDate", lambda v: v[:19] + "Z"),  # nullable
    "id": ("Case", "Id", str),
    "lookup": ("Case", "OwnerId", lambda v: v[:15]),  # a 15-character Id works too
}
TEXT_KINDS = {"text", "picklist"}
ORDERED = {"<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


def stored_form(kind: str, typed: str):
    """The typed filter value as the org file stores it, for comparing with its rows."""
    if kind in ("number", "currency"):
        return float(typed)
    if kind == "boolean":
        return int(typed == "yes")
    if kind == "datetime":
        return typed[:19].replace("Z", "")
    if kind in ("id", "lookup"):
        return to18(typed)
    return typed


def keeps(kind: str, op: str, stored, typed: str) -> bool:
    """Salesforce's meaning of `field op typed` for one stored value, computed directly:
    text compares without case, != also keeps empty fields, empty text is null or ''."""
    if op in ("is empty", "is not empty"):
        empty = stored is None or (kind in TEXT_KINDS and stored == "")
        return empty == (op == "is empty")
    if op == "!=" and stored is None:
        return True
    if stored is None:
        return False
    value = stored_form(kind, typed)
    if kind in TEXT_KINDS:
        stored, value = stored.lower(), value.lower()
    if kind == "datetime":
        stored = stored[:19]
    if op == "contains":
        return value in stored
    if op == "starts with":
        return stored.startswith(value)
    if op == "=":
        return stored == value
    if op == "!=":
        return stored != value
    return getattr(stored, ORDERED[op])(value)


def sort_key(kind: str, stored):
    """Salesforce's order for a stored value: text without case (NULLs come first)."""
    if stored is None:
        return (False, "")
    return (True, stored.lower() if kind in TEXT_KINDS else stored)


def refused(kind: str, op: str) -> str | None:
    """The error a filter gets when the operator does not apply to the field's type."""
    if op in ("contains", "starts with") and kind not in TEXT_KINDS:
        return "is not text"
    if op in ORDERED and kind == "boolean":
        return "is true or false"
    return None


@pytest.fixture(scope="module")
def both(small_org_path, salesforce_server):
    """The local backend and the Salesforce one, side by side."""
    opened = {kind: open_backend(kind, small_org_path, salesforce_server) for kind in BACKENDS}
    yield opened
    for be in opened.values():
        be.close()


@pytest.mark.parametrize("op", [op.value for op in Operator])
@pytest.mark.parametrize("kind", list(TYPED_FIELDS))
def test_every_operator_on_every_field_type(both, truth, kind, op):
    """Both backends give the same rows in the same order, and the same count, and those
    rows are the ones the org file holds for the filter's Salesforce meaning."""
    obj, field, typed_from = TYPED_FIELDS[kind]
    rows = truth[obj]
    stored = sorted({r[field] for r in rows if r[field] is not None})
    typed = typed_from(stored[len(stored) // 2])
    if op == "contains":
        typed = typed[1:4]
    elif op == "starts with":
        typed = typed[:3]
    flt = Filter(field, op, typed if Operator(op).takes_value else None)
    problem = refused(kind, op)
    if problem:
        for backend in both.values():
            with pytest.raises(CrmTuiError, match=problem):
                backend.page(obj, [flt])
        return
    kept = [r for r in rows if keeps(kind, op, r[field], typed)]
    if op in ("=", "!=", "<", ">", "contains", "starts with"):
        assert 0 < len(kept) < len(rows)  # each of these really filters
    by_id = [r["Id"] for r in sorted(kept, key=lambda r: r["Id"])]
    # A lookup sorts by the name it shows (Owner.Name), as Salesforce does.
    shown = {u["Id"]: u["Name"].lower() for u in truth["User"]} if kind == "lookup" else {}
    by_field_descending = [
        r["Id"]
        for r in sorted(
            kept, key=lambda r: (sort_key(kind, shown.get(r[field], r[field])), r["Id"])
        )
    ][::-1]
    for backend in both.values():
        assert _all_pages(backend, obj, Sort("Id"), [flt], limit=25) == by_id
        assert _all_pages(backend, obj, Sort(field, True), [flt], limit=25) == by_field_descending
        assert backend.count(obj, [flt]) == len(kept)


@pytest.mark.parametrize("descending", [False, True])
def test_text_sorts_without_case_on_both_backends(both, truth, descending):
    """Salesforce sorts text without regard to case ('iPhone' between 'Iguana' and 'Ivy')."""
    products = truth["Product2"]
    expected = [
        r["Id"] for r in sorted(products, key=lambda r: (sort_key("text", r["Name"]), r["Id"]))
    ][:: -1 if descending else 1]
    for backend in both.values():
        assert _all_pages(backend, "Product2", Sort("Name", descending), limit=9) == expected


def test_record_with_lookups_named(backend, truth):
    case = next(c for c in truth["Case"] if c["AccountId"] and c["OwnerId"])
    view = backend.get_record(case["Id"][:15])
    assert (view.object_name, view.record_id, view.title) == (
        "Case",
        case["Id"],
        case["CaseNumber"],
    )
    fields = {f.name: f for f in view.fields}
    account = next(a for a in truth["Account"] if a["Id"] == case["AccountId"])
    owner = next(u for u in truth["User"] if u["Id"] == case["OwnerId"])
    assert (fields["AccountId"].display, fields["AccountId"].link) == (
        account["Name"],
        account["Id"],
    )
    assert fields["OwnerId"].display == owner["Name"]
    page = backend.page("Case", [Filter("Id", "=", case["Id"])])
    assert (
        page.display(backend.describe("Case").field("AccountId"), page.records[0])
        == account["Name"]
    )


def test_related_lists_count_and_preview_children(backend, truth):
    account = truth["Account"][0]["Id"]
    related = {r.name: r for r in backend.related(account, preview_rows=2)}
    assert set(related) == {r.name for r in child_relationships("Account")}
    for rel in child_relationships("Account"):
        children = sorted(r["Id"] for r in truth[rel.child] if r[rel.field] == account)
        assert related[rel.name].count == len(children)
        assert [r["Id"] for r in related[rel.name].page.records] == children[:2]
        assert (related[rel.name].page.next_cursor is not None) == (len(children) > 2)


def test_search_finds_records_by_words(backend, truth):
    issue = truth["Issue__c"][0]
    hits = backend.search(issue["Name"].lower())
    assert issue["Id"] in {h.record_id for h in hits}
    scoped = backend.search(issue["Name"], objects=["Issue__c"])
    assert {h.object_name for h in scoped} == {"Issue__c"}
    assert next(h for h in scoped if h.record_id == issue["Id"]).title == issue["Name"]
    prefix = issue["Name"].split()[0][:4]
    assert issue["Id"] in {h.record_id for h in backend.search(prefix, objects=["Issue__c"])}
    assert backend.search("   ") == []


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda b: b.page("Case", [Filter("Nope", "=", "x")]), "No field 'Nope' on Case"),
        (lambda b: b.page("Case", [Filter("Status", "like", "x")]), "Unknown filter operator"),
        (lambda b: b.page("OrderItem", [Filter("Quantity", ">", "lots")]), "needs a number"),
        (lambda b: b.count("Thing"), "No object 'Thing'"),
        (lambda b: b.page("Case", sort=Sort("Colour")), "No field 'Colour'"),
        (lambda b: b.get_record("zzz000000000000AAA"), "unknown key prefix"),
        (lambda b: b.get_record(make_id("500", 99_999)), "No Case with Id"),
    ],
)
def test_bad_requests_are_clear_errors(backend, call, message):
    with pytest.raises(CrmTuiError, match=message):
        call(backend)


@pytest.mark.parametrize("kind", BACKENDS)
async def test_browser_follows_a_case_to_its_account(
    kind, small_org_path, salesforce_server, truth
):
    """The same keys, on either backend, reach the same records."""
    backend = open_backend(kind, small_org_path, salesforce_server)
    app = create_app(
        Launch(backend=backend, browser=BrowserSettings(page_size=30, prefetch_rows=5))
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press(*["down"] * OBJECT_NAMES.index("Case"), "enter")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        table = app.screen.query_one(DataTable)
        first = min(
            truth["Case"], key=lambda c: (c["CreatedDate"] is not None, c["CreatedDate"], c["Id"])
        )
        assert next(iter(table.rows)).value == first["Id"]
        await pilot.press("enter")
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert isinstance(app.screen, RecordScreen)
        assert app.screen.record_id == first["Id"]


@pytest.mark.parametrize("kind", BACKENDS)
async def test_solve_and_rate_realism(
    kind, small_org_path, salesforce_server, tmp_path, monkeypatch
):
    """The study loop on each backend: an answer taken from the browser, then two ratings
    whose sample records come from that backend."""
    backend = open_backend(kind, small_org_path, salesforce_server)
    clock, study_path = FakeClock(), tmp_path / "study.sqlite"
    rows = study_rows(small_org_path, backend.fingerprint)
    preset, preset_path = load_preset("paper-expert-study")
    with StudyStore.open(study_path, clock) as store:
        create_study(
            store,
            "both",
            preset,
            instances=rows,
            task_set_hash="sha256:both",
            org_fingerprint=backend.fingerprint,
            preset_path=preset_path,
        )
    app = StudyApp(backend, Launch(study=study_path, study_clock=clock))
    async with app.run_test(size=(120, 40)) as pilot:
        await create_profile(pilot)
        await pilot.press("s")
        await settle(pilot)
        solve = app.screen
        assert isinstance(solve, SolveScreen)
        gold = next(
            r["answer"] for r in rows if r["crm_tui"]["answer_object"] == solve.family.answer_object
        )
        app.navigate(RecordLocation(gold))
        await settle(pilot)
        await pilot.press("u", "ctrl+s")
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("escape", "t")  # home, then rate: the org first, then Users
        await settle(pilot)
        for level in ("4", "3"):
            await pilot.press(level, "ctrl+s")
            await settle(pilot)
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        attempt = db.exec(select(Attempt)).one()
        ratings = {r.target: r for r in db.exec(select(RealismRating))}
    assert (attempt.status, attempt.answer_raw, attempt.score) == ("submitted", gold, 1.0)
    assert {t: r.level for t, r in ratings.items()} == {"org": 4, "User": 3}
    shown = json.loads(ratings["User"].record_ids_json)
    with OrgStore.open(small_org_path) as org:
        users = {r["Id"] for r in org.rows("User")}
    assert shown and set(shown) <= users
