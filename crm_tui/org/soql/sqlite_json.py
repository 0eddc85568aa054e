"""SOQL records written as JSON text by SQLite itself, in the statement that finds them.

A big answer (tens of thousands of records) spent most of its time in Python building
one dict per record and encoding it. Here each record's JSON is one concatenation that
the plan's own statement selects instead of the values: fixed pieces (keys, the `attributes` prefix) as literals worked out once per
plan, values through `json_quote`. The text is the very bytes `json.dumps` writes for the
record `executor._Shaper.record` shapes: same key order, `", "` and `": "` separators,
nested parents (`null` for a missing one), child sub-queries, and `ensure_ascii` escapes
(SQLite writes other characters raw; `python_ascii` escapes them after).

Some answers are left to the Python shaper (`None` here): aggregates, plans with a REAL
column (SQLite spells some floats otherwise than Python's `repr`), a value of a storage
class its field does not hold (a row's text comes out NULL), and an SQLite whose
`json_quote` escapes otherwise than `json.dumps` (checked once per process).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from itertools import repeat
from json.encoder import encode_basestring_ascii
from operator import contains, itemgetter
from typing import Union

from crm_tui.org.schema.catalogue import FieldType
from crm_tui.org.soql.compiler import CHILD_BATCH, ChildPlan, Column, CompiledQuery, ParentLink

_text = encode_basestring_ascii  # a str as json.dumps writes it (ensure_ascii)
_NOT_PRINTABLE_ASCII = re.compile("[\x7f-\U0010ffff]")
# Object nodes of a record: key -> a column, or a parent (its link and its own nodes).
_Nodes = dict[str, Union[Column, "_Parent"]]
_Parent = tuple[ParentLink, _Nodes]


@cache
def sqlite_writes_json_dumps_text() -> bool:
    """Whether this SQLite's `json_quote` writes every string as `json.dumps(ensure_ascii=
    False)` does (all ASCII controls, quotes, backslashes, raw non-ASCII), and knows
    `AS MATERIALIZED` (3.35)."""
    if sqlite3.sqlite_version_info < (3, 35):
        return False
    sample = "".join(map(chr, range(128))) + "é\u2028\U0001f600"
    conn = sqlite3.connect(":memory:")
    try:
        quoted = conn.execute("SELECT json_quote(?)", (sample,)).fetchone()[0]
    except sqlite3.Error:  # built without JSON functions
        return False
    finally:
        conn.close()
    return bool(quoted == json.dumps(sample, ensure_ascii=False))


def python_ascii(text: str) -> str:
    """JSON text with raw non-ASCII (and DEL) characters escaped as `json.dumps` does
    (`\\u00e9`, surrogate pairs past the BMP). Such characters only occur inside strings."""
    if text.isascii() and "\x7f" not in text:
        return text
    return _NOT_PRINTABLE_ASCII.sub(_escape, text)


def ascii_texts(texts: list[str]) -> list[str]:
    """`python_ascii` of each text; the list itself when all are printable ASCII already
    (most answers), found by C-level scans instead of a call per record."""
    if all(map(str.isascii, texts)) and not any(map(contains, texts, repeat("\x7f"))):
        return texts
    return list(map(python_ascii, texts))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def json_records(conn: sqlite3.Connection, plan: CompiledQuery, base: str) -> list[str] | None:
    """Each record of a record plan as JSON text; None when the Python shaper must answer.
    `base` is the sobjects URL, `/services/data/vNN.N/sobjects`."""
    if plan.aggregate or plan.count_only or not sqlite_writes_json_dumps_text():
        return None
    all_plans = [plan, *(child.query for child in plan.children)]
    if not all(_sqlite_can_write(p) for p in all_plans):
        return None
    # The parent's Id leads when children are attached to it.
    rows = _fetch(conn, plan, base, lead=0 if plan.children else None)
    if rows is None:
        return None
    if not plan.children:
        return ascii_texts(list(map(itemgetter(0), rows)))
    texts = ascii_texts(list(map(itemgetter(1), rows)))
    parent_ids = list(map(itemgetter(0), rows))
    for child in plan.children:
        kids = _child_texts(conn, child, base, parent_ids)
        if kids is None:
            return None
        key = ", " + _text(child.relationship.name) + ": "
        texts = [text[:-1] + key + kid + "}" for text, kid in zip(texts, kids)]
    return texts


def _sqlite_can_write(plan: CompiledQuery) -> bool:
    return all(
        column.function is None
        and (
            column.field is None or column.field.type not in (FieldType.CURRENCY, FieldType.NUMBER)
        )
        for column in plan.columns
    )


def _fetch(
    conn: sqlite3.Connection, plan: CompiledQuery, base: str, lead: int | None
) -> list[tuple[str, ...]] | None:
    """The plan's rows as (JSON text,) or (column `lead`, JSON text); None if a row's
    text is NULL (a value of an unexpected storage class)."""
    if " ORDER BY " in plan.after_select and " LIMIT " in plan.after_select:
        # SQLite builds the result columns of every row it sorts, not only of the rows a
        # LIMIT keeps: the rows are materialised first and the text built over those.
        names = ", ".join(f"c{i}" for i in range(len(plan.select_sql)))
        select = _record_sql(plan, base, "c{}".format)
        if lead is not None:
            select = f"c{lead}, {select}"
        cte = f"soql_rows({names}) AS MATERIALIZED ({plan.sql})"  # read back in order
        sql = f"WITH {cte} SELECT {select} FROM soql_rows"
    else:  # the plan's own statement, selecting the text instead of the values
        select = _record_sql(plan, base, plan.select_sql.__getitem__)
        if lead is not None:
            select = f"{plan.select_sql[lead]}, {select}"
        sql = f"SELECT {select} {plan.after_select}"
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples: a Row per record costs more than the text
    rows: list[tuple[str, ...]] = cursor.execute(sql, plan.params).fetchall()
    if None in map(itemgetter(-1), rows):
        return None
    return rows


def _child_texts(
    conn: sqlite3.Connection, child: ChildPlan, base: str, parent_ids: list[str]
) -> list[str] | None:
    """Per parent Id, the JSON of its child records (`{"totalSize": ...}`), or "null"."""
    grouped: dict[str, list[str]] = defaultdict(list)
    plan = child.query
    for start in range(0, len(parent_ids), CHILD_BATCH):
        params = dict(plan.params)
        params[child.parent_ids_param] = json.dumps(parent_ids[start : start + CHILD_BATCH])
        batch = replace(plan, params=params)
        rows = _fetch(conn, batch, base, lead=1)
        if rows is None:
            return None
        texts = ascii_texts(list(map(itemgetter(1), rows)))
        for parent_id, text in zip(map(itemgetter(0), rows), texts, strict=True):
            grouped[parent_id].append(text)
    first = child.offset or 0
    last = None if child.limit is None else first + child.limit
    out = []
    for parent_id in parent_ids:
        kids = grouped.get(parent_id, [])[first:last]
        out.append(
            f'{{"totalSize": {len(kids)}, "done": true, "records": [{", ".join(kids)}]}}'
            if kids
            else "null"
        )
    return out


def _record_sql(plan: CompiledQuery, base: str, ref: Callable[[int], str]) -> str:
    """The SQL expression of one record's JSON text; `ref(i)` is the SQL of the plan's
    i-th selected value."""
    links = {link.path: link for link in plan.parents}
    nodes: _Nodes = {}
    for column in plan.columns:
        level = nodes
        for depth, relationship in enumerate(column.key_path[:-1], 1):
            parent = level.setdefault(relationship, (links[column.key_path[:depth]], {}))
            assert isinstance(parent, tuple)  # a relationship, never also a field's key
            level = parent[1]
        level[column.key_path[-1]] = column
    return " || ".join(_merged(_object_terms(plan.sobject.name, 0, nodes, base, ref)))


def _object_terms(
    name: str, id_column: int, nodes: _Nodes, base: str, ref: Callable[[int], str]
) -> list[str]:
    """Terms of an object's JSON: literals as Python text (prefixed with "'" to tell them
    apart), SQL expressions as they are; `_merged` joins neighbouring literals."""
    url = _sql_literal(f"{base}/{name}/")
    terms = [
        "'" + '{"attributes": {"type": ' + _text(name) + ', "url": ',
        f"json_quote({url} || {ref(id_column)})",
        "'}",
    ]
    for key, node in nodes.items():
        terms.append("'" + ", " + _text(key) + ": ")
        if isinstance(node, Column):
            terms.append(_value_sql(ref(node.index), node))
        else:
            link, inner = node
            body = " || ".join(
                _merged(_object_terms(link.sobject.name, link.id_column, inner, base, ref))
            )
            parent_id = ref(link.id_column)
            terms.append(f"CASE WHEN {parent_id} IS NULL THEN 'null' ELSE {body} END")
    terms.append("'}")
    return terms


def _merged(terms: list[str]) -> list[str]:
    """SQL terms, neighbouring literals ("'"-prefixed Python text) joined into one."""
    out: list[str] = []
    pending: list[str] = []
    for term in terms:
        if term.startswith("'"):
            pending.append(term[1:])
            continue
        if pending:
            out.append(_sql_literal("".join(pending)))
            pending = []
        out.append(term)
    if pending:
        out.append(_sql_literal("".join(pending)))
    return out


def _value_sql(ref: str, column: Column) -> str:
    """A column's JSON value as `executor._value` converts it; NULL for a value of a
    storage class the field never holds, which sends the answer to the Python shaper."""
    if column.field is not None and column.field.type is FieldType.BOOLEAN:
        return (
            f"CASE typeof({ref}) WHEN 'integer' THEN CASE WHEN {ref} THEN 'true' "
            f"ELSE 'false' END WHEN 'null' THEN 'null' END"
        )
    return (
        f"CASE typeof({ref}) WHEN 'text' THEN json_quote({ref}) WHEN 'null' THEN 'null' "
        f"WHEN 'integer' THEN CAST({ref} AS TEXT) END"
    )


def _sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
