"""SOSL search terms as FTS5 queries of the store's `search_index`.

Apart from the SOQL package, which costs ~35 ms to import: the task generator's product
searches (`tasks.gold.search_products`) need only this.
"""

from __future__ import annotations

import re

# Words and phrases in one FIND {...}: FTS5's cost grows with their square (prefix ORs).
MAX_SEARCH_TERMS = 20
# A backslash-escaped reserved character (\( \" \-) belongs to its word, as in SOSL.
_TERM_PART = re.compile(r'"(?:[^"\\]|\\.)*"?|[()]|(?:\\.|[^\s()"\\])+')
_WORD = re.compile(r"\w+")


class BadSearchTerm(ValueError):
    """A term SOSL refuses (its MALFORMED_SEARCH), in Salesforce's words."""


def fts_query(term: str, scope: str) -> str:
    """Translate a SOSL search term (words, "phrases", AND/OR/AND NOT, trailing *) to FTS5."""
    parts: list[str] = []
    letters = 0
    for piece in _TERM_PART.findall(term):
        word = piece.upper()
        if word in ("AND", "OR"):
            parts.append(word)
        elif word == "NOT":
            if parts and parts[-1] == "AND":
                parts.pop()
            parts.append("NOT")
        elif piece in "()":
            parts.append(piece)
        else:
            words = _WORD.findall(piece.replace("\\", " "))
            if not words:
                continue
            letters += sum(map(len, words))
            prefix = "*" if piece.rstrip('"').endswith(("*", "?")) else ""
            parts.append('"' + " ".join(words) + '"' + prefix)
    if letters < 2:
        raise BadSearchTerm("search term must be longer than one character")
    terms = sum(part.startswith('"') for part in parts)
    if terms > MAX_SEARCH_TERMS:
        raise BadSearchTerm(
            f"search term has {terms} terms; at most {MAX_SEARCH_TERMS} words or phrases"
        )
    expression = " ".join(parts)
    return f"name : ({expression})" if scope == "NAME" else expression
