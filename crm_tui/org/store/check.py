"""`check_org`: the integrity checks of an org (CRMArena's format and de-duplication checks).

Every check is SQL over the store, so it stays fast on large orgs. A problem is one line
naming the object, the field, how many rows are affected and an example record Id.
Checks: Id format and key prefix, lookups resolve, required fields, unique fields,
picklist values, case dates and status, case consistency (contact and order line belong
to the case's account), and the CaseHistory__c pattern.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from crm_tui.org.generate.common import CHUNK_BITS, SUFFIX_CHARS, chunk_char, is_valid_local_id
from crm_tui.org.schema.catalogue import FieldType, active_objects, get_object
from crm_tui.org.schema.ids import is_valid_id
from crm_tui.org.store.orgstore import OrgStore, q

# Fields the tasks rely on, required here beyond the catalogue's own `required` flags.
EXPECTED: dict[str, tuple[str, ...]] = {
    "User": ("Name", "Email", "Username", "Alias"),
    "Account": ("Name", "ShippingState"),
    "Contact": ("Name", "AccountId"),
    "Case": (
        "CaseNumber",
        "Subject",
        "Status",
        "ContactId",
        "AccountId",
        "OwnerId",
        "CreatedDate",
        "OrderItemId__c",
        "IssueId__c",
    ),
    "Knowledge__kav": ("Title", "FAQ_Answer__c", "UrlName"),
    "ProductCategory": ("Name",),
    "Product2": ("Name",),
    "Pricebook2": ("Name",),
    "PricebookEntry": ("UnitPrice",),
    "Order": ("OrderNumber", "Status", "EffectiveDate", "Pricebook2Id"),
    "OrderItem": ("Quantity", "UnitPrice", "PricebookEntryId"),
    "EmailMessage": ("ParentId", "FromAddress", "MessageDate"),
    "LiveChatTranscript": ("CaseId", "OwnerId", "Body", "EndTime"),
    "Issue__c": ("Name",),
    "CaseHistory__c": ("Name", "CreatedDate"),
}
# Unique beyond the catalogue's `unique` flags: e-mail addresses (case-insensitive).
UNIQUE_EMAILS: tuple[tuple[str, str], ...] = (
    ("User", "Email"),
    ("Account", "PersonEmail"),
    ("Contact", "Email"),
)
# Text fields that hold User Ids without being declared lookups.
USER_ID_TEXT: tuple[tuple[str, str], ...] = (
    ("CaseHistory__c", "OldValue__c"),
    ("CaseHistory__c", "NewValue__c"),
)


@dataclass
class CheckReport:
    problems: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        rows = sum(self.checked.values())
        if self.ok:
            return [f"ok: {len(self.checked)} checks passed ({rows:,} rows checked)"]
        return [
            f"FAILED: {len(self.problems)} problem(s) in {len(self.checked)} checks",
            *(f"  {p}" for p in self.problems),
        ]


# The first two suffix characters of an Id belong to its first 10 characters (key prefix,
# instance, top of the counter), which a table's Ids share in long runs: known once.
_HEAD_SUFFIXES: dict[str, str] = {}
_B0, _B1, _B2, _B3, _B4 = CHUNK_BITS


def _valid_id(value: object) -> int:
    # Called once per record of the org: the table-driven test is exact for 18-character
    # Ids (ASCII letters and digits); anything else takes the slow path.
    if type(value) is str and len(value) == 18 and value.isascii() and value.isalnum():
        head = value[:10]
        known = _HEAD_SUFFIXES.get(head)
        if known is None:
            if len(_HEAD_SUFFIXES) > 4096:  # Ids that are not counters must not grow it
                _HEAD_SUFFIXES.clear()
            known = _HEAD_SUFFIXES[head] = chunk_char(value[0:5]) + chunk_char(value[5:10])
        last = _B0[value[10]] | _B1[value[11]] | _B2[value[12]] | _B3[value[13]] | _B4[value[14]]
        return 1 if known == value[15:17] and SUFFIX_CHARS[last] == value[17] else 0
    if isinstance(value, str) and len(value) == 18:
        return 1 if is_valid_local_id(value) and value.isalnum() and value.isascii() else 0
    return 1 if isinstance(value, str) and is_valid_id(value) else 0


def _rows(n: int) -> str:
    return f"{n} row{'s' if n != 1 else ''}"


class _Checker:
    def __init__(self, store: OrgStore):
        self.conn: sqlite3.Connection = store.conn
        self.conn.create_function("sf_valid_id", 1, _valid_id, deterministic=True)
        self.report = CheckReport()
        self.sizes = {
            o.name: self.one(f"SELECT count(*) FROM {q(o.name)}") for o in active_objects()
        }

    def one(self, sql: str, params: tuple[object, ...] = ()) -> int:
        """The single number that `sql` (a count) selects."""
        n: int = self.conn.execute(sql, params).fetchone()[0]
        return n

    def count_and_example(
        self, sql: str, params: tuple[object, ...] = ()
    ) -> tuple[int, str | None]:
        """`sql` selects offending record Ids; returns how many and the smallest."""
        row = self.conn.execute(f"SELECT count(*), min(bad) FROM ({sql})", params).fetchone()
        return row[0], row[1]

    def flag(
        self, check: str, rows: int, sql: str, message: str, params: tuple[object, ...] = ()
    ) -> None:
        """Record `rows` checked; if `sql` (selecting `bad` Ids) finds any, add a problem."""
        self.report.checked[check] = self.report.checked.get(check, 0) + rows
        n, example = self.count_and_example(sql, params)
        if n:
            self.report.problems.append(f"{message}: {_rows(n)} (e.g. {example})")

    # ---------------------------------------------------------------- generic checks
    def ids(self) -> None:
        for o in active_objects():
            t = q(o.name)
            self.flag(
                f"ids:{o.name}",
                self.sizes[o.name],
                f"SELECT Id AS bad FROM {t} WHERE Id IS NULL OR length(Id) != 18 OR "
                f"substr(Id, 1, 3) != ? OR NOT sf_valid_id(Id)",
                f"{o.name}.Id: malformed or without the key prefix {o.key_prefix}",
                (o.key_prefix,),
            )

    def lookups(self) -> None:
        for o in active_objects():
            for f in o.lookups:
                parent = get_object(f.target)
                self.flag(
                    f"lookups:{o.name}.{f.name}",
                    self.sizes[o.name],
                    f"SELECT c.Id AS bad FROM {q(o.name)} c LEFT JOIN {q(parent.name)} p "
                    f"ON p.Id = c.{q(f.name)} WHERE c.{q(f.name)} IS NOT NULL "
                    f"AND p.Id IS NULL",
                    f"{o.name}.{f.name}: points to no {parent.name}",
                )
        for obj, name in USER_ID_TEXT:
            self.flag(
                f"lookups:{obj}.{name}",
                self.sizes[obj],
                f"SELECT c.Id AS bad FROM {q(obj)} c LEFT JOIN {q('User')} p "
                f"ON p.Id = c.{q(name)} WHERE c.{q(name)} IS NOT NULL AND p.Id IS NULL",
                f"{obj}.{name}: holds no User Id",
            )

    def required(self) -> None:
        for o in active_objects():
            names = [f.name for f in o.fields if f.required and f.name != "Id"]
            names += [n for n in EXPECTED.get(o.name, ()) if n not in names]
            for name in names:
                self.flag(
                    f"required:{o.name}",
                    self.sizes[o.name],
                    f"SELECT Id AS bad FROM {q(o.name)} WHERE {q(name)} IS NULL "
                    f"OR trim({q(name)}) = ''",
                    f"{o.name}.{name}: required but empty",
                )

    def unique(self) -> None:
        pairs = [
            (o.name, f.name, False)
            for o in active_objects()
            for f in o.fields
            if f.unique and f.name != "Id"
        ]
        pairs += [(o, n, True) for o, n in UNIQUE_EMAILS]
        for obj, name, fold in pairs:
            col = f"lower({q(name)})" if fold else q(name)
            self.flag(
                f"unique:{obj}.{name}",
                self.sizes[obj],
                f"SELECT Id AS bad FROM {q(obj)} WHERE {col} IN (SELECT {col} FROM "
                f"{q(obj)} WHERE {q(name)} IS NOT NULL GROUP BY {col} "
                f"HAVING count(*) > 1)",
                f"{obj}.{name}: duplicate values",
            )

    def picklists(self) -> None:
        for o in active_objects():
            for f in o.fields:
                if f.type is FieldType.PICKLIST and f.picklist:
                    marks = ", ".join("?" * len(f.picklist))
                    self.flag(
                        f"picklists:{o.name}",
                        self.sizes[o.name],
                        f"SELECT Id AS bad FROM {q(o.name)} WHERE {q(f.name)} IS NOT NULL "
                        f"AND {q(f.name)} NOT IN ({marks})",
                        f"{o.name}.{f.name}: value outside its picklist",
                        f.picklist,
                    )

    # ---------------------------------------------------------------- cases
    def case_dates(self) -> None:
        n = self.sizes["Case"]
        self.flag(
            "case-dates",
            n,
            'SELECT Id AS bad FROM "Case" WHERE ClosedDate < CreatedDate',
            "Case.ClosedDate: before CreatedDate",
        )
        self.flag(
            "case-dates",
            n,
            "SELECT Id AS bad FROM \"Case\" WHERE Status = 'Closed' AND ClosedDate IS NULL",
            "Case.ClosedDate: empty on a Closed case",
        )
        self.flag(
            "case-dates",
            n,
            "SELECT Id AS bad FROM \"Case\" WHERE Status != 'Closed' AND ClosedDate IS NOT NULL",
            "Case.ClosedDate: set on a case that is not Closed",
        )

    def case_consistency(self) -> None:
        n = self.sizes["Case"]
        self.flag(
            "case-consistency",
            n,
            'SELECT c.Id AS bad FROM "Case" c JOIN Contact k ON k.Id = c.ContactId '
            "WHERE k.AccountId IS NOT c.AccountId",
            "Case.ContactId: the contact belongs to another account than Case.AccountId",
        )
        self.flag(
            "case-consistency",
            n,
            'SELECT c.Id AS bad FROM "Case" c JOIN OrderItem i ON i.Id = c.OrderItemId__c '
            'JOIN "Order" o ON o.Id = i.OrderId WHERE o.AccountId IS NOT c.AccountId',
            "Case.OrderItemId__c: the order line belongs to another account's order",
        )

    def case_history(self) -> None:
        n = self.sizes["Case"]
        h = self.sizes["CaseHistory__c"]
        self.report.checked["case-history"] = 0

        def per_case(field_name: str, cond: str, message: str) -> None:
            self.flag(
                "case-history",
                n,
                f'SELECT c.Id AS bad FROM "Case" c LEFT JOIN (SELECT CaseId__c, '
                f"count(*) AS n FROM CaseHistory__c WHERE Field__c = '{field_name}' "
                f"GROUP BY CaseId__c) h ON h.CaseId__c = c.Id WHERE {cond}",
                message,
            )

        per_case(
            "Case Creation",
            "coalesce(h.n, 0) != 1",
            "CaseHistory__c: case without exactly one 'Case Creation' row",
        )
        per_case(
            "Owner Assignment",
            "h.n IS NULL",
            "CaseHistory__c: case without an 'Owner Assignment' row",
        )
        self.flag(
            "case-history",
            n,
            'SELECT c.Id AS bad FROM "Case" c JOIN CaseHistory__c h ON h.CaseId__c = c.Id '
            "AND h.Field__c = 'Case Creation' WHERE h.CreatedDate != c.CreatedDate",
            "CaseHistory__c: 'Case Creation' row not at Case.CreatedDate",
        )
        self.flag(
            "case-history",
            n,
            'SELECT c.Id AS bad FROM "Case" c LEFT JOIN CaseHistory__c h '
            "ON h.CaseId__c = c.Id AND h.Field__c = 'Case Closed' "
            "AND h.CreatedDate = c.ClosedDate WHERE c.Status = 'Closed' AND h.Id IS NULL",
            "CaseHistory__c: Closed case without a 'Case Closed' row at ClosedDate",
        )
        self.flag(
            "case-history",
            h,
            'SELECT h.Id AS bad FROM CaseHistory__c h JOIN "Case" c '
            "ON c.Id = h.CaseId__c WHERE h.Field__c = 'Case Closed' "
            "AND c.Status != 'Closed'",
            "CaseHistory__c: 'Case Closed' row on a case that is not Closed",
        )
        ranked = (
            "SELECT Id, CaseId__c, OldValue__c, NewValue__c, CreatedDate, "
            "row_number() OVER (PARTITION BY CaseId__c ORDER BY CreatedDate, Name) AS k, "
            "row_number() OVER (PARTITION BY CaseId__c ORDER BY CreatedDate DESC, "
            "Name DESC) AS back, "
            "lag(NewValue__c) OVER (PARTITION BY CaseId__c ORDER BY CreatedDate, Name) "
            "AS prev FROM CaseHistory__c WHERE Field__c = 'Owner Assignment'"
        )
        self.flag(
            "case-history",
            h,
            f"SELECT Id AS bad FROM ({ranked}) WHERE k = 1 AND OldValue__c IS NOT NULL",
            "CaseHistory__c.OldValue__c: first 'Owner Assignment' of a case is not empty",
        )
        self.flag(
            "case-history",
            h,
            f"SELECT Id AS bad FROM ({ranked}) WHERE k > 1 AND OldValue__c IS NOT prev",
            "CaseHistory__c.OldValue__c: transfer does not start from the previous owner",
        )
        self.flag(
            "case-history",
            n,
            f'SELECT c.Id AS bad FROM "Case" c JOIN ({ranked}) a ON a.CaseId__c = c.Id '
            f"AND a.back = 1 WHERE a.NewValue__c IS NOT c.OwnerId",
            "Case.OwnerId: differs from the last 'Owner Assignment' NewValue__c",
        )
        self.flag(
            "case-history",
            h,
            'SELECT h.Id AS bad FROM CaseHistory__c h JOIN "Case" c '
            "ON c.Id = h.CaseId__c WHERE h.CreatedDate < c.CreatedDate "
            "OR (c.ClosedDate IS NOT NULL AND h.CreatedDate > c.ClosedDate)",
            "CaseHistory__c.CreatedDate: outside the case's life",
        )

    def run(self) -> CheckReport:
        for step in (
            self.ids,
            self.lookups,
            self.required,
            self.unique,
            self.picklists,
            self.case_dates,
            self.case_consistency,
            self.case_history,
        ):
            step()
        return self.report


def check_org(store: OrgStore) -> CheckReport:
    """Run every integrity check on `store`; `report.ok` is True when none fails."""
    with store.schema():
        checker = _Checker(store)
        report = checker.run()
        if store.org_kind == "b2b":
            from crm_tui.org.store.check_b2b import check_sales

            check_sales(checker)
    return report


# Salesforce's own formats, as the store keeps them: 2020-01-04, 2020-01-04T14:38:00.000+0000.
_DATE_GLOB = "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]"
_DATETIME_GLOB = _DATE_GLOB + "T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]*"


def find_damage(store: OrgStore) -> str | None:
    """What a damaged org file has wrong, in a few words naming where, or None: a page
    SQLite's quick_check finds corrupt, or a date field holding what is not a date (a
    missing table is refused when the file opens). For commands that read the whole org
    (`tasks generate`), before they start: one pass over the file and one indexed-free
    scan per date field (a fraction of a second at CRMArena's size)."""
    conn = store.conn
    try:
        problem = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            problem = str(problem).replace("*** in database main ***", "")
            return f"SQLite integrity check: {' '.join(problem.split())[:200]}"
        for obj in store.objects:
            for one in obj.fields:
                if one.type not in (FieldType.DATE, FieldType.DATETIME):
                    continue
                column = q(one.name)
                pattern = _DATE_GLOB if one.type is FieldType.DATE else _DATETIME_GLOB
                bad = conn.execute(
                    f"SELECT Id, {column} FROM {q(obj.name)} WHERE {column} IS NOT NULL AND "
                    f"NOT ({column} GLOB ? AND date(substr({column}, 1, 10)) = "
                    f"substr({column}, 1, 10)) LIMIT 1",
                    (pattern,),
                ).fetchone()
                if bad is not None:
                    kind = "date" if one.type is FieldType.DATE else "date and time"
                    return f"{obj.name}.{one.name} of {bad[0]} holds {str(bad[1])[:40]!r}, not a {kind}"
    except sqlite3.DatabaseError as exc:  # a page too damaged to read at all
        return f"SQLite: {exc}"
    return None
