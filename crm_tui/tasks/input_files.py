"""Reading the JSON files people hand in (task sets, agent results) without trusting them.

Only regular files are read (a FIFO or `/dev/zero` would hang or never end), up to
`MAX_INPUT_BYTES`; text must be UTF-8; JSON may nest at most `MAX_DEPTH` deep, hold no
integer past 64 bits and no lone surrogate (`\\ud800`, which no file or database can
store). Every refusal is a CrmTuiError naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from crm_tui.atomic import read_regular_file
from crm_tui.errors import CrmTuiError

MAX_INPUT_BYTES = 256 << 20  # CRMArena's largest result files are a few MB
MAX_DEPTH = 64  # CRMArena's rows nest 4 deep; tool calls a few more
MAX_INTEGER = 2**63 - 1  # what SQLite stores


def read_input(path: Path, what: str) -> bytes:
    """The bytes of a regular file of at most MAX_INPUT_BYTES, or a CrmTuiError."""
    return read_regular_file(path, what, MAX_INPUT_BYTES)


def loads(text: str, where: str) -> Any:
    """`json.loads` with every way it or the value can fail named after `where`.

    A JSONDecodeError passes through (callers word it with its line); nesting too deep,
    an integer too long, or a value no file can store become CrmTuiErrors.
    """
    try:
        value = json.loads(text, object_pairs_hook=_once_each)
    except RecursionError:
        raise CrmTuiError(f"{where}: JSON nested too deeply (over {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError:
        raise
    except DuplicateKeyError as exc:
        raise CrmTuiError(f"{where}: {exc}") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise CrmTuiError(f"{where}: a number in the JSON is too long ({exc})") from None
    check_value(value, where)
    return value


class DuplicateKeyError(ValueError):
    pass


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys appear once each: with a key twice, which value a reader
    takes is the reader's choice, so the file is refused."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(f"the key {key[:80]!r} appears twice in one object")
            seen.add(key)
    return value


def check_value(value: Any, where: str) -> None:
    """Refuse nesting past MAX_DEPTH, integers past 64 bits and lone surrogates."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise CrmTuiError(f"{where}: JSON nested too deeply (over {MAX_DEPTH} levels)")
        if isinstance(item, str):
            _check_text(item, where)
        elif isinstance(item, int) and not isinstance(item, bool):
            if not -MAX_INTEGER - 1 <= item <= MAX_INTEGER:
                raise CrmTuiError(f"{where}: the number {str(item)[:20]}... is out of range")
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_text(key, where)
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise CrmTuiError(
            f"{where}: text with a lone surrogate (such as \\ud800), which is not Unicode"
        ) from None
