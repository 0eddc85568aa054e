"""Compile a SOQL tree to one parameterised SQLite statement over the store's tables.

Identifiers come only from the catalogue (quoted with `store.q`); every value is a
named parameter. Parent paths become LEFT JOINs (SOQL's outer-join semantics), child
sub-queries become plans run after the parent rows are known.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from crm_tui.org.schema.catalogue import (
    ChildRelationship,
    Field,
    FieldType,
    SObject,
    child_relationships,
    get_object,
    has_object,
)
from crm_tui.org.schema.ids import is_valid_id, to18
from crm_tui.org.schema.sftime import format_datetime, parse_datetime
from crm_tui.org.soql.dates import date_range
from crm_tui.org.soql.nodes import (
    Aggregate,
    Comparison,
    Condition,
    DateFunction,
    FieldPath,
    Literal,
    Logical,
    Not,
    OrderItem,
    Query,
)
from crm_tui.org.soql.sf_errors import SalesforceError, malformed, positioned
from crm_tui.org.store.orgstore import q

MAX_OFFSET = 2000

# Value categories for filter checks, with Salesforce's type names for messages.
_CATEGORY = {
    FieldType.ID: "id",
    FieldType.LOOKUP: "id",
    FieldType.NUMBER: "number",
    FieldType.CURRENCY: "number",
    FieldType.BOOLEAN: "boolean",
    FieldType.DATE: "date",
    FieldType.DATETIME: "datetime",
}
_SF_TYPE = {
    "string": "string",
    "id": "id",
    "number": "double",
    "boolean": "boolean",
    "date": "date",
    "datetime": "dateTime",
}
_LITERAL_FITS = {
    "string": {"string"},
    "id": {"string"},
    "number": {"number"},
    "boolean": {"boolean"},
    "date": {"date", "date_literal"},
    "datetime": {"datetime", "date_literal"},
}


# Date functions over the stored text (`2024-01-31` or `2024-01-31T12:34:56.000+0000`,
# UTC, as the store keeps every date and time); NULL stays NULL.
_DAY_OF_YEAR = "CAST(strftime('%j', substr({x}, 1, 10)) AS INTEGER)"
DATE_FUNCTION_SQL = {
    "CALENDAR_YEAR": "CAST(substr({x}, 1, 4) AS INTEGER)",
    "CALENDAR_MONTH": "CAST(substr({x}, 6, 2) AS INTEGER)",
    "CALENDAR_QUARTER": "((CAST(substr({x}, 6, 2) AS INTEGER) + 2) / 3)",
    "DAY_IN_MONTH": "CAST(substr({x}, 9, 2) AS INTEGER)",
    "DAY_IN_WEEK": "(CAST(strftime('%w', substr({x}, 1, 10)) AS INTEGER) + 1)",
    "DAY_IN_YEAR": _DAY_OF_YEAR,
    "DAY_ONLY": "substr({x}, 1, 10)",
    "HOUR_IN_DAY": "CAST(substr({x}, 12, 2) AS INTEGER)",
    "WEEK_IN_MONTH": "((CAST(substr({x}, 9, 2) AS INTEGER) + 6) / 7)",
    "WEEK_IN_YEAR": f"(({_DAY_OF_YEAR} + 6) / 7)",
}
_DATETIME_ONLY = {"DAY_ONLY", "HOUR_IN_DAY"}


def category(fld: Field) -> str:
    return _CATEGORY.get(fld.type, "string")


@dataclass
class Column:
    """One selected value: where it goes in the record and how to convert it."""

    key_path: tuple[str, ...]  # ("Account", "Name"), or (alias,) for aggregates
    field: Field | None
    index: int  # position in the SQL select list
    function: str | None = None  # aggregate function


@dataclass
class ParentLink:
    """A joined parent record: its relationship path and the column holding its Id."""

    path: tuple[str, ...]
    sobject: SObject
    id_column: int


CHILD_BATCH = 500  # parent Ids per statement of a child sub-query


@dataclass
class ChildPlan:
    """`(SELECT ... FROM Cases)`: a compiled child query, run per batch of parent Ids."""

    relationship: ChildRelationship
    query: CompiledQuery
    parent_ids_param: str  # JSON array of the parent Ids of one batch
    limit: int | None
    offset: int | None


@dataclass
class CompiledQuery:
    sobject: SObject
    sql: str
    params: dict[str, object]
    columns: list[Column] = field(default_factory=list)
    parents: list[ParentLink] = field(default_factory=list)
    children: list[ChildPlan] = field(default_factory=list)
    aggregate: bool = False
    count_only: bool = False
    # `sql` in two parts, for a statement that selects other expressions of the same rows
    # (soql.sqlite_json): the SELECT list, and what follows it (FROM ... LIMIT).
    select_sql: list[str] = field(default_factory=list)
    after_select: str = ""


@dataclass(frozen=True)
class _Resolved:
    sql: str
    field: Field
    rel_path: tuple[str, ...]  # canonical relationship names walked
    alias: str  # table alias the field is read from


class _Params:
    """Named parameters shared by a statement and its nested sub-selects."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}

    def add(self, value: object) -> str:
        name = f"p{len(self.values)}"
        self.values[name] = value
        return f":{name}"


class _Scope:
    """One FROM object with its joins; resolves field paths case-insensitively."""

    def __init__(self, text: str, sobject: SObject, prefix: str, aliases: Iterable[str | None]):
        self.text = text
        self.sobject = sobject
        self.root = f"{prefix}t0"
        self.prefix = prefix
        self.aliases = {a.lower() for a in aliases if a}
        self.joins: dict[tuple[str, ...], tuple[str, SObject]] = {(): (self.root, sobject)}
        self.join_sql: list[str] = []

    def from_sql(self) -> str:
        return " ".join([f"FROM {q(self.sobject.name)} AS {self.root}", *self.join_sql])

    def join(self, path: tuple[str, ...], lookup: Field) -> tuple[str, SObject]:
        if path not in self.joins:
            child_alias = self.joins[path[:-1]][0]
            alias = f"{self.prefix}t{len(self.joins)}"
            parent = get_object(lookup.target)
            self.join_sql.append(
                f"LEFT JOIN {q(parent.name)} AS {alias} "
                f"ON {alias}.{q('Id')} = {child_alias}.{q(lookup.name)}"
            )
            self.joins[path] = (alias, parent)
        return self.joins[path]

    def resolve(self, path: FieldPath) -> _Resolved:
        parts = list(path.parts)
        if (
            len(parts) > 1
            and parts[0].lower() in self.aliases | {self.sobject.name.lower()}
            and parts[0].lower() not in self.sobject.parent_relationship_fields
        ):
            parts = parts[1:]
        obj = self.sobject
        rel_path: tuple[str, ...] = ()
        alias = self.root
        for rel in parts[:-1]:
            lookup = obj.parent_relationship_fields.get(rel.lower())
            if lookup is None:
                raise SalesforceError(
                    "INVALID_FIELD",
                    positioned(
                        self.text,
                        path.pos,
                        f"Didn't understand relationship '{rel}' in field path. If you are "
                        "attempting to use a custom relationship, be sure to append the '__r' "
                        "after the custom relationship name. Please reference your WSDL or the "
                        "describe call for the appropriate names.",
                    ),
                )
            rel_path = (*rel_path, lookup.relationship)
            alias, obj = self.join(rel_path, lookup)
        if not obj.has_field(parts[-1]):
            raise SalesforceError(
                "INVALID_FIELD",
                positioned(
                    self.text,
                    path.pos,
                    f"No such column '{parts[-1]}' on entity '{obj.name}'. If you are attempting "
                    "to use a custom field, be sure to append the '__c' after the custom field "
                    "name. Please reference your WSDL or the describe call for the appropriate "
                    "names.",
                ),
            )
        fld = obj.field(parts[-1])
        return _Resolved(f"{alias}.{q(fld.name)}", fld, rel_path, alias)


def _object(text: str, name: str, pos: int) -> SObject:
    if not has_object(name):
        raise SalesforceError(
            "INVALID_TYPE",
            positioned(
                text,
                pos,
                f"sObject type '{name}' is not supported. If you are attempting to use a custom "
                "object, be sure to append the '__c' after the entity name. Please reference "
                "your WSDL or the describe call for the appropriate names.",
            ),
        )
    return get_object(name)


class _Compiler:
    def __init__(self, text: str, today: date, params: _Params, prefix: str = ""):
        self.text = text
        self.today = today
        self.params = params
        self.prefix = prefix
        self.subqueries = 0

    # ----------------------------------------------------------------- entry
    def compile(
        self,
        query: Query,
        sobject: SObject | None = None,
        restrict: tuple[str, str] | None = None,
        parent_key: str | None = None,
        semi_join: bool = False,
    ) -> CompiledQuery:
        """`restrict` = (field, JSON array parameter): keep rows whose field is in it.
        `parent_key`: a lookup field returned as a second hidden column (child queries).
        `semi_join`: select only the one selected field, for `Id IN (SELECT ...)`."""
        sobject = sobject or _object(self.text, query.object_name, query.object_pos)
        scope = _Scope(self.text, sobject, self.prefix, {query.object_alias})
        aggregate = bool(query.group_by) or any(
            isinstance(item.expr, Aggregate) for item in query.select
        )
        plan = CompiledQuery(
            sobject, "", self.params.values, aggregate=aggregate, count_only=query.count_only
        )
        if query.offset is not None and query.offset > MAX_OFFSET:
            raise SalesforceError(
                "NUMBER_OUTSIDE_VALID_RANGE", f"Maximum SOQL offset allowed is {MAX_OFFSET}"
            )
        if query.count_only:
            select_sql = ["1"]
        elif aggregate:
            select_sql = self.aggregate_select(query, scope, plan)
        elif semi_join:
            expr = query.select[0].expr
            assert isinstance(expr, FieldPath)  # semi_join() let only one field path through
            resolved = scope.resolve(expr)
            plan.columns.append(Column((resolved.field.name,), resolved.field, 0))
            select_sql = [resolved.sql]
        else:
            select_sql = self.record_select(query, scope, plan, parent_key)
        where = [self.condition(query.where, scope, query, having=False)] if query.where else []
        if semi_join:  # no nulls, so NOT IN keeps its plain meaning
            where.append(f"{select_sql[0]} IS NOT NULL")
        if restrict:
            where.append(
                f"{scope.root}.{q(restrict[0])} IN (SELECT value FROM json_each({restrict[1]}))"
            )
        group_keys = [self.group_sql(item, scope) for item in query.group_by]
        having = self.condition(query.having, scope, query, having=True) if query.having else None
        order = [self.order_item(item, scope, query) for item in query.order_by]
        sql = scope.from_sql()
        if where:
            sql += " WHERE " + " AND ".join(f"({w})" for w in where)
        if group_keys:
            sql += " GROUP BY " + ", ".join(group_keys)
        if having:
            sql += f" HAVING {having}"
        if order and not query.count_only:
            sql += " ORDER BY " + ", ".join(order)
        if query.limit is not None or query.offset is not None:
            sql += f" LIMIT {query.limit if query.limit is not None else -1}"
            sql += f" OFFSET {query.offset or 0}"
        plan.select_sql, plan.after_select = select_sql, sql
        sql = f"SELECT {', '.join(select_sql)} {sql}"
        if query.count_only:
            sql = f"SELECT count(*) FROM ({sql})"
        plan.sql = sql
        return plan

    # ----------------------------------------------------------------- SELECT lists
    def record_select(
        self, query: Query, scope: _Scope, plan: CompiledQuery, parent_key: str | None
    ) -> list[str]:
        select_sql = [f"{scope.root}.{q('Id')}"]
        if parent_key:
            select_sql.append(f"{scope.root}.{q(parent_key)}")
        seen: set[tuple[str, ...]] = set()
        for item in query.select:
            if isinstance(item.expr, Query):
                plan.children.append(self.child_plan(item.expr, scope.sobject))
                continue
            if isinstance(item.expr, DateFunction):
                raise malformed(
                    self.text,
                    item.expr.pos,
                    f"{item.expr.function}() in the SELECT list needs a GROUP BY",
                )
            if item.alias:
                raise self.unexpected_alias(item.alias, query)
            assert isinstance(item.expr, FieldPath)  # aggregates go to aggregate_select()
            resolved = scope.resolve(item.expr)
            key = (*resolved.rel_path, resolved.field.name)
            if tuple(k.lower() for k in key) in seen:
                raise malformed(
                    self.text, item.expr.pos, f"duplicate field selected: {item.expr.text}"
                )
            seen.add(tuple(k.lower() for k in key))
            for depth in range(1, len(resolved.rel_path) + 1):
                self.link_parent(resolved.rel_path[:depth], scope, plan, select_sql)
            plan.columns.append(Column(key, resolved.field, len(select_sql)))
            select_sql.append(resolved.sql)
        return select_sql

    def link_parent(
        self, path: tuple[str, ...], scope: _Scope, plan: CompiledQuery, select_sql: list[str]
    ) -> None:
        if any(link.path == path for link in plan.parents):
            return
        alias, parent = scope.joins[path]
        plan.parents.append(ParentLink(path, parent, len(select_sql)))
        select_sql.append(f"{alias}.{q('Id')}")

    def unexpected_alias(self, alias: str, query: Query) -> SalesforceError:
        pos = self.text.find(alias, query.pos)
        return malformed(self.text, pos, f"unexpected token: '{alias}'")

    def aggregate_select(self, query: Query, scope: _Scope, plan: CompiledQuery) -> list[str]:
        grouped = {self.group_key(p, scope) for p in query.group_by}
        select_sql: list[str] = []
        unaliased = 0
        for item in query.select:
            expr = item.expr
            if isinstance(expr, Query):
                raise malformed(
                    self.text, expr.pos, "Nested queries are not supported in aggregate queries"
                )
            if isinstance(expr, Aggregate):
                if expr.argument is None:
                    raise malformed(
                        self.text, expr.pos, "COUNT() must be the only element in the SELECT list"
                    )
                sql, fld = self.aggregate_sql(expr, scope)
                name = item.alias or f"expr{unaliased}"
                unaliased += item.alias is None
                plan.columns.append(Column((name,), fld, len(select_sql), expr.function))
            elif isinstance(expr, DateFunction):
                if self.group_key(expr, scope) not in grouped:
                    raise malformed(
                        self.text, expr.pos, f"Field must be grouped or aggregated: {expr.text}"
                    )
                sql, fld = self.date_sql(expr, scope)
                name = item.alias or f"expr{unaliased}"
                unaliased += item.alias is None
                plan.columns.append(Column((name,), fld, len(select_sql), expr.function))
            else:
                resolved = scope.resolve(expr)
                if self.key(resolved) not in grouped:
                    raise malformed(
                        self.text,
                        expr.pos,
                        f"Field must be grouped or aggregated: {expr.parts[-1]}",
                    )
                sql = resolved.sql
                plan.columns.append(
                    Column((item.alias or resolved.field.name,), resolved.field, len(select_sql))
                )
            select_sql.append(sql)
        return select_sql

    @staticmethod
    def key(resolved: _Resolved) -> tuple[str, ...]:
        return tuple(k.lower() for k in (*resolved.rel_path, resolved.field.name))

    def group_key(self, item: FieldPath | DateFunction, scope: _Scope) -> tuple[str, ...]:
        """What a GROUP BY item groups: a field, or a date function of a field."""
        if isinstance(item, DateFunction):
            return (item.function, *self.key(scope.resolve(item.argument)))
        return self.key(scope.resolve(item))

    def group_sql(self, item: FieldPath | DateFunction, scope: _Scope) -> str:
        if isinstance(item, DateFunction):
            return self.date_sql(item, scope)[0]
        return scope.resolve(item).sql

    def date_sql(self, fn: DateFunction, scope: _Scope) -> tuple[str, Field]:
        """CALENDAR_YEAR(CreatedDate) as SQL over the stored text, and the field it reads."""
        resolved = scope.resolve(fn.argument)
        fld = resolved.field
        allowed = (
            (FieldType.DATETIME,)
            if fn.function in _DATETIME_ONLY
            else (FieldType.DATE, FieldType.DATETIME)
        )
        if fld.type not in allowed:
            wanted = "dateTime" if fn.function in _DATETIME_ONLY else "date or dateTime"
            raise malformed(
                self.text,
                fn.pos,
                f"{fn.function}() needs a {wanted} field, and {fld.name} is a "
                f"{_SF_TYPE[category(fld)]}",
            )
        return DATE_FUNCTION_SQL[fn.function].format(x=resolved.sql), fld

    def aggregate_sql(self, agg: Aggregate, scope: _Scope) -> tuple[str, Field | None]:
        if agg.argument is None:
            return "count(*)", None
        resolved = scope.resolve(agg.argument)
        fld = resolved.field
        if agg.function in ("SUM", "AVG") and category(fld) != "number":
            raise malformed(
                self.text,
                agg.pos,
                f"field {fld.name} does not support aggregate operator {agg.function}",
            )
        sql = {
            "COUNT": "count({})",
            "COUNT_DISTINCT": "count(DISTINCT {})",
            "SUM": "sum({})",
            "AVG": "avg({})",
            "MIN": "min({})",
            "MAX": "max({})",
        }[agg.function].format(resolved.sql)
        return sql, fld

    def child_plan(self, sub: Query, parent: SObject) -> ChildPlan:
        rel = next(
            (
                r
                for r in child_relationships(parent.name)
                if r.name.lower() == sub.object_name.lower()
            ),
            None,
        )
        if rel is None:
            raise SalesforceError(
                "INVALID_TYPE",
                positioned(
                    self.text,
                    sub.object_pos,
                    f"Didn't understand relationship '{sub.object_name}' in FROM part of query "
                    "call. If you are attempting to use a custom relationship, be sure to append "
                    "the '__r' after the custom relationship name. Please reference your WSDL or "
                    "the describe call for the appropriate names.",
                ),
            )
        if any(isinstance(i.expr, (Aggregate, Query)) for i in sub.select) or sub.group_by:
            raise malformed(
                self.text,
                sub.pos,
                "Nested queries support neither aggregates nor further nested queries",
            )
        child = get_object(rel.child)
        self.subqueries += 1
        compiler = _Compiler(self.text, self.today, _Params(), f"c{self.subqueries}_")
        parent_ids = compiler.params.add("[]")
        body = Query(
            sub.select,
            child.name,
            sub.object_pos,
            sub.object_alias or rel.name,
            sub.where,
            (),
            None,
            sub.order_by,
            None,
            None,
            sub.pos,
        )
        compiled = compiler.compile(
            body, child, restrict=(rel.field, parent_ids), parent_key=rel.field
        )
        return ChildPlan(rel, compiled, parent_ids[1:], sub.limit, sub.offset)

    # ----------------------------------------------------------------- conditions
    def condition(self, cond: Condition, scope: _Scope, query: Query, having: bool) -> str:
        if isinstance(cond, Logical):
            parts = [self.condition(c, scope, query, having) for c in cond.operands]
            return "(" + f" {cond.operator} ".join(parts) + ")"
        if isinstance(cond, Not):
            # SOQL is two-valued: a comparison with a null is simply false.
            return f"NOT coalesce({self.condition(cond.operand, scope, query, having)}, 0)"
        return self.comparison(cond, scope, query, having)

    def comparison(self, cmp: Comparison, scope: _Scope, query: Query, having: bool) -> str:
        left = cmp.left
        if isinstance(left, Aggregate):
            if not having:
                raise malformed(
                    self.text, left.pos, "Aggregate functions are not allowed in the WHERE clause"
                )
            sql, fld = self.aggregate_sql(left, scope)
            kind = (
                "number"
                if left.function in ("COUNT", "COUNT_DISTINCT", "SUM", "AVG") or fld is None
                else category(fld)
            )
            name = left.text
        elif isinstance(left, DateFunction):
            if having and self.group_key(left, scope) not in {
                self.group_key(p, scope) for p in query.group_by
            }:
                raise malformed(
                    self.text, left.pos, f"Field must be grouped or aggregated: {left.text}"
                )
            sql, _ = self.date_sql(left, scope)
            kind = "date" if left.function == "DAY_ONLY" else "number"
            name = left.text
        else:
            resolved = scope.resolve(left)
            if having and self.key(resolved) not in {
                self.group_key(p, scope) for p in query.group_by
            }:
                raise malformed(
                    self.text, left.pos, f"Field must be grouped or aggregated: {left.parts[-1]}"
                )
            sql, name = resolved.sql, resolved.field.name
            kind = category(resolved.field)
        op = cmp.operator
        if op in ("INCLUDES", "EXCLUDES"):
            raise SalesforceError(
                "INVALID_QUERY_FILTER_OPERATOR",
                positioned(
                    self.text,
                    cmp.pos,
                    "includes or excludes operator only valid on multipicklist field",
                ),
            )
        if isinstance(cmp.value, Query):
            return self.semi_join(sql, kind, cmp.operator, cmp.value)
        text_sql = f"{sql} COLLATE NOCASE" if kind == "string" else sql
        if isinstance(cmp.value, tuple):  # IN and NOT IN
            return self.membership(text_sql, name, kind, cmp.value, negate=op == "NOT IN")
        lit = cmp.value
        if op == "LIKE":
            if kind != "string":
                raise SalesforceError(
                    "INVALID_QUERY_FILTER_OPERATOR",
                    positioned(
                        self.text, cmp.pos, f"invalid operator on {_SF_TYPE[kind]} field: LIKE"
                    ),
                )
            if lit.kind != "string":
                raise self.type_error(name, kind, lit)
            return f"{sql} LIKE {self.params.add(lit.like_pattern)} ESCAPE '\\'"
        if lit.kind == "null":
            if op not in ("=", "!="):
                raise SalesforceError(
                    "INVALID_QUERY_FILTER_OPERATOR",
                    positioned(self.text, cmp.pos, f"invalid operator {op} for a null value"),
                )
            return f"{sql} IS {'NOT ' if op == '!=' else ''}NULL"
        if lit.kind == "date_literal":
            self.check_literal(name, kind, lit)
            return self.date_range_sql(sql, kind, op, lit)
        value = self.params.add(self.bind(name, kind, lit))
        if op == "!=":  # SOQL's != keeps the records whose field is null
            return f"({sql} IS NULL OR {text_sql} != {value})"
        return f"{text_sql} {op} {value}"

    def membership(
        self, sql: str, name: str, kind: str, values: tuple[Literal, ...], negate: bool
    ) -> str:
        ranges: list[str] = []
        plain: list[str] = []
        has_null = False
        for lit in values:
            if lit.kind == "null":
                has_null = True
            elif lit.kind == "date_literal":
                self.check_literal(name, kind, lit)
                ranges.append(self.date_range_sql(sql, kind, "=", lit))
            else:
                plain.append(self.params.add(self.bind(name, kind, lit)))
        tests = ([f"{sql} IN ({', '.join(plain)})"] if plain else []) + ranges
        if has_null:
            tests.append(f"{sql} IS NULL")
        either = "(" + " OR ".join(tests) + ")"
        if not negate:
            return either
        return f"NOT coalesce({either}, 0)"

    def semi_join(self, sql: str, kind: str, operator: str, sub: Query) -> str:
        if kind != "id" or len(sub.select) != 1 or not isinstance(sub.select[0].expr, FieldPath):
            raise malformed(
                self.text,
                sub.pos,
                "semi join sub-selects must select one Id "
                "or reference field and can only filter an Id or reference field",
            )
        self.subqueries += 1
        compiler = _Compiler(
            self.text, self.today, self.params, f"s{self.subqueries}_{self.prefix}"
        )
        inner = compiler.compile(
            Query(
                sub.select,
                sub.object_name,
                sub.object_pos,
                sub.object_alias,
                sub.where,
                pos=sub.pos,
            ),
            semi_join=True,
        )
        selected = inner.columns[0].field
        if selected is None or category(selected) != "id":
            raise malformed(
                self.text, sub.pos, "semi join sub-selects must select an Id or reference field"
            )
        # The sub-select has no nulls. A null field is unknown IN it, which every context
        # reads as false (NOT wraps in coalesce), and NOT IN keeps it as Salesforce does.
        # The field stays bare, so SQLite can search it through its index.
        if operator == "NOT IN":
            return f"({sql} IS NULL OR {sql} NOT IN ({inner.sql}))"
        return f"{sql} IN ({inner.sql})"

    def check_literal(self, name: str, kind: str, lit: Literal) -> None:
        if lit.kind not in _LITERAL_FITS.get(kind, set()):
            raise self.type_error(name, kind, lit)

    def type_error(self, name: str, kind: str, lit: Literal) -> SalesforceError:
        quotes = "be enclosed" if kind in ("string", "id") else "not be enclosed"
        return SalesforceError(
            "INVALID_FIELD",
            positioned(
                self.text,
                lit.pos,
                f"value of filter criterion for field '{name}' must be of "
                f"type {_SF_TYPE[kind]} and should {quotes} in quotes",
            ),
        )

    def bind(self, name: str, kind: str, lit: Literal) -> object:
        self.check_literal(name, kind, lit)
        value = lit.value
        if kind == "boolean":
            return int(value is True)
        if not isinstance(value, str):  # a number: check_literal let only strings through else
            return value
        if kind == "id":
            if not is_valid_id(value):
                raise SalesforceError(
                    "INVALID_QUERY_FILTER_OPERATOR",
                    positioned(self.text, lit.pos, f"invalid ID field: {value}"),
                )
            return to18(value)
        if kind == "datetime":
            try:
                return format_datetime(parse_datetime(value))
            except ValueError:
                raise self.bad_date(lit) from None
        if kind == "date":
            try:
                date.fromisoformat(value)
            except ValueError:
                raise self.bad_date(lit) from None
        return value

    def bad_date(self, lit: Literal) -> SalesforceError:
        return malformed(
            self.text, lit.pos, f"line 1:{lit.pos} no viable alternative at character '{lit.value}'"
        )

    def date_range_sql(self, sql: str, kind: str, op: str, lit: Literal) -> str:
        try:
            start, end = date_range(str(lit.value), lit.n, self.today)
        except (OverflowError, ValueError):  # LAST_N_DAYS:999999999999: past year 9999
            raise malformed(
                self.text, lit.pos, f"date literal {lit.value}:{lit.n} is out of range"
            ) from None
        if kind == "datetime":
            start_value, end_value = (f"{d.isoformat()}T00:00:00.000+0000" for d in (start, end))
        else:
            start_value, end_value = start.isoformat(), end.isoformat()
        lo, hi = self.params.add(start_value), self.params.add(end_value)
        return {
            "=": f"({sql} >= {lo} AND {sql} < {hi})",
            "!=": f"({sql} IS NULL OR {sql} < {lo} OR {sql} >= {hi})",
            "<": f"{sql} < {lo}",
            "<=": f"{sql} < {hi}",
            ">": f"{sql} >= {hi}",
            ">=": f"{sql} >= {lo}",
        }[op]

    # ----------------------------------------------------------------- ORDER BY
    def order_item(self, item: OrderItem, scope: _Scope, query: Query) -> str:
        if isinstance(item.expr, Aggregate):
            if query.count_only:
                return "1"
            sql, _ = self.aggregate_sql(item.expr, scope)
        elif isinstance(item.expr, DateFunction):
            if self.group_key(item.expr, scope) not in {
                self.group_key(p, scope) for p in query.group_by
            }:
                raise malformed(
                    self.text,
                    item.expr.pos,
                    f"Ordered field must be grouped or aggregated: {item.expr.text}",
                )
            sql, _ = self.date_sql(item.expr, scope)
        else:
            resolved = scope.resolve(item.expr)
            if (
                query.group_by or any(isinstance(i.expr, Aggregate) for i in query.select)
            ) and self.key(resolved) not in {self.group_key(p, scope) for p in query.group_by}:
                raise malformed(
                    self.text,
                    item.expr.pos,
                    f"Ordered field must be grouped or aggregated: {item.expr.parts[-1]}",
                )
            sql = resolved.sql
            if category(resolved.field) == "string":
                sql += " COLLATE NOCASE"
        sql += " DESC" if item.descending else " ASC"
        if item.nulls_last is not None:
            sql += " NULLS LAST" if item.nulls_last else " NULLS FIRST"
        return sql


def compile_query(
    text: str,
    query: Query,
    today: date,
    sobject: SObject | None = None,
    restrict_ids: list[str] | None = None,
) -> CompiledQuery:
    """The SQL plan for `query`; `restrict_ids` keeps only those record Ids (for SOSL)."""
    params = _Params()
    compiler = _Compiler(text, today, params)
    restrict = None
    if restrict_ids is not None:
        restrict = ("Id", params.add(json.dumps(restrict_ids)))
    return compiler.compile(query, sobject, restrict)
