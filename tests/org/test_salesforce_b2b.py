"""The Salesforce backend on a B2B org: unmodified simple-salesforce against the loopback
server (TLS on 127.0.0.1) serving a generated B2B org reads the sales objects, their
records and related lists as the local backend does, enough to answer a sales item."""

from __future__ import annotations

from pathlib import Path

import pytest

from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.backends.salesforce import SalesforceBackend
from crm_tui.org.backends.sf_connection import SalesforceCredentials
from crm_tui.org.generate.build_file import generate
from crm_tui.org.generate.sales import stage_of_subject
from crm_tui.org.schema.b2b import STAGES
from crm_tui.org.server.loopback_tls import make_loopback_certificates
from crm_tui.org.server.rest import OrgServer
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.sales_families import generate_sales_items
from tests.helpers.sf_client import login_session

PASSWORD, TOKEN = "pw-S3cret!", "tok-XYZ987"
SALES = ("Lead", "Opportunity", "Quote", "QuoteLineItem", "Contract", "Territory2",
         "UserTerritory2Association", "VoiceCallTranscript__c", "Task", "Event")  # fmt: skip


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("b2b-served")
    path = folder / "org.db"
    generate(path, seed=4, scale=0.1, kind="b2b")
    certs = make_loopback_certificates(folder / "certs")
    server = OrgServer(
        path, tls=certs.server_context(), username="ann@example.com", password=PASSWORD,
        security_token=TOKEN,
    ).start()  # fmt: skip
    creds = SalesforceCredentials(
        username="ann@example.com", password=PASSWORD, security_token=TOKEN
    )
    backend = SalesforceBackend(creds, session=login_session(server, certs.ca_pem))
    yield path, backend
    backend.close()
    server.stop()


def test_the_sales_objects_are_described_as_locally(served: tuple[Path, SalesforceBackend]):
    path, remote = served
    local = LocalBackend(path)
    for name in SALES:
        mine, theirs = local.describe(name), remote.describe(name)
        assert [f.name for f in theirs.fields] == [f.name for f in mine.fields], name
    local.close()


def test_a_wrong_stage_item_is_answered_through_the_served_org(
    served: tuple[Path, SalesforceBackend],
) -> None:
    path, remote = served
    with OrgStore.open(path) as store:
        items = generate_sales_items(store.conn, 4, 10)
        item = next(
            i for i in items
            if i["task"] == "wrong_stage_rectification" and i["answer"] != [None]
        )  # fmt: skip
        opportunity = item["metadata"]["required"].split("is: ")[1].split()[0]
    local = LocalBackend(path)
    local_lists = {r.name: r.count for r in local.related(opportunity)}
    local.close()
    record = remote.get_record(opportunity)
    assert record.object_name == "Opportunity"
    lists = {r.name: r for r in remote.related(opportunity, preview_rows=50)}
    assert {name: r.count for name, r in lists.items()} == local_lists
    subjects = [row["Subject"] for row in lists["Tasks"].page.records]
    assert len(subjects) == lists["Tasks"].count
    shown = max((stage_of_subject(s) for s in subjects), key=STAGES.index)
    assert [shown] == item["answer"]
