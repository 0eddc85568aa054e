"""An Input that recalls earlier entries with up and down, as a shell does, and the small
file that keeps those entries between sessions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Unpack

from textual.binding import Binding
from textual.widgets import Input

from crm_tui.atomic import write_text_atomically
from crm_tui.errors import CrmTuiError
from crm_tui.tui.widgets.widget_options import WidgetOptions

KEPT_ENTRIES = 200


class HistoryInput(Input):
    BINDINGS = [
        Binding("up", "older", "Older entry", show=False),
        Binding("down", "newer", "Newer entry", show=False),
    ]

    def __init__(
        self,
        history: list[str] | None = None,
        placeholder: str = "",
        **kwargs: Unpack[WidgetOptions],
    ) -> None:
        super().__init__(placeholder=placeholder, **kwargs)
        self.history = list(history or [])
        self._position = len(self.history)  # == len(history): the line being typed
        self._draft = ""

    def remember(self, text: str) -> None:
        """Add an entry (not twice in a row) and go back to a fresh line."""
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._position = len(self.history)
        self._draft = ""

    def action_older(self) -> None:
        if self._position == 0:
            return
        if self._position == len(self.history):
            self._draft = self.value  # kept, so down at the newest entry gives it back
        self._position -= 1
        self._recall()

    def action_newer(self) -> None:
        if self._position >= len(self.history):
            return
        self._position += 1
        self._recall()

    def _recall(self) -> None:
        at_draft = self._position == len(self.history)
        self.value = self._draft if at_draft else self.history[self._position]
        self.cursor_position = len(self.value)


def load_history(path: Path) -> list[str]:
    """Entries from a JSON-lines file (one JSON string per line); none if it is missing."""
    if not path.exists():
        return []
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            entry = None
        if not isinstance(entry, str):
            raise CrmTuiError(
                f"{path} line {number}: not a JSON string; fix or delete the file to keep a history"
            )
        entries.append(entry)
    return entries


def save_history(path: Path, entries: list[str]) -> None:
    """The newest entries, written whole (temp file, then rename) so a crash keeps the old."""
    text = "".join(json.dumps(e) + "\n" for e in entries[-KEPT_ENTRIES:])
    write_text_atomically(path, text, private=True)  # one person's queries
