"""The syntax tree of a parsed SOQL or SOSL statement (names as written, not yet resolved)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FieldPath:
    """`Name` or `Account.Owner.Name`: relationship names, then a field."""

    parts: tuple[str, ...]
    pos: int

    @property
    def text(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True)
class Aggregate:
    """COUNT(), COUNT(f), COUNT_DISTINCT(f), SUM, AVG, MIN or MAX."""

    function: str  # upper case
    argument: FieldPath | None  # None only for COUNT()
    pos: int

    @property
    def text(self) -> str:
        return f"{self.function}({self.argument.text if self.argument else ''})"


@dataclass(frozen=True)
class DateFunction:
    """CALENDAR_YEAR(CreatedDate), DAY_ONLY(ClosedDate), ...: a date period of a field,
    for GROUP BY (and SELECT, WHERE, ORDER BY alongside it)."""

    function: str  # upper case
    argument: FieldPath
    pos: int

    @property
    def text(self) -> str:
        return f"{self.function}({self.argument.text})"


# What a literal holds: decoded string (also dates, datetimes and date literal names),
# number, boolean, or None for NULL.
LiteralValue = str | int | float | bool | None


@dataclass(frozen=True)
class Literal:
    """A value in a condition. `kind`: string, number, boolean, null, date, datetime,
    or date_literal (TODAY, LAST_N_DAYS:n, ... with `n`)."""

    kind: str
    value: LiteralValue
    pos: int
    like_pattern: str | None = None
    n: int | None = None


@dataclass(frozen=True)
class Comparison:
    left: FieldPath | Aggregate | DateFunction
    operator: str  # = != < <= > >= LIKE IN NOT IN INCLUDES EXCLUDES
    value: Literal | tuple[Literal, ...] | Query
    pos: int


@dataclass(frozen=True)
class Logical:
    operator: str  # AND / OR
    operands: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    operand: Condition


Condition = Comparison | Logical | Not


@dataclass(frozen=True)
class SelectItem:
    expr: FieldPath | Aggregate | DateFunction | Query
    alias: str | None = None


@dataclass(frozen=True)
class OrderItem:
    expr: FieldPath | Aggregate | DateFunction
    descending: bool = False
    nulls_last: bool | None = None  # None: Salesforce's default for the direction


@dataclass(frozen=True)
class Query:
    select: tuple[SelectItem, ...]
    object_name: str
    object_pos: int
    object_alias: str | None = None
    where: Condition | None = None
    group_by: tuple[FieldPath | DateFunction, ...] = ()
    having: Condition | None = None
    order_by: tuple[OrderItem, ...] = ()
    limit: int | None = None
    offset: int | None = None
    pos: int = 0

    @property
    def count_only(self) -> bool:
        """`SELECT COUNT() FROM ...`: the answer is only a total size."""
        return (
            len(self.select) == 1
            and isinstance(self.select[0].expr, Aggregate)
            and self.select[0].expr.argument is None
        )


@dataclass(frozen=True)
class Returning:
    """One `Obj(fields WHERE ... ORDER BY ... LIMIT n)` of a SOSL RETURNING clause."""

    query: Query  # select/where/order/limit over the object; Id alone when no fields


@dataclass(frozen=True)
class Search:
    term: str
    scope: str  # ALL, NAME, EMAIL, PHONE
    returning: tuple[Returning, ...] = field(default=())
    limit: int | None = None
