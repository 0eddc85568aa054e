"""Reading the generator's phrase and catalogue data: the TOML files in `data/`.

Each module that owns a file reads it once, on first use, through a `Table`: every
accessor checks the shape of what it returns, so a bad edit of a file stops generation
with the file and the key (`agent_phrases.toml: issues[2].info[0]: expected 2 strings`)
instead of an org that quietly differs. Values come back as tuples, so the generator
draws from the same sequences, in the same order, as before.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")


class DataFileError(ValueError):
    """A data file the generator cannot read: its name, the key and what was expected."""


class Table:
    """A table of a data file and the keys that lead to it (for messages)."""

    def __init__(self, file: str, path: str, value: dict[str, Any]) -> None:
        self.file = file
        self.path = path
        self.value = value

    @classmethod
    def read(cls, name: str, folder: Path = DATA_DIR) -> Table:
        """The top table of the data file `name` (say "assortment.toml")."""
        try:
            with (folder / name).open("rb") as f:
                return cls(name, "", tomllib.load(f))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise DataFileError(f"{name}: {e}") from e

    def where(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def error(self, key: str | int, expected: str) -> DataFileError:
        return DataFileError(f"{self.file}: {self.where(key)}: expected {expected}")

    def get(self, key: str) -> Any:
        if key not in self.value:
            raise DataFileError(f"{self.file}: {self.where(key)}: missing")
        return self.value[key]

    def keys(self) -> Iterator[str]:
        """The keys in the file's order."""
        return iter(self.value)

    def string(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise self.error(key, "a string")
        return value

    def integer(self, key: str) -> int:
        value = self.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(key, "an integer")
        return value

    def real(self, key: str) -> float:
        value = self.get(key)
        if not isinstance(value, float):
            raise self.error(key, "a number with a decimal point")
        return value

    def strings(self, key: str, *, size: int | None = None, empty: bool = False) -> tuple[str, ...]:
        """A list of strings (of `size` items if given; else at least one, or none if `empty`)."""
        return strings_of(self.get(key), self, key, size, empty)

    def integers(self, key: str, *, size: int | None = None) -> tuple[int, ...]:
        value = self.get(key)
        if (
            not isinstance(value, list)
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
            or (size is not None and len(value) != size)
        ):
            raise self.error(key, f"a list of {size or ''} integers".replace("  ", " "))
        return tuple(value)

    def string_lists(self, key: str, *, size: int | None = None) -> tuple[tuple[str, ...], ...]:
        """A list of lists of strings (each of `size` items if given)."""
        value = self.get(key)
        if not isinstance(value, list) or not value:
            raise self.error(key, "a list of lists of strings")
        inner = Table(self.file, self.where(key), {})
        return tuple(strings_of(item, inner, i, size, False) for i, item in enumerate(value))

    def table(self, key: str) -> Table:
        value = self.get(key)
        if not isinstance(value, dict):
            raise self.error(key, "a table")
        return Table(self.file, self.where(key), value)

    def tables(self, key: str) -> tuple[Table, ...]:
        """An array of tables (`[[key]]`), at least one."""
        value = self.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(x, dict) for x in value):
            raise self.error(key, "an array of tables")
        return tuple(Table(self.file, f"{self.where(key)}[{i}]", x) for i, x in enumerate(value))


def strings_of(
    value: Any, parent: Table, key: str | int, size: int | None, empty: bool
) -> tuple[str, ...]:
    ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
    if not ok or (len(value) != size if size is not None else not (value or empty)):
        raise parent.error(key, f"{size} strings" if size else "a list of strings")
    return tuple(value)
