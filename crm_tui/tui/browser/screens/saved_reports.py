"""The saved reports (R, or Ctrl+O in the builder): pick one to open it in the builder."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from crm_tui.tui.styles import css_next_to


class SavedReportsScreen(ModalScreen[Path | None]):
    """Dismissed with the file picked, or None."""

    CSS_PATH = css_next_to(__file__)
    BINDINGS = [Binding("escape", "dismiss_none", "Close")]

    def __init__(self, folder: Path, files: list[Path]) -> None:
        super().__init__()
        self.folder = folder
        self.files = files

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-reports"):
            yield Static(f"[b]Saved reports[/b]  ({self.folder})", id="saved-reports-title")
            if self.files:
                yield OptionList(
                    *(Option(p.stem, id=str(i)) for i, p in enumerate(self.files)),
                    id="saved-reports-list",
                )
                yield Static("Enter opens the report in the builder; Esc closes.")
            else:
                yield Static("No saved reports yet: Ctrl+S in the report builder saves one.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.files[int(event.option.id or 0)])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
