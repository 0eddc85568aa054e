"""What every study screen shares: header, footer, F1 help, the study context, and
service calls that turn a user error into a notification."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Header

from crm_tui.errors import CrmTuiError
from crm_tui.tui.study.context import StudyContext

T = TypeVar("T")


class StudyScreen(Screen):
    """A screen of the study loop. Subclasses compose their body in `compose_body`."""

    HELP_TITLE = ""  # the section name on the F1 help screen
    BINDINGS = [Binding("f1", "study_help", "Help", id="study-help")]

    def __init__(self, ctx: StudyContext) -> None:
        super().__init__()
        self.ctx = ctx

    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()

    async def service(self, call: Callable[..., T], *args, **kwargs) -> T | None:
        """A study-service call on the writer thread; a user error becomes a notification
        and None."""
        try:
            return await self.ctx.call(call, *args, **kwargs)
        except CrmTuiError as exc:
            self.notify(str(exc), title="Cannot do that", severity="error")
            return None

    def action_study_help(self) -> None:
        from crm_tui.tui.study.study_help import StudyHelpScreen

        self.app.push_screen(StudyHelpScreen())


class StudyDialog(ModalScreen):
    """A modal of the study loop (pause, flag, submit, details)."""

    HELP_TITLE = ""
