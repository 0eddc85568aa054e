"""Case-routing golds are what CRMArena's own ground-truth helper answers.

The reference (tests/helpers/crmarena_routing.py) is written from the description
of `get_best_assigned_agent`, over the org file with sqlite3 alone: its two behaviours
that the written policy does not have (None when no tied agent closed a case of the
product; an agent without an open case never wins the workload rule) must never decide a
generated item. Seeds 2-4 and a larger org: tests/benchmarks/routing_reference.py.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

from crm_tui.tasks import gold
from tests.helpers.crmarena_routing import best_assigned_agent, org_connection
from tests.helpers.task_org import OrgBuilder


def test_every_routing_gold_is_the_helpers_answer(default_org_path, default_set):
    routing = default_set.by_task()["case_routing"]
    assert len(routing) == 130
    with org_connection(default_org_path) as conn:
        answers = {
            inst.idx: best_assigned_agent(conn, inst.params["issue_id"], inst.params["product_id"])
            for inst in routing
        }
    wrong = {i.idx: (i.extra["decided_by"], i.answer, answers[i.idx]) for i in routing}
    wrong = {idx: w for idx, w in wrong.items() if w[1] != w[2]}
    assert not wrong, f"{len(wrong)} routing golds differ from the helper's: {wrong}"
    # and every rule still decides a real share, with varied answers
    shares = Counter(i.extra["decided_by"] for i in routing)
    assert set(shares) == set(gold.ROUTING_RULES)
    assert min(shares.values()) >= 0.15 * len(routing), shares
    assert len({i.answer for i in routing}) >= 15


def _tied_org(tmp_path, open_of_d: int, open_of_e: int, product_case_of: str | None):
    """d and e each closed one case of `issue` (a tie); `product_case_of` closed one more,
    of another issue, about the shoe; d and e have that many cases with Status 'Open'."""
    org = OrgBuilder(tmp_path / "org.sqlite")
    d, e = org.user("d"), org.user("e")
    issue, other = org.issue("Late"), org.issue("Broken")
    shoe, sock = org.product("Shoe"), org.product("Sock")
    acct = org.account("GA")
    shoe_item = org.order(acct, date(2021, 1, 1), shoe)
    sock_item = org.order(acct, date(2021, 1, 1), sock)
    for owner in (d, e):
        org.case([owner], "2021-02-01 08:00", "2021-02-02 08:00", issue=issue, item=sock_item)
        if product_case_of in (owner, "both"):
            org.case([owner], "2021-03-01 08:00", "2021-03-02 08:00", issue=other, item=shoe_item)
    for owner, n in ((d, open_of_d), (e, open_of_e)):
        for _ in range(n):
            org.case([owner], "2021-05-01 08:00", issue=other, item=sock_item, status="Open")
    return org.finish(), (d, e), issue, shoe


def _both(store, issue, shoe):
    """(our gold or 'skipped', the helper's answer)."""
    try:
        ours: str | None = gold.case_routing(store, issue, shoe)
    except gold.Undecidable:
        ours = "skipped"
    with org_connection(store.path) as conn:
        return ours, best_assigned_agent(conn, issue, shoe)


def test_no_product_case_among_the_tied_is_none_for_the_helper_so_skipped(tmp_path):
    store, (d, e), issue, shoe = _tied_org(tmp_path, 2, 1, product_case_of=None)
    # The written policy would go on to the workload rule (e has less work); the helper
    # stops at the product rule with None: no answer both accept.
    assert _both(store, issue, shoe) == ("skipped", None)
    store.close()


def test_an_agent_without_open_cases_cannot_win_the_helpers_workload_rule(tmp_path):
    store, (d, e), issue, shoe = _tied_org(tmp_path, 1, 0, product_case_of="both")
    # The policy picks e (no open case); the helper counts only owners of open cases: d.
    assert _both(store, issue, shoe) == ("skipped", d)
    store.close()


def test_the_workload_rule_decides_when_every_tied_agent_has_open_cases(tmp_path):
    store, (d, e), issue, shoe = _tied_org(tmp_path, 2, 1, product_case_of="both")
    assert _both(store, issue, shoe) == (e, e)
    assert gold.case_routing_decision(store, issue, shoe) == (e, "workload")
    store.close()
