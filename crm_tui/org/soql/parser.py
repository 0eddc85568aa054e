"""Recursive-descent parser from SOQL/SOSL text to the trees in `nodes`.

Hand-written rather than generated so that every syntax error is a MALFORMED_QUERY
worded and positioned the way Salesforce reports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from crm_tui.org.soql.dates import DATE_LITERALS, N_DATE_LITERALS
from crm_tui.org.soql.lexer import Kind, Token, tokenize
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
    Returning,
    Search,
    SelectItem,
)
from crm_tui.org.soql.sf_errors import SalesforceError, malformed, unexpected

_T = TypeVar("_T")

AGGREGATES = {"COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"}
# Date functions of the calendar (fiscal ones follow an org setting this org lacks).
DATE_FUNCTIONS = {
    "CALENDAR_MONTH",
    "CALENDAR_QUARTER",
    "CALENDAR_YEAR",
    "DAY_IN_MONTH",
    "DAY_IN_WEEK",
    "DAY_IN_YEAR",
    "DAY_ONLY",
    "HOUR_IN_DAY",
    "WEEK_IN_MONTH",
    "WEEK_IN_YEAR",
}
RESERVED = {
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "IN",
    "LIKE",
    "GROUP",
    "BY",
    "HAVING",
    "ORDER",
    "ASC",
    "DESC",
    "NULLS",
    "FIRST",
    "LAST",
    "LIMIT",
    "OFFSET",
    "TRUE",
    "FALSE",
    "NULL",
    "INCLUDES",
    "EXCLUDES",
    "WITH",
    "FOR",
    "USING",
    "TYPEOF",
    "RETURNING",
    "FIND",
}
COMPARISON_OPERATORS = {"=", "!=", "<", "<=", ">", ">="}
MAX_NESTING = 40  # deeper parentheses are refused rather than overflowing the stack
MAX_INTEGER = 2_147_483_647  # LIMIT, OFFSET: Salesforce's integers are 32-bit
SOSL_SCOPES = {"ALL", "NAME", "EMAIL", "PHONE", "SIDEBAR"}


class _Parser:
    def __init__(self, text: str, tokens: list[Token]):
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    # ----------------------------------------------------------------- token helpers
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self) -> Token:
        return self.tokens[min(self.i + 1, len(self.tokens) - 1)]

    def next_is(self, symbol: str) -> bool:
        nxt = self.peek()
        return nxt.kind is Kind.PUNCT and nxt.text == symbol

    def advance(self) -> Token:
        token = self.tokens[self.i]
        if token.kind is not Kind.EOF:
            self.i += 1
        return token

    def fail(self, token: Token | None = None) -> SalesforceError:
        token = token or self.tok
        return unexpected(self.text, token.pos, token.text)

    def accept_word(self, *words: str) -> Token | None:
        return self.advance() if self.tok.is_word(*words) else None

    def expect_word(self, *words: str) -> Token:
        if not self.tok.is_word(*words):
            raise self.fail()
        return self.advance()

    def accept_punct(self, symbol: str) -> Token | None:
        if self.tok.kind is Kind.PUNCT and self.tok.text == symbol:
            return self.advance()
        return None

    def expect_punct(self, symbol: str) -> Token:
        token = self.accept_punct(symbol)
        if token is None:
            raise self.fail()
        return token

    def object_name(self) -> Token:
        """Object names may be SOQL words: `FROM Order`."""
        if self.tok.kind is not Kind.IDENT:
            raise self.fail()
        return self.advance()

    def name(self) -> Token:
        if self.tok.kind is not Kind.IDENT or self.tok.text.upper() in RESERVED:
            raise self.fail()
        return self.advance()

    def integer(self) -> int:
        token = self.tok
        if (
            token.kind is not Kind.NUMBER
            or not isinstance(token.value, int)
            or not 0 <= token.value <= MAX_INTEGER
        ):
            raise self.fail()
        self.advance()
        return token.value

    # ----------------------------------------------------------------- query
    def query(self) -> Query:
        start = self.expect_word("SELECT")
        select = [self.select_item()]
        while self.accept_punct(","):
            select.append(self.select_item())
        self.expect_word("FROM")
        obj = self.object_name()
        alias = None
        if self.tok.kind is Kind.IDENT and self.tok.text.upper() not in RESERVED:
            alias = self.advance().text
        where = self.condition() if self.accept_word("WHERE") else None
        group_by: list[FieldPath | DateFunction] = []
        if self.accept_word("GROUP"):
            self.expect_word("BY")
            group_by.append(self.group_item())
            while self.accept_punct(","):
                group_by.append(self.group_item())
        having = self.condition() if self.accept_word("HAVING") else None
        order_by = self.order_by() if self.accept_word("ORDER") else []
        limit = self.integer() if self.accept_word("LIMIT") else None
        offset = self.integer() if self.accept_word("OFFSET") else None
        return Query(
            tuple(select),
            obj.text,
            obj.pos,
            alias,
            where,
            tuple(group_by),
            having,
            tuple(order_by),
            limit,
            offset,
            start.pos,
        )

    def select_item(self) -> SelectItem:
        if self.tok.kind is Kind.PUNCT and self.tok.text == "(":
            self.advance()
            sub = self.nested(self.query)
            self.expect_punct(")")
            return SelectItem(sub)
        if self.tok.is_word("TYPEOF"):
            raise malformed(self.text, self.tok.pos, "TYPEOF is not supported by this org")
        expr = self.operand()
        alias = None
        if self.tok.kind is Kind.IDENT and self.tok.text.upper() not in RESERVED:
            alias = self.advance().text
        return SelectItem(expr, alias)

    def group_item(self) -> FieldPath | DateFunction:
        return self.date_function() if self.at_date_function() else self.field_path()

    def at_date_function(self) -> bool:
        return (
            self.tok.kind is Kind.IDENT
            and self.tok.text.upper() in DATE_FUNCTIONS
            and self.next_is("(")
        )

    def date_function(self) -> DateFunction:
        func = self.advance()
        self.advance()
        argument = self.field_path()
        self.expect_punct(")")
        return DateFunction(func.text.upper(), argument, func.pos)

    def operand(self) -> FieldPath | Aggregate | DateFunction:
        if self.at_date_function():
            return self.date_function()
        if (
            self.tok.kind is Kind.IDENT
            and self.tok.text.upper() in AGGREGATES
            and self.next_is("(")
        ):
            func = self.advance()
            self.advance()
            argument = None
            if not self.accept_punct(")"):
                argument = self.field_path()
                self.expect_punct(")")
            return Aggregate(func.text.upper(), argument, func.pos)
        return self.field_path()

    def field_path(self) -> FieldPath:
        # A relationship may be a SOQL word (`Order.AccountId`); a lone field may not.
        first = self.object_name() if self.next_is(".") else self.name()
        parts = [first.text]
        while self.accept_punct("."):
            if self.tok.kind is not Kind.IDENT:
                raise self.fail()
            parts.append(self.advance().text)
        return FieldPath(tuple(parts), first.pos)

    def order_by(self) -> list[OrderItem]:
        self.expect_word("BY")
        items = [self.order_item()]
        while self.accept_punct(","):
            items.append(self.order_item())
        return items

    def order_item(self) -> OrderItem:
        expr = self.operand()
        descending = bool(
            self.accept_word("ASC", "DESC") and self.tokens[self.i - 1].is_word("DESC")
        )
        nulls_last = None
        if self.accept_word("NULLS"):
            nulls_last = self.expect_word("FIRST", "LAST").is_word("LAST")
        return OrderItem(expr, descending, nulls_last)

    # ----------------------------------------------------------------- conditions
    def nested(self, parse: Callable[[], _T]) -> _T:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise malformed(self.text, self.tok.pos, "the query is nested too deeply")
        try:
            return parse()
        finally:
            self.depth -= 1

    def condition(self) -> Condition:
        """AND and OR cannot be mixed without parentheses, as in Salesforce."""
        first = self.unary()
        if not self.tok.is_word("AND", "OR"):
            return first
        operator = self.tok.text.upper()
        operands = [first]
        while self.tok.is_word("AND", "OR"):
            if self.tok.text.upper() != operator:
                raise self.fail()
            self.advance()
            operands.append(self.unary())
        return Logical(operator, tuple(operands))

    def unary(self) -> Condition:
        if self.accept_word("NOT"):
            return Not(self.nested(self.unary))
        if self.accept_punct("("):
            inner = self.nested(self.condition)
            self.expect_punct(")")
            return inner
        return self.comparison()

    def comparison(self) -> Comparison:
        left = self.operand()
        token = self.tok
        if token.kind is Kind.PUNCT and token.text in COMPARISON_OPERATORS:
            self.advance()
            return Comparison(left, token.text, self.literal(), token.pos)
        if self.accept_word("LIKE"):
            return Comparison(left, "LIKE", self.literal(), token.pos)
        if self.accept_word("NOT"):
            self.expect_word("IN")
            return Comparison(left, "NOT IN", self.value_list(), token.pos)
        if self.accept_word("IN", "INCLUDES", "EXCLUDES"):
            return Comparison(left, token.text.upper(), self.value_list(), token.pos)
        raise self.fail()

    def value_list(self) -> tuple[Literal, ...] | Query:
        self.expect_punct("(")
        if self.tok.is_word("SELECT"):
            sub = self.nested(self.query)
            self.expect_punct(")")
            return sub
        values = [self.literal()]
        while self.accept_punct(","):
            values.append(self.literal())
        self.expect_punct(")")
        return tuple(values)

    def literal(self) -> Literal:
        token = self.tok
        if token.kind is Kind.STRING:
            self.advance()
            return Literal("string", token.value, token.pos, token.like_pattern)
        if token.kind in (Kind.NUMBER, Kind.DATE, Kind.DATETIME):
            self.advance()
            return Literal(token.kind.name.lower(), token.value, token.pos)
        if token.is_word("TRUE", "FALSE"):
            self.advance()
            return Literal("boolean", token.text.upper() == "TRUE", token.pos)
        if token.is_word("NULL"):
            self.advance()
            return Literal("null", None, token.pos)
        word = token.text.upper() if token.kind is Kind.IDENT else ""
        if word in DATE_LITERALS:
            self.advance()
            return Literal("date_literal", word, token.pos)
        if word in N_DATE_LITERALS:
            self.advance()
            if not self.accept_punct(":"):
                raise malformed(
                    self.text, self.tok.pos, f"Invalid date literal {word}: expected {word}:n"
                )
            return Literal("date_literal", word, token.pos, n=self.integer())
        raise self.fail()

    # ----------------------------------------------------------------- SOSL
    def search_tail(self, term: str) -> Search:
        scope = "ALL"
        if self.accept_word("IN"):
            scope = self.expect_word(*SOSL_SCOPES).text.upper()
            self.expect_word("FIELDS")
        returning: list[Returning] = []
        if self.accept_word("RETURNING"):
            returning.append(self.returning())
            while self.accept_punct(","):
                returning.append(self.returning())
        limit = self.integer() if self.accept_word("LIMIT") else None
        return Search(term, "ALL" if scope == "SIDEBAR" else scope, tuple(returning), limit)

    def returning(self) -> Returning:
        obj = self.object_name()
        select: list[SelectItem] = []
        where = None
        order_by: list[OrderItem] = []
        limit = offset = None
        if self.accept_punct("("):
            select.append(SelectItem(self.field_path()))
            while self.accept_punct(","):
                select.append(SelectItem(self.field_path()))
            where = self.condition() if self.accept_word("WHERE") else None
            order_by = self.order_by() if self.accept_word("ORDER") else []
            limit = self.integer() if self.accept_word("LIMIT") else None
            offset = self.integer() if self.accept_word("OFFSET") else None
            self.expect_punct(")")
        if not select:
            select = [SelectItem(FieldPath(("Id",), obj.pos))]
        return Returning(
            Query(
                tuple(select),
                obj.text,
                obj.pos,
                None,
                where,
                (),
                None,
                tuple(order_by),
                limit,
                offset,
                obj.pos,
            )
        )

    def end(self) -> None:
        if self.tok.kind is not Kind.EOF:
            raise self.fail()


def parse_query(text: str) -> Query:
    parser = _Parser(text, tokenize(text))
    query = parser.query()
    parser.end()
    return query


def parse_search(text: str) -> Search:
    """`FIND {term} [IN x FIELDS] [RETURNING ...] [LIMIT n]`; errors are MALFORMED_SEARCH."""
    try:
        term, rest = _search_term(text)
        parser = _Parser(text, tokenize(text, rest))
        search = parser.search_tail(term)
        parser.end()
        return search
    except SalesforceError as error:
        if error.error_code == "MALFORMED_QUERY":
            raise SalesforceError("MALFORMED_SEARCH", error.message) from None
        raise


def _search_term(text: str) -> tuple[str, int]:
    """The text between FIND's braces (backslash escapes kept) and the offset after it."""
    stripped = text.lstrip()
    start = len(text) - len(stripped)
    if stripped[:4].upper() != "FIND":
        raise malformed(text, start, "unexpected token: FIND expected")
    i = start + 4
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text) or text[i] != "{":
        raise malformed(text, i, "unexpected token: the search term must be in braces {...}")
    j = i + 1
    while j < len(text) and text[j] != "}":
        j += 2 if text[j] == "\\" else 1
    if j >= len(text):
        raise malformed(text, i, "unterminated search term: '}' expected")
    return text[i + 1 : j], j + 1
