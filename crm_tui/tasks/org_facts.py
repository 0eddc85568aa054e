"""What the task generator's draft functions sample from, read once per generation.

Only what nearly every draft needs is held in memory (the cases, product names, policy
violations, QA pairs, Owner Assignment times). NED's purchases are held as OrderItem
rowids, in OrderItem Id order, and a drawn one is read by its rowid: a draft needs one
purchase of tens of thousands, and turning every order line into Python objects cost
more than the drafts that use them.
"""

from __future__ import annotations

import json
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from datetime import date
from functools import cache

import orjson

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema import latent
from crm_tui.org.schema.sftime import parse_date
from crm_tui.org.store.bulk_read import all_rows
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.gold_rows import OWNER_ASSIGNMENT
from crm_tui.tasks.periods import Period

# The order lines NED never draws (a purchase is a line of an activated order of an
# account with a contact): the lines of the other orders, through the OrderId index; a
# few hundred rows where the drawn ones are tens of thousands.
_NOT_BOUGHT_LINES_SQL = (
    'SELECT oi.rowid FROM "Order" o JOIN OrderItem oi ON oi.OrderId = o.Id '
    "WHERE o.Status IS NOT 'Activated' OR o.AccountId IS NULL "
    "OR o.AccountId NOT IN (SELECT AccountId FROM Contact WHERE AccountId IS NOT NULL)"
)
# Lines of no order at all: looked for only when the lines of orders are fewer than all.
_LINES_OF_ORDERS_SQL = 'SELECT count(*) FROM "Order" o JOIN OrderItem oi ON oi.OrderId = o.Id'
_ORPHAN_LINES_SQL = (
    "SELECT rowid FROM OrderItem oi "
    'WHERE NOT EXISTS (SELECT 1 FROM "Order" o WHERE o.Id = oi.OrderId)'
)
_UNNAMED_LINES_SQL = (
    "SELECT rowid FROM OrderItem "
    "WHERE Product2Id IS NULL OR Product2Id IN (SELECT value FROM json_each(?))"
)
# Every line's rowid in Id order, as one text: SQLite makes it in one step, where a row
# per line would hand the GIL back and forth with the thread reading beside it.
_LINES_IN_ID_ORDER_SQL = "SELECT group_concat(rowid) FROM (SELECT rowid FROM OrderItem ORDER BY Id)"
_PURCHASE_SQL = (
    "SELECT (SELECT min(Id) FROM Contact WHERE AccountId = o.AccountId), o.AccountId, "
    'o.EffectiveDate, oi.Product2Id FROM OrderItem oi JOIN "Order" o ON oi.OrderId = o.Id '
    "WHERE oi.rowid = ?"
)
MANAGED_CAP = 4  # OrgFacts.most_managed counts no further
# The NED gold's own condition on the day (EffectiveDate = the day as a stored Date).
_ORDERED_ON_SQL = (
    'SELECT 1 FROM "Order" o WHERE o.AccountId = ? AND o.EffectiveDate = ? '
    "AND o.Status = 'Activated' AND EXISTS (SELECT 1 FROM OrderItem oi WHERE oi.OrderId = o.Id)"
)


@dataclass
class CaseFact:
    id: str
    created: date
    status: str
    issue: str | None
    product: str | None
    description: str


class Purchases:
    """(contact, account, day, product) of activated order lines, a sequence for
    `random.choice`: the contact is the account's first by Id, the product has nicknames."""

    def __init__(self, store: OrgStore, nicknamed: set[str]):
        self._conn = store.conn
        rows = store.conn.cursor()
        rows.row_factory = None  # tuples
        left_out = {r[0] for r in rows.execute(_NOT_BOUGHT_LINES_SQL)}
        (of_orders,) = rows.execute(_LINES_OF_ORDERS_SQL).fetchone()
        if of_orders != store.count("OrderItem"):
            left_out.update(r[0] for r in rows.execute(_ORPHAN_LINES_SQL))
        bought = {r[0] for r in all_rows(store.conn, "SELECT DISTINCT Product2Id FROM OrderItem")}
        unnamed = [
            product for product in bought if product is not None and product not in nicknamed
        ]
        if unnamed or None in bought:
            left_out.update(r[0] for r in rows.execute(_UNNAMED_LINES_SQL, (json.dumps(unnamed),)))
        (text,) = rows.execute(_LINES_IN_ID_ORDER_SQL).fetchone()
        lines = list(map(int, text.split(","))) if text else []
        self._rowids = [r for r in lines if r not in left_out] if left_out else lines

    def __len__(self) -> int:
        return len(self._rowids)

    def __getitem__(self, index: int) -> tuple[str, str, date, str]:
        contact, account, day, product = self._conn.execute(
            _PURCHASE_SQL, (self._rowids[index],)
        ).fetchone()
        return contact, account, parse_date(day), product

    def ordered_on(self, account: str, day: date) -> bool:
        """Whether the account has an activated order with a line on `day`."""
        found = self._conn.execute(_ORDERED_ON_SQL, (account, day.isoformat())).fetchone()
        return found is not None


@dataclass
class OrgFacts:
    """What the draft functions sample from, read once per generation."""

    cases: list[CaseFact]
    product_names: dict[str, str]
    nicknames: dict[str, list[str]]
    purchases: Purchases
    violations: dict[str, str | None]  # case -> violated article or None
    qa_pairs: list[tuple[str, str]]  # (article, question)
    assigned_at: list[str]  # CreatedDate of the Owner Assignments, sorted
    assigned_to: list[str]  # their new owners, in that order
    first_day: date = field(init=False)
    last_day: date = field(init=False)
    _most_managed: dict[tuple[str, str], int] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        if not self.cases:
            raise CrmTuiError("The org has no cases: no task can be generated from it")
        self.first_day = min(c.created for c in self.cases)
        self.last_day = max(c.created for c in self.cases)

    def most_managed(self, period: Period) -> int:
        """The most cases any agent managed in the period (gold.managed_counts, in memory),
        counted up to MANAGED_CAP: the drafts ask only whether it is above 3 and, if not,
        what it is, and a count that stops at 4 stops early in a busy period. Kept per
        period, which drafts often draw again."""
        key = (period.sf_start, period.sf_end)
        most = self._most_managed.get(key)
        if most is None:
            low = bisect_left(self.assigned_at, period.sf_start)
            high = bisect_right(self.assigned_at, period.sf_end)
            counts: dict[str, int] = {}
            most = 0
            for owner in self.assigned_to[low:high]:
                count = counts[owner] = counts.get(owner, 0) + 1
                if count > most:
                    most = count
                    if most == MANAGED_CAP:
                        break
            self._most_managed[key] = most
        return most

    @classmethod
    def read(cls, store: OrgStore) -> OrgFacts:
        conn = store.conn
        # A few thousand days for 100,000s of rows, read by their date part (a DateTime
        # is the day's ISO date and more, as the damage check beside this holds them to).
        parse_day = cache(parse_date)
        cases = [
            CaseFact(r[0], parse_day(r[1][:10]), r[2], r[3], r[4], r[5] or "")
            for r in all_rows(
                conn,
                "SELECT c.Id, c.CreatedDate, c.Status, c.IssueId__c, oi.Product2Id, "
                'c.Description FROM "Case" c '
                "LEFT JOIN OrderItem oi ON c.OrderItemId__c = oi.Id "
                "WHERE c.CreatedDate IS NOT NULL ORDER BY c.Id",
            )
        ]
        # Thousands of small lists, parsed as one JSON object SQLite writes.
        (every_list,) = conn.execute(
            "SELECT json_group_object(record_id, json(value)) FROM (SELECT record_id, value "
            "FROM _latent WHERE object = ? AND variable = ? ORDER BY record_id)",
            latent.PRODUCT_NICKNAMES,
        ).fetchone()
        nicknames = {pid: names for pid, names in orjson.loads(every_list).items() if names}
        # Each value is {"article": Id or null, ...}: SQLite takes the article out, so
        # thousands of values are not parsed in Python.
        violations = dict(
            all_rows(
                conn,
                "SELECT record_id, json_extract(value, '$.article') FROM _latent "
                "WHERE object = ? AND variable = ? ORDER BY record_id",
                latent.CASE_POLICY_VIOLATION,
            )
        )
        qa_pairs = [
            (article, pair["question"])
            for article, text in sorted(store.latent(*latent.ARTICLE_QA).items())
            for pair in latent.loads(text) or []
        ]
        names = dict(all_rows(conn, "SELECT Id, Name FROM Product2"))
        assignments = all_rows(
            conn,
            "SELECT CreatedDate, NewValue__c FROM CaseHistory__c WHERE Field__c = ? "
            "AND NewValue__c IS NOT NULL ORDER BY CreatedDate, NewValue__c",
            (OWNER_ASSIGNMENT,),
        )
        return cls(
            cases,
            names,
            nicknames,
            Purchases(store, set(nicknames)),
            violations,
            qa_pairs,
            [at for at, _ in assignments],
            [owner for _, owner in assignments],
        )
