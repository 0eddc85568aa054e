"""The SOQL queries that show, on the org, the rows a generated task's gold answer rests on:
the counts a ranking is taken from, the cases a period selects, the orders a customer
placed. An adjudicator runs them from the queue and checks the gold against them.

Built from the hidden parameters the generator keeps with each instance (`params`), with
the gold's own conditions (`gold.py`). A task set without parameters (CRMArena's own
file) has none. Policy violations and knowledge answers come from the org's hidden truth,
so their queries show the record the question is about, not the answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from crm_tui.tasks.gold_rows import OWNER_ASSIGNMENT

ID = re.compile(r"^[A-Za-z0-9]{15,18}$")


@dataclass(frozen=True)
class GoldQuery:
    what: str  # what its rows show, in the adjudicator's words
    soql: str


def _literal(value: Any) -> str:
    """A quoted Id, refused unless it looks like one (the parameters come from a file)."""
    text = str(value)
    if not ID.match(text):
        raise ValueError(f"not a record Id: {text!r}")
    return f"'{text}'"


def _stamp(value: Any) -> str:
    """A stored DateTime ("2023-01-01T00:00:00.000+0000", always UTC) as a SOQL literal."""
    text = str(value)
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+0000$", text):
        raise ValueError(f"not a DateTime: {text!r}")
    return text[:19] + "Z"


def _period(params: dict[str, Any], column: str = "CreatedDate") -> str:
    return f"{column} >= {_stamp(params['start'])} AND {column} <= {_stamp(params['end'])}"


def _assignments(params: dict[str, Any]) -> GoldQuery:
    return GoldQuery(
        f"'{OWNER_ASSIGNMENT}' case-history rows of the period per agent (managed cases)",
        "SELECT NewValue__c, COUNT(Id) FROM CaseHistory__c "
        f"WHERE Field__c = '{OWNER_ASSIGNMENT}' AND {_period(params)} "
        "GROUP BY NewValue__c ORDER BY COUNT(Id) DESC",
    )


def _handle_time(params: dict[str, Any]) -> list[GoldQuery]:
    return [
        _assignments(params),
        GoldQuery(
            "Closed cases opened in the period, by owner (handle time: ClosedDate - CreatedDate)",
            "SELECT OwnerId, Id, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' "
            f"AND {_period(params)} ORDER BY OwnerId, CreatedDate",
        ),
    ]


def _transfer_count(params: dict[str, Any]) -> list[GoldQuery]:
    return [
        _assignments(params),
        GoldQuery(
            "Owner assignments of the period by case (more than one: the case was transferred)",
            "SELECT CaseId__c, OldValue__c, NewValue__c, CreatedDate FROM CaseHistory__c "
            f"WHERE Field__c = '{OWNER_ASSIGNMENT}' AND {_period(params)} "
            "ORDER BY CaseId__c, CreatedDate",
        ),
    ]


def _case_routing(params: dict[str, Any]) -> list[GoldQuery]:
    issue, product = _literal(params["issue_id"]), _literal(params["product_id"])
    return [
        GoldQuery(
            "1. Expertise: closed cases of the issue per agent (a unique top decides)",
            f"SELECT OwnerId, COUNT(Id) FROM Case WHERE IssueId__c = {issue} "
            "AND Status = 'Closed' GROUP BY OwnerId ORDER BY COUNT(Id) DESC",
        ),
        GoldQuery(
            "2. Among those tied: closed cases of the product per agent",
            "SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Closed' "
            f"AND OrderItemId__r.Product2Id = {product} GROUP BY OwnerId ORDER BY COUNT(Id) DESC",
        ),
        GoldQuery(
            "3. Still tied: open cases per agent (the fewest decides)",
            "SELECT OwnerId, COUNT(Id) FROM Case WHERE Status = 'Open' "
            "GROUP BY OwnerId ORDER BY COUNT(Id)",
        ),
    ]


def _product_counts(params: dict[str, Any], what: str, group: str) -> list[GoldQuery]:
    """The product's cases of the period counted per `group`, the largest first."""
    return [
        GoldQuery(
            what,
            f"SELECT {group}, COUNT(Id) FROM Case "
            f"WHERE OrderItemId__r.Product2Id = {_literal(params['product_id'])} "
            f"AND {_period(params)} GROUP BY {group} ORDER BY COUNT(Id) DESC",
        )
    ]


def _top_issue(params: dict[str, Any]) -> list[GoldQuery]:
    what = "The product's cases of the period per issue (the most decides)"
    return _product_counts(params, what, "IssueId__c")


def _monthly_trend(params: dict[str, Any]) -> list[GoldQuery]:
    what = "The product's cases of the period per month (more than any other month decides)"
    return _product_counts(params, what, "CALENDAR_MONTH(CreatedDate)")


def _best_region(params: dict[str, Any]) -> list[GoldQuery]:
    return [
        GoldQuery(
            "Closed cases opened in the period, by the account's shipping state "
            "(the fastest average close decides)",
            "SELECT Account.ShippingState, Id, CreatedDate, ClosedDate FROM Case "
            f"WHERE Status = 'Closed' AND {_period(params)} "
            "ORDER BY Account.ShippingState, CreatedDate",
        )
    ]


def _named_entity(params: dict[str, Any]) -> list[GoldQuery]:
    contact = _literal(params["contact_id"])
    return [
        GoldQuery(
            "The products on the customer's account's orders, newest first (the gold: the one "
            "bought on the day asked whose name matches the nickname)",
            "SELECT Order.EffectiveDate, Order.Status, Product2Id, Product2.Name FROM OrderItem "
            f"WHERE Order.AccountId IN (SELECT AccountId FROM Contact WHERE Id = {contact}) "
            "ORDER BY Order.EffectiveDate DESC",
        )
    ]


def _policy_violation(params: dict[str, Any]) -> list[GoldQuery]:
    return [
        GoldQuery(
            "The case's history (the violation itself is the org's hidden truth)",
            "SELECT Field__c, OldValue__c, NewValue__c, CreatedDate FROM CaseHistory__c "
            f"WHERE CaseId__c = {_literal(params['case_id'])} ORDER BY CreatedDate",
        )
    ]


def _knowledge(params: dict[str, Any]) -> list[GoldQuery]:
    return [
        GoldQuery(
            "The article the question is about",
            "SELECT Id, Title, FAQ_Answer__c FROM Knowledge__kav "
            f"WHERE Id = {_literal(params['article_id'])}",
        )
    ]


BUILDERS = {
    "handle_time": _handle_time,
    "transfer_count": _transfer_count,
    "case_routing": _case_routing,
    "top_issue_identification": _top_issue,
    "monthly_trend_analysis": _monthly_trend,
    "best_region_identification": _best_region,
    "named_entity_disambiguation": _named_entity,
    "policy_violation_identification": _policy_violation,
    "knowledge_qa": _knowledge,
}


def gold_queries(task: str, params: dict[str, Any] | None) -> list[GoldQuery]:
    """The queries for an instance of `task` with the generator's `params`; none for a
    family without them, or parameters that are missing or malformed."""
    builder = BUILDERS.get(task)
    if builder is None or not params:
        return []
    try:
        return builder(params)
    except (KeyError, ValueError):
        return []
