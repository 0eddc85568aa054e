"""What the HTU, TCU, BRI and NCR golds read, held in memory for the task generator,
which asks them thousands of times: rows sorted by CreatedDate, and NCR's counts.

Each table holds exactly the rows the gold's own SQL statement selects before its period
filter, read by that statement's conditions; `between` then keeps start <= CreatedDate
<= end, as `CreatedDate >= ? AND CreatedDate <= ?` does (stored DateTimes are ASCII, so
Python's string order is SQLite's BINARY order). NCR's counts are what its statements'
GROUP BY counts give for every issue, product and owner, counted in one pass over the
cases by the same conditions. A gold given these tables
sees the same rows and counts as one reading the store, in an order no gold depends on.
"""

from __future__ import annotations

import sqlite3
from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Generic, TypeVar

from crm_tui.org.store.bulk_read import all_rows
from crm_tui.org.store.orgstore import OrgStore

OWNER_ASSIGNMENT = "Owner Assignment"
# Whole seconds between two stored DateTimes ("...T15:15:00.000+0000", always UTC).
SECONDS_SQL = (
    "CAST(round((julianday(substr({closed}, 1, 19)) - "
    "julianday(substr({created}, 1, 19))) * 86400) AS INTEGER)"
)

# The statements the HTU/TCU/BRI golds read, shared by both ways of reading them: the
# gold's own (`{period}` = the period's bounds, `in_period`) and `GoldRows.read` (every row
# with a CreatedDate, `any_time`), so both select by the same conditions.
ASSIGNMENTS_SQL = (
    "SELECT CaseId__c, NewValue__c, OldValue__c, CreatedDate FROM CaseHistory__c "
    "WHERE Field__c = ? AND {period}"
)
CLOSED_CASES_SQL = (
    "SELECT Id, OwnerId, CreatedDate, "
    + SECONDS_SQL.format(created="CreatedDate", closed="ClosedDate")
    + " FROM \"Case\" WHERE Status = 'Closed' AND ClosedDate IS NOT NULL AND {period}"
)
CLOSED_BY_STATE_SQL = (
    "SELECT a.ShippingState, c.CreatedDate, "
    + SECONDS_SQL.format(created="c.CreatedDate", closed="c.ClosedDate")
    + " FROM \"Case\" c JOIN Account a ON c.AccountId = a.Id WHERE c.Status = 'Closed' "
    "AND c.ClosedDate IS NOT NULL AND coalesce(a.ShippingState, '') != '' AND {period}"
)


def in_period(column: str) -> str:
    """The gold's period condition on `column` (two parameters: start, end)."""
    return f"{column} >= ? AND {column} <= ?"


def any_time(column: str) -> str:
    return f"{column} IS NOT NULL"


_Row = TypeVar("_Row", bound=tuple[object, ...])


@dataclass(frozen=True)
class SortedRows(Generic[_Row]):
    """Rows with their CreatedDate, both sorted by it."""

    created: list[str]
    rows: list[_Row]

    def between(self, start: str, end: str) -> list[_Row]:
        """The rows with start <= CreatedDate <= end."""
        return self.rows[bisect_left(self.created, start) : bisect_right(self.created, end)]

    def on_bounds(self, start: str, end: str) -> bool:
        """Whether a row's CreatedDate is start or end (found by bisection, not a scan)."""
        low, high = bisect_left(self.created, start), bisect_right(self.created, end)
        return low < high and (self.created[low] == start or self.created[high - 1] == end)


def _sorted(rows: list[_Row], created_at: int) -> SortedRows[_Row]:
    rows.sort(key=itemgetter(created_at))
    return SortedRows(list(map(itemgetter(created_at), rows)), rows)


@dataclass(frozen=True)
class GoldRows:
    """Owner Assignments as (case, new owner, old owner, time); closed cases as (Id,
    OwnerId, CreatedDate, seconds to close); closed cases of accounts with a state as
    (state, CreatedDate, seconds to close)."""

    assignments: SortedRows[tuple[str, str, str | None, str]]
    closed_cases: SortedRows[tuple[str, str, str, int]]
    closed_by_state: SortedRows[tuple[str, str, int]]
    # NCR: closed cases per issue and owner, per product and owner; cases per owner that
    # are not closed, and that are open.
    closed_by_issue: dict[str, dict[str, int]]
    closed_by_product: dict[str, dict[str, int]]
    not_closed: dict[str, int]
    open: dict[str, int]
    # NED: the products a search text finds (gold.search_products), kept as asked.
    searches: dict[str, set[str]] = field(default_factory=dict)
    # NCR: the agents tied on the most closed cases of an issue (its first rule), as asked.
    issue_leaders: dict[str, list[str]] = field(default_factory=dict)
    # BRI: per state, the indexes of its rows in closed_by_state and the running sum of
    # their seconds to close (from 0), made at the first `closure_totals`.
    _state_sums: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)

    def closure_totals(self, start: str, end: str) -> dict[str, tuple[int, int]]:
        """Per state, (sum of seconds to close, cases) of closed_by_state's rows with
        start <= CreatedDate < end: two bisections per state instead of a pass over the
        rows, which BRI's drafts make for periods of thousands of cases."""
        if not self._state_sums:
            for index, (state, _, seconds) in enumerate(self.closed_by_state.rows):
                indexes, sums = self._state_sums.setdefault(state, ([], [0]))
                indexes.append(index)
                sums.append(sums[-1] + seconds)
        created = self.closed_by_state.created
        low, high = bisect_left(created, start), bisect_left(created, end)
        totals = {}
        for state, (indexes, sums) in self._state_sums.items():
            first, last = bisect_left(indexes, low), bisect_left(indexes, high)
            if last > first:
                totals[state] = (sums[last] - sums[first], last - first)
        return totals

    @classmethod
    def read(cls, store: OrgStore) -> GoldRows:
        conn = store.conn
        assignments = all_rows(
            conn, ASSIGNMENTS_SQL.format(period=any_time("CreatedDate")), (OWNER_ASSIGNMENT,)
        )
        closed = all_rows(conn, CLOSED_CASES_SQL.format(period=any_time("CreatedDate")))
        by_state = all_rows(conn, CLOSED_BY_STATE_SQL.format(period=any_time("c.CreatedDate")))
        by_issue, by_product, not_closed, open_ = _routing_counts(conn)
        return cls(
            _sorted(assignments, 3),
            _sorted(closed, 2),
            _sorted(by_state, 1),
            by_issue,
            by_product,
            not_closed,
            open_,
        )


def _routing_counts(
    conn: sqlite3.Connection,
) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]], dict[str, int], dict[str, int]]:
    """NCR's counts, by the conditions of the gold's statements (cases with an owner:
    Closed ones per issue, per product of their order item; `Status != 'Closed'`, which
    a NULL status fails, and `Status = 'Open'`), in one pass over the cases."""
    by_issue: defaultdict[str, dict[str, int]] = defaultdict(dict)
    by_product: defaultdict[str, dict[str, int]] = defaultdict(dict)
    not_closed: dict[str, int] = {}
    open_: dict[str, int] = {}
    for issue, product, owner, status in all_rows(
        conn,
        'SELECT c.IssueId__c, oi.Product2Id, c.OwnerId, c.Status FROM "Case" c '
        "LEFT JOIN OrderItem oi ON c.OrderItemId__c = oi.Id WHERE c.OwnerId IS NOT NULL",
    ):
        if status == "Closed":
            if issue is not None:
                counts = by_issue[issue]
                counts[owner] = counts.get(owner, 0) + 1
            if product is not None:
                counts = by_product[product]
                counts[owner] = counts.get(owner, 0) + 1
        elif status is not None:
            not_closed[owner] = not_closed.get(owner, 0) + 1
            if status == "Open":
                open_[owner] = open_.get(owner, 0) + 1
    return dict(by_issue), dict(by_product), not_closed, open_
