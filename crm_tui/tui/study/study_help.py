"""F1 on a study screen: the keys of every study screen and dialog, and the app's keys."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from crm_tui.tui.study.study_screen import StudyDialog, StudyScreen
from crm_tui.tui.styles import css_next_to

KEY_WIDTH = 24  # the same in every section, so that the descriptions line up


def key_rows(entries: Iterable[BindingType]) -> list[tuple[str, str]]:
    """(keys, what they do) for each entry: a Binding, a BINDINGS tuple (key, action,
    description), or a (key, description) pair written for this screen."""
    rows = []
    for entry in entries:
        if isinstance(entry, tuple) and len(entry) == 2:
            rows.append(entry)
            continue
        binding = entry if isinstance(entry, Binding) else Binding(*entry)
        keys = ", ".join(k.strip() for k in binding.key.split(","))
        rows.append((keys, binding.tooltip or binding.description))  # the tooltip says more
    return rows


def keys_table(title: str, bindings: Iterable[BindingType]) -> Table:
    table = Table(
        title=title, title_justify="left", show_header=False, box=None, padding=(0, 2), expand=True
    )
    # Only the description column takes the spare width: the key column keeps its width.
    table.add_column("Key", style="bold", width=KEY_WIDTH, no_wrap=True)
    table.add_column("Does", ratio=1)
    for keys, does in key_rows(bindings):
        table.add_row(keys, does)
    return table


def _screens_with_keys() -> list[type[StudyScreen] | type[StudyDialog[Any]]]:
    from crm_tui.tui.study import (  # noqa: F401  (all listed)
        adjudication_screen,
        audit_screen,
        customer_screen,
        dialogs,
        home,
        live_progress,
        people_quality,
        profile,
        realism,
        replay_screen,
        solve,
    )

    return [
        cls
        for base in (StudyScreen, StudyDialog)
        for cls in base.__subclasses__()
        if cls.HELP_TITLE
    ]


class StudyHelpScreen(ModalScreen[None]):
    CSS_PATH = css_next_to(__file__)
    BINDINGS = [("escape,f1,q", "app.pop_screen", "Close help")]

    def compose(self) -> ComposeResult:
        from crm_tui.tui.study.study_app import StudyApp  # which shows this screen

        with VerticalScroll(id="study-help-body"):
            yield Static("[b]crm-tui study keys[/b]  (Esc closes)")
            yield Static(
                keys_table(
                    "Every study screen",
                    StudyScreen.BINDINGS
                    + [
                        ("ctrl+p", "Command palette: open an object, jump to a record Id"),
                        ("tab, shift+tab", "Move between fields"),
                        ("ctrl+q", "Quit (your work is saved as you go)"),
                    ],
                )
            )
            for screen in _screens_with_keys():
                yield Static(keys_table(screen.HELP_TITLE, screen.BINDINGS))
            yield Static(
                keys_table(
                    "Record browser (back, forward and o work on its screens)",
                    [
                        b
                        for b in StudyApp.app_keys()
                        # A key without a description (Tab out of a field) is listed
                        # above, under every study screen.
                        if isinstance(b, Binding) and b.action != "help" and b.description
                    ]
                    + [
                        ("u", ("On a record page while solving: use it as my answer")),
                        ("f2", "On a browser screen: back to the study"),
                    ],
                )
            )
