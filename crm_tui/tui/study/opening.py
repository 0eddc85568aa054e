"""Where a study app waits while its study opens, when it has no first look to show (a
code first, a server, invitations): nothing of the org, which a person without a code
must not see, and nothing of anyone's work.

One line and no header: the screen often lives for a few milliseconds, and a Header
removed before it has set its title fails in Textual."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from crm_tui.tui.styles import css_next_to


class StudyOpeningScreen(Screen[None]):
    CSS_PATH = css_next_to(__file__)

    def compose(self) -> ComposeResult:
        yield Static("Opening the study…  (Ctrl+Q quits)", id="study-opening")
