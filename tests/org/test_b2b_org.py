"""The B2B org: generation, its integrity checks, and SOQL, describe and the backend on it
with no special cases; a B2C org generated beside it keeps its own schema and content."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from crm_tui.org.backends.interface import Filter, Sort
from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.generate.build_file import generate
from crm_tui.org.schema.catalogue import OBJECT_NAMES, objects_for_kind
from crm_tui.org.soql.describe import describe_global, describe_object
from crm_tui.org.soql.executor import execute_soql
from crm_tui.org.store.check import check_org
from crm_tui.org.store.orgstore import OrgStore

SALES = (
    "Lead", "Opportunity", "OpportunityLineItem", "Quote", "QuoteLineItem", "Contract",
    "Territory2", "UserTerritory2Association", "VoiceCallTranscript__c", "Task", "Event",
)  # fmt: skip


@pytest.fixture(scope="module")
def b2b_org(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("b2b") / "org.db"
    generate(path, seed=3, scale=0.2, kind="b2b")
    return path


def test_b2b_org_has_sales_objects_and_passes_its_checks(b2b_org: Path) -> None:
    with OrgStore.open(b2b_org) as store:
        assert store.org_kind == "b2b" and store.meta("org_kind") == "b2b"
        counts = store.counts()
        assert all(counts[name] > 0 for name in SALES), counts
        report = check_org(store)
        assert report.ok, report.problems
        assert {"b2b:quote-line-price-book", "b2b:converted-leads"} <= set(report.checked)


def test_b2c_org_is_untouched_by_a_b2b_one(b2b_org: Path, tmp_path: Path) -> None:
    first = generate(tmp_path / "a.db", seed=2, scale=0.1)
    generate(tmp_path / "b.db", seed=2, scale=0.1, kind="b2b")
    again = generate(tmp_path / "c.db", seed=2, scale=0.1)
    assert first.content_hash == again.content_hash
    with OrgStore.open(tmp_path / "c.db") as store:
        assert store.org_kind == "b2c" and store.meta("org_kind") is None
        tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
        assert not tables & set(SALES)
        assert [o["name"] for o in describe_global("62.0")["sobjects"]] == list(OBJECT_NAMES)


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (
            "UPDATE QuoteLineItem SET PricebookEntryId = NULL, Product2Id = "
            "(SELECT Id FROM Product2 WHERE Id NOT IN (SELECT Product2Id FROM PricebookEntry "
            "WHERE Pricebook2Id = (SELECT o.Pricebook2Id FROM Quote q JOIN Opportunity o "
            "ON o.Id = q.OpportunityId WHERE q.Id = QuoteLineItem.QuoteId)) LIMIT 1) "
            "WHERE Id = (SELECT min(Id) FROM QuoteLineItem)",
            "priced in the opportunity's price book",
        ),
        (
            "UPDATE QuoteLineItem SET PricebookEntryId = (SELECT max(Id) FROM PricebookEntry) "
            "WHERE Id = (SELECT min(Id) FROM QuoteLineItem)",
            "priced in the opportunity's price book",
        ),
        (
            "UPDATE Contract SET CompanySignedDate = '2019-01-01' "
            "WHERE Id = (SELECT min(Id) FROM Contract)",
            "dated before its opportunity",
        ),
        (
            "UPDATE Lead SET ConvertedOpportunityId = NULL "
            "WHERE Id = (SELECT min(Id) FROM Lead WHERE IsConverted = 1)",
            "conversion not linked",
        ),
        (
            "UPDATE Lead SET ConvertedAccountId = (SELECT min(Id) FROM Account) "
            "WHERE Id = (SELECT max(Id) FROM Lead WHERE IsConverted = 1)",
            "conversion not linked",
        ),
        (
            "UPDATE Opportunity SET StageName = 'Discovery' "
            "WHERE Id = (SELECT min(Id) FROM Opportunity WHERE StageName = 'Closed')",
            "Closed without a contract",
        ),
    ],
)
def test_each_b2b_invariant_reports_a_broken_org(
    b2b_org: Path, tmp_path: Path, breakage: str, message: str
) -> None:
    broken = tmp_path / "broken.db"
    shutil.copy(b2b_org, broken)
    with sqlite3.connect(broken) as conn:
        assert conn.execute(breakage).rowcount == 1
    with OrgStore.open(broken) as store:
        report = check_org(store)
    assert any(message in p for p in report.problems), report.problems


def test_soql_describe_and_backend_follow_the_b2b_schema(b2b_org: Path) -> None:
    with OrgStore.open(b2b_org) as store:
        result = execute_soql(
            store,
            "SELECT Id, StageName, ContractID__r.CompanySignedDate, Owner.Name, "
            "(SELECT Status FROM Quotes) FROM Opportunity WHERE StageName = 'Closed' LIMIT 3",
        )
        assert result.records and all(
            r["ContractID__r"]["CompanySignedDate"] for r in result.records
        )
        grouped = execute_soql(
            store, "SELECT StageName, COUNT(Id) n FROM Opportunity GROUP BY StageName"
        )
        assert {r["StageName"] for r in grouped.records} <= {
            "Qualification", "Discovery", "Quote", "Negotiation", "Closed",
        }  # fmt: skip
        names = [o["name"] for o in describe_global("62.0")["sobjects"]]
        assert names == [o.name for o in objects_for_kind("b2b")]
        rels = {r["relationshipName"] for r in describe_object(
            store.objects[[o.name for o in store.objects].index("Opportunity")], "62.0"
        )["childRelationships"]}  # fmt: skip
        assert {"Quotes", "OpportunityLineItems", "Tasks", "Events", "Orders"} <= rels
    backend = LocalBackend(b2b_org)
    try:
        listed = {o.name: o.count for o in backend.list_objects()}
        assert listed["Lead"] > 0 and listed["Territory2"] == 6
    finally:
        backend.close()


def test_tasks_generate_on_a_b2b_org_writes_service_and_sales_families(
    b2b_org: Path, tmp_path: Path
) -> None:
    from crm_tui.cli import main
    from crm_tui.tasks.families import families
    from crm_tui.tasks.sales_families import SALES_FAMILIES
    from crm_tui.tasks.taskset import load_taskset

    out = tmp_path / "set.json"
    main(["tasks", "generate", "--org", str(b2b_org), "--per-task", "8", "--out", str(out)])
    taskset = load_taskset(out)
    by_task = taskset.by_task()
    assert set(by_task) == set(families()) | set(SALES_FAMILIES)
    assert all(len(items) == 8 for items in by_task.values())
    assert len({i.idx for i in taskset.instances}) == 19 * 8
    sales = [i for i in taskset.instances if i.task in SALES_FAMILIES]
    assert all(i.answer_list is not None and i.user_persona for i in sales)


def test_a_b2c_and_a_b2b_org_open_in_one_process_each_keep_their_schema(
    b2b_org: Path, small_org_path: Path
) -> None:
    from crm_tui.org.soql.sf_errors import SalesforceError

    with OrgStore.open(b2b_org) as b2b, OrgStore.open(small_org_path) as b2c:
        # the B2C org was opened last: the B2B one still answers from its own schema
        assert execute_soql(b2b, "SELECT Id, StageName FROM Opportunity LIMIT 1").records
        assert execute_soql(b2b, "SELECT Industry FROM Account LIMIT 1").records
        with pytest.raises(SalesforceError, match="Opportunity"):
            execute_soql(b2c, "SELECT Id FROM Opportunity LIMIT 1")
        with pytest.raises(SalesforceError, match="Industry"):
            execute_soql(b2c, "SELECT Industry FROM Account LIMIT 1")


@pytest.mark.parametrize(
    ("name", "flt", "sort"),
    [
        ("Quote", Filter("Status", "=", "Accepted"), Sort("CreatedDate", descending=True)),
        ("Quote", Filter("Status", "=", "Accepted"), Sort("QuoteNumber", descending=True)),
        ("Task", Filter("Subject", "=", "Build the price quote"), Sort("ActivityDate")),
        ("Task", Filter("Subject", "=", "Build the price quote"), Sort("CreatedDate")),
        ("Task", Filter("Status", "=", "Not Started"), Sort("ActivityDate", descending=True)),
        ("Lead", Filter("Status", "=", "Working - Contacted"), Sort("CreatedDate")),
        ("Lead", Filter("State", "=", "CA"), Sort("CreatedDate", descending=True)),
        ("Opportunity", Filter("StageName", "=", "Negotiation"), Sort("CloseDate")),
    ],
)
def test_a_sales_list_filtered_and_sorted_walks_one_index_in_order(
    b2b_org: Path, name: str, flt: Filter, sort: Sort
) -> None:
    """A sales list filtered on a picklist or text field and sorted by a date reads the
    matching rows in order from one index: with only single-column indexes the first page
    either sorted every match (Accepted quotes at scale 100: 150,000 rows, 0.2-0.5 s) or
    scanned the whole date index for a rare value (Working leads: 0.1 s)."""
    backend = LocalBackend(b2b_org)
    statements: list[str] = []
    backend._store.conn.set_trace_callback(statements.append)  # SQL with its values
    try:
        page = backend.page(name, [flt], sort, limit=100)
        listed = [s for s in statements if "ORDER BY" in s and f'FROM "{name}"' in s]
        plan = [r[3] for r in backend._store.conn.execute(f"EXPLAIN QUERY PLAN {listed[0]}")]
    finally:
        backend.close()
    assert page.records, "the filter matches no record: pick a value the org holds"
    index = f"ix_{name}_{flt.field}_{sort.field}"
    assert plan[0].startswith(f"SEARCH t0 USING INDEX {index} ({flt.field}=?)"), plan
    assert not any("TEMP B-TREE" in step for step in plan), plan


@pytest.mark.parametrize(
    ("name", "lookup"), [("Lead", "ConvertedAccountId"), ("Opportunity", "ContractID__c")]
)
def test_a_list_sorted_by_a_lookup_reads_its_empty_stretch_in_id_order(
    b2b_org: Path, name: str, lookup: str
) -> None:
    """Records without the lookup (leads not converted, deals not won) come first in a
    sort by its name, by Id: every name there is empty, so the page walks the lookup's
    (value, Id) index; sorted by the empty names it sorted every such record (140,000
    leads at scale 100: 0.15 s)."""
    backend = LocalBackend(b2b_org)
    statements: list[str] = []
    backend._store.conn.set_trace_callback(statements.append)  # SQL with its values
    try:
        page = backend.page(name, [], Sort(lookup), limit=100)
        empty = [s for s in statements if f'(t0."{lookup}" IS NULL)' in s]
        plan = [r[3] for r in backend._store.conn.execute(f"EXPLAIN QUERY PLAN {empty[0]}")]
        with OrgStore.open(b2b_org) as store:
            first = [
                r[0]
                for r in store.conn.execute(
                    f'SELECT Id FROM "{name}" WHERE "{lookup}" IS NULL ORDER BY Id LIMIT 100'
                )
            ]
    finally:
        backend.close()
    assert first and [r["Id"] for r in page.records][: len(first)] == first
    assert plan[0] == f"SEARCH t0 USING INDEX ix_{name}_{lookup} ({lookup}=?)", plan
    assert not any("TEMP B-TREE" in step for step in plan), plan
