"""SOQL tokens: identifiers, quoted strings, numbers, unquoted date/datetime literals."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from crm_tui.org.soql.sf_errors import malformed


class Kind(Enum):
    IDENT = "identifier"
    STRING = "string"
    NUMBER = "number"
    DATE = "date"
    DATETIME = "datetime"
    PUNCT = "punctuation"
    EOF = "end"


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str  # as written
    pos: int  # 0-based offset into the query
    value: str | int | float | None = None  # decoded string / number
    like_pattern: str | None = None  # strings: the form for LIKE ... ESCAPE '\'

    def is_word(self, *words: str) -> bool:
        return self.kind is Kind.IDENT and self.text.upper() in words


_TOKEN_RE = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<datetime>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:?\d{2}))
  | (?P<date>\d{4}-\d{2}-\d{2}(?![\w:]))
  | (?P<number>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?![\w.]))
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>!=|<>|<=|>=|[=<>(),.:{}])
  | (?P<quote>')
""",
    re.VERBOSE,
)

# SOQL escape sequences; \% and \_ only mean something inside LIKE patterns.
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def _read_string(text: str, start: int) -> tuple[Token, int]:
    """Decode the quoted string opening at `start`; returns the token and the end offset."""
    value: list[str] = []
    like: list[str] = []
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "'":
            raw = text[start : i + 1]
            return Token(Kind.STRING, raw, start, "".join(value), "".join(like)), i + 1
        if ch == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt.lower() in _ESCAPES:
                decoded = _ESCAPES[nxt.lower()]
                value.append(decoded)
                like.append("\\\\" if decoded == "\\" else decoded)
            elif nxt in ("%", "_"):
                value.append(nxt)
                like.append("\\" + nxt)
            else:
                raise malformed(
                    text, i, f"Invalid string literal: illegal escape sequence '\\{nxt}'"
                )
            i += 2
            continue
        value.append(ch)
        like.append(ch)
        i += 1
    raise malformed(text, start, "unterminated string literal")


def tokenize(text: str, start: int = 0) -> list[Token]:
    """The tokens of `text[start:]`, positioned in `text`, ending with an EOF token."""
    tokens: list[Token] = []
    pos = start
    while pos < len(text):
        match = _TOKEN_RE.match(text, pos)
        if not match:
            raise malformed(text, pos, f"unexpected token: '{text[pos]}'")
        group, raw = match.lastgroup, match.group()
        if group == "quote":
            token, pos = _read_string(text, pos)
            tokens.append(token)
            continue
        if group == "number":
            number = float(raw)
            # Past SQLite's 64-bit integers a number stays a float: it compares the same.
            whole = number.is_integer() and "." not in raw and abs(number) < 2**63
            value = int(number) if whole else number
            tokens.append(Token(Kind.NUMBER, raw, pos, value))
        elif group == "datetime":
            tokens.append(Token(Kind.DATETIME, raw, pos, raw))
        elif group == "date":
            tokens.append(Token(Kind.DATE, raw, pos, raw))
        elif group == "ident":
            tokens.append(Token(Kind.IDENT, raw, pos, raw))
        elif group == "punct":
            tokens.append(Token(Kind.PUNCT, "!=" if raw == "<>" else raw, pos))
        pos = match.end()
    tokens.append(Token(Kind.EOF, "<EOF>", len(text)))
    return tokens
