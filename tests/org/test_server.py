"""The unmodified simple-salesforce client against the loopback server, over real TLS."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from typing import cast

import pytest
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import (
    SalesforceAuthenticationFailed,
    SalesforceError,
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceRefusedRequest,
    SalesforceResourceNotFound,
)

from crm_tui.org.schema.catalogue import OBJECT_NAMES, child_relationships
from crm_tui.org.server.rest import SalesforceApi
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.sf_client import (
    LoginRedirect,
    client,
    password_client,
    serve_tls,
    trusted_session,
)
from tests.helpers.soql_org import ACCOUNTS, CASES, PRODUCTS, TODAY, build_tiny_org


def first_error(error: SalesforceError) -> dict[str, str]:
    """The first error of Salesforce's answer: simple-salesforce keeps the answer's parsed
    JSON in `content`, though it declares the bytes."""
    return cast("list[dict[str, str]]", error.content)[0]


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny_server")
    org = build_tiny_org(root / "org.sqlite")
    with serve_tls(org, root / "certs", today=TODAY) as (server, ca_pem):
        yield server, ca_pem


@pytest.fixture
def sf(tiny_server):
    return client(*tiny_server)


def test_query_returns_salesforce_shapes_with_nested_parents(sf):
    result = sf.query(
        "SELECT Id, Subject, Account.Name, Owner.Name FROM Case "
        "WHERE Status = 'Closed' ORDER BY CreatedDate DESC"
    )
    assert result["totalSize"] == 3 and result["done"] is True
    first = result["records"][0]
    assert first["attributes"] == {
        "type": "Case",
        "url": f"/services/data/v59.0/sobjects/Case/{CASES[0]}",
    }
    assert first["Account"]["Name"] == "Ann O'Brien"
    assert first["Account"]["attributes"]["type"] == "Account"
    assert first["Owner"]["Name"] == "Ada Lovelace"


def test_multi_hop_parent_filter_and_child_subquery(sf):
    items = sf.query(
        f"SELECT Product2Id FROM OrderItem WHERE Order.AccountId = "
        f"'{ACCOUNTS[0]}' AND Order.EffectiveDate = 2024-05-01"
    )
    assert [r["Product2Id"] for r in items["records"]] == [PRODUCTS[0]]
    accounts = sf.query(
        "SELECT Name, (SELECT CaseNumber FROM Cases ORDER BY CaseNumber) FROM Account ORDER BY Name"
    )
    cases = {r["Name"]: r["Cases"] for r in accounts["records"]}
    assert [c["CaseNumber"] for c in cases["Ann O'Brien"]["records"]] == ["00000001", "00000002"]
    assert cases["Ann O'Brien"]["totalSize"] == 2


def test_aggregates_and_count(sf):
    grouped = sf.query(
        "SELECT IssueId__c, COUNT(Id), COUNT(Id) n FROM Case "
        "GROUP BY IssueId__c HAVING COUNT(Id) > 2"
    )
    assert grouped["records"] == [
        {
            "attributes": {"type": "AggregateResult"},
            "IssueId__c": grouped["records"][0]["IssueId__c"],
            "expr0": 4,
            "n": 4,
        }
    ]
    assert sf.query("SELECT COUNT() FROM Case WHERE CreatedDate = THIS_MONTH") == {
        "totalSize": 3,
        "done": True,
        "records": [],
    }


def test_search_and_parameterized_search(sf):
    found = sf.search("FIND {rope} IN ALL FIELDS RETURNING Product2(Id, Name)")
    assert [r["Name"] for r in found["searchRecords"]] == ["Speed Jump Rope"]
    by_params = sf.restful(
        "parameterizedSearch/",
        params={"q": "synthetic", "sobject": "Product2", "Product2.fields": "Id,Name"},
    )
    assert [r["Name"] for r in by_params["searchRecords"]] == ["Trail Jacket"]


def test_describe_global_and_object(sf):
    names = [o["name"] for o in sf.describe()["sobjects"]]
    assert names == list(OBJECT_NAMES)
    case = sf.Case.describe()
    account_id = next(f for f in case["fields"] if f["name"] == "AccountId")
    assert account_id["type"] == "reference" and account_id["referenceTo"] == ["Account"]
    assert account_id["relationshipName"] == "Account"
    status = next(f for f in case["fields"] if f["name"] == "Status")
    assert [p["value"] for p in status["picklistValues"]] == [
        "New",
        "Open",
        "Working",
        "Escalated",
        "Closed",
    ]
    assert {r["relationshipName"] for r in sf.Account.describe()["childRelationships"]} == {
        r.name for r in child_relationships("Account")
    }


def test_record_by_id_and_limits(sf):
    record = sf.Account.get(ACCOUNTS[1][:15])  # 15-character Ids work too
    assert record["Id"] == ACCOUNTS[1] and record["ShippingState"] == "GA"
    with pytest.raises(SalesforceResourceNotFound):
        sf.Account.get(CASES[0][:3] + "Lc0000099999")
    assert "DailyApiRequests" in sf.limits()


def test_bad_queries_raise_malformed_request_with_salesforce_codes(sf):
    with pytest.raises(SalesforceMalformedRequest) as error:
        sf.query("SELECT Id FROM Accountz")
    assert first_error(error.value)["errorCode"] == "INVALID_TYPE"
    assert "sObject type 'Accountz' is not supported" in first_error(error.value)["message"]
    with pytest.raises(SalesforceMalformedRequest) as error:
        sf.query("SELECT Id FROM Case WHERE")
    assert first_error(error.value)["errorCode"] == "MALFORMED_QUERY"
    with pytest.raises(SalesforceMalformedRequest) as error:
        sf.search("FIND {x}")
    assert first_error(error.value)["errorCode"] == "MALFORMED_SEARCH"


def test_writes_are_refused_and_bad_tokens_rejected(sf, tiny_server):
    with pytest.raises(SalesforceRefusedRequest) as error:
        sf.Account.create({"Name": "New"})
    assert first_error(error.value)["errorCode"] == "INSUFFICIENT_ACCESS_OR_READONLY"
    server, ca_pem = tiny_server
    stranger = Salesforce(
        instance_url=server.url, session_id="wrong", session=trusted_session(ca_pem), version="59.0"
    )
    with pytest.raises(SalesforceExpiredSession):
        stranger.query("SELECT Id FROM Case")


def test_username_password_login(tiny_server):
    server, ca_pem = tiny_server
    sf = password_client(server, ca_pem)
    assert sf.session_id == server.session_id
    assert sf.query("SELECT COUNT() FROM Account")["totalSize"] == 3
    session = trusted_session(ca_pem)
    session.mount("https://login.salesforce.com/", LoginRedirect(server.port))
    with pytest.raises(SalesforceAuthenticationFailed) as refused:
        Salesforce(
            username=server.username,
            password="guess",
            security_token="",
            session=session,
            version="59.0",
        )
    assert refused.value.code == "INVALID_LOGIN"


def test_soap_login_without_username_is_a_salesforce_fault(tmp_path):
    org = build_tiny_org(tmp_path / "org.sqlite")
    with OrgStore.open(org) as store:
        answer = SalesforceApi(store).handle(
            "POST", "/services/Soap/u/59.0", {}, b"<x/>", "127.0.0.1:1"
        )
    assert answer.status == 500 and b"<sf:exceptionCode>INVALID_LOGIN" in answer.payload()


def test_query_all_pages_977_cases_in_batches_of_200(default_org_path, tmp_path):
    with serve_tls(default_org_path, tmp_path / "certs") as (server, ca_pem):
        sf = client(server, ca_pem)
        options = {"Sforce-Query-Options": "batchSize=200"}
        first = sf.query("SELECT Id, CaseNumber, Account.Name FROM Case", headers=options)
        assert first["totalSize"] == 977 and len(first["records"]) == 200
        assert first["done"] is False
        assert first["nextRecordsUrl"].startswith("/services/data/v59.0/query/")
        pages = [first]
        while not pages[-1]["done"]:
            pages.append(
                sf.query_more(pages[-1]["nextRecordsUrl"], identifier_is_url=True, headers=options)
            )
        assert [len(p["records"]) for p in pages] == [200, 200, 200, 200, 177]
        everything = sf.query_all("SELECT Id FROM Case", headers=options)
        ids = [r["Id"] for r in everything["records"]]
        assert len(ids) == len(set(ids)) == 977
        with pytest.raises(SalesforceMalformedRequest):
            sf.query_more("01gLc0000000000-200")


def test_cli_serve_answers_on_loopback(tmp_path):
    org = build_tiny_org(tmp_path / "org.sqlite")
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from crm_tui.cli.main import cli; cli()",
            "org",
            "serve",
            "--org",
            str(org),
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CRM_TUI_HOME": str(tmp_path)},
    )
    try:
        assert process.stdout is not None
        first_line = process.stdout.readline()
        url = first_line.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        token = process.stdout.readline().split(": ")[1].strip()
        request = urllib.request.Request(
            f"{url}/services/data/v59.0/query/?q=SELECT+COUNT()+FROM+Case",
            headers={"Authorization": f"Bearer {token}"},
        )
        # Generous: under CI's load the server's first answer can take seconds.
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert json.load(answer)["totalSize"] == 6
    finally:
        process.terminate()
        process.wait(timeout=30)
