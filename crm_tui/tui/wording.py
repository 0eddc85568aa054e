"""Words that depend on the words beside them: the article before a label."""

from __future__ import annotations


def a_or_an(word: str) -> str:
    """`word` with its indefinite article by its first letter: an Account, an Issue, a
    Case; a User too (the labels here that start with U sound like "you")."""
    return f"{'an' if word[:1].lower() in 'aeio' else 'a'} {word}"
