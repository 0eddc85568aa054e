"""CRMArena's case-routing ground truth, written again from the description of its helper
as a reference for the routing golds: plain sqlite3 over an org file, no crm_tui code.

CRMArena's `get_best_assigned_agent` fetches records as a solver's tools do and counts
what it fetched, so an agent appears in a count only with at least one fetched case:

1. the Closed cases of the issue (all time), counted by OwnerId; the most wins;
2. a tie: the Closed cases of the tied agents whose order item is of the product, counted
   by OwnerId; no such case at all -> None; the most wins;
3. a tie: the tied agents' cases with Status 'Open', counted by OwnerId; no such case at
   all -> None; the fewest wins, among the owners that appear (an agent without an open
   case is not counted, so it can never be chosen);
4. still a tie -> None.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def org_connection(path: Path) -> Iterator[sqlite3.Connection]:
    """The org file, read-only."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        yield conn


def _owners(conn: sqlite3.Connection, sql: str, params: Iterable[Any]) -> Counter[str]:
    return Counter(row[0] for row in conn.execute(sql, tuple(params)))


def _extremes(counts: Counter[str], pick: Any) -> list[str]:
    best = pick(counts.values())
    return sorted(agent for agent, n in counts.items() if n == best)


def best_assigned_agent(conn: sqlite3.Connection, issue_id: str, product_id: str) -> str | None:
    """What CRMArena's helper answers for a new case of the issue about the product."""
    counts = _owners(
        conn,
        "SELECT OwnerId FROM \"Case\" WHERE IssueId__c = ? AND Status = 'Closed'",
        [issue_id],
    )
    if not counts:
        return None
    agents = _extremes(counts, max)
    if len(agents) == 1:
        return agents[0]
    items = [
        r[0] for r in conn.execute("SELECT Id FROM OrderItem WHERE Product2Id = ?", [product_id])
    ]
    counts = _owners(
        conn,
        f'SELECT OwnerId FROM "Case" WHERE OrderItemId__c IN ({", ".join("?" * len(items))}) '
        f"AND OwnerId IN ({', '.join('?' * len(agents))}) AND Status = 'Closed'",
        [*items, *agents],
    )
    if not counts:
        return None
    agents = _extremes(counts, max)
    if len(agents) == 1:
        return agents[0]
    counts = _owners(
        conn,
        f'SELECT OwnerId FROM "Case" WHERE OwnerId IN ({", ".join("?" * len(agents))}) '
        "AND Status = 'Open'",
        agents,
    )
    if not counts:
        return None
    agents = _extremes(counts, min)
    return agents[0] if len(agents) == 1 else None
