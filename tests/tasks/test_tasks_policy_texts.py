"""Policy-violation items: the resolution the agent gave can be read off the case's texts.

The rule a reader applies: the resolutions named in the case's e-mails and chat
transcripts (the catalogue's eight names, as whole phrases, in any case). Each item's case
names exactly one, and it is the resolution the gold was computed from (the hidden
CASE_POLICY_VIOLATION record's "offered"): no case leaves two offers to choose between.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from crm_tui.org.generate.kbtexts import resolutions
from crm_tui.org.schema import latent
from crm_tui.tasks import gold
from tests.helpers.crmarena_routing import org_connection
from tests.helpers.task_org import OrgBuilder

NAMED = {name: re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE) for name in resolutions()}


def resolutions_named(conn: sqlite3.Connection, case_id: str) -> set[str]:
    """The resolutions the case's e-mails and chats name."""
    texts = [
        r[0] or ""
        for r in conn.execute("SELECT TextBody FROM EmailMessage WHERE ParentId = ?", [case_id])
    ]
    texts += [
        r[0] or ""
        for r in conn.execute("SELECT Body FROM LiveChatTranscript WHERE CaseId = ?", [case_id])
    ]
    return {name for name, pattern in NAMED.items() if any(pattern.search(t) for t in texts)}


def hidden_offer(conn: sqlite3.Connection, case_id: str) -> str:
    (value,) = conn.execute(
        "SELECT value FROM _latent WHERE object = ? AND variable = ? AND record_id = ?",
        (*latent.CASE_POLICY_VIOLATION, case_id),
    ).fetchone()
    offered: str = json.loads(value)["offered"]
    return offered


def test_every_policy_case_names_one_resolution_the_one_offered(default_org_path, default_set):
    items = default_set.by_task()["policy_violation_identification"]
    assert len(items) == 130
    with org_connection(default_org_path) as conn:
        named = {i.params["case_id"]: resolutions_named(conn, i.params["case_id"]) for i in items}
        offered = {case: hidden_offer(conn, case) for case in named}
    unclear = {case: sorted(n) for case, n in named.items() if n != {offered[case]}}
    assert not unclear, (
        f"{len(unclear)} cases name other resolutions than the one offered: {unclear}"
    )


def test_a_case_naming_another_resolution_than_the_offered_one_has_no_policy_gold(tmp_path):
    org = OrgBuilder(tmp_path / "org.sqlite")
    agent = org.user("a")
    clear, unclear = (org.case([agent], "2022-01-01 08:00", "2022-01-02 08:00") for _ in "ab")
    for case, offer in ((clear, "a Full Refund"), (unclear, "a Full Refund, or Store Credit")):
        org.email(case, f"I can offer you {offer}.")
        org.violation(case, None, offered="Full Refund")
    store = org.finish()
    assert gold.policy_violation_identification(store, clear) is None
    with pytest.raises(gold.Undecidable, match="Store Credit"):
        gold.policy_violation_identification(store, unclear)
    store.close()
