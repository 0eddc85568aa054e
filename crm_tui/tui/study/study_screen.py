"""What every study screen shares: header, footer, F1 help, the study service and the
profile at work, and service calls awaited off the UI loop with failures as notices."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, ScreenResultType
from textual.widgets import Header

from crm_tui.tui.notices import notify_error
from crm_tui.tui.typed_keys import OffersOnlyKeysThatAct
from crm_tui.tui.widgets.fitting_footer import FittingFooter

if TYPE_CHECKING:  # the service loads the study store: the first screen shows before it
    from crm_tui.study.service import Profile, StudyService

P = ParamSpec("P")
T = TypeVar("T")


class StudyScreen(OffersOnlyKeysThatAct[None]):
    """A screen of the study loop. Subclasses compose their body in `compose_body`."""

    HELP_TITLE = ""  # the section name on the F1 help screen
    BINDINGS = [Binding("f1", "study_help", "Help", id="study-help")]

    def __init__(self, service: StudyService, profile: Profile | None = None) -> None:
        super().__init__()
        self.service = service
        self.profile = profile  # who is working; None until chosen on the profile screen

    @property
    def person(self) -> Profile:
        """The profile at work (every study screen after the profile screen has one)."""
        assert self.profile is not None, "no profile chosen yet"
        return self.profile

    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_body()
        yield FittingFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    async def study(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T | None:
        """`call` (a method of the study service) on its writer thread, awaited without
        blocking the screen; a failure becomes a notice, and None."""
        try:
            return await self.service.run(call, *args, **kwargs)
        except Exception as error:
            notify_error(self, error)
            return None

    def action_study_help(self) -> None:
        from crm_tui.tui.study.study_help import StudyHelpScreen

        self.app.push_screen(StudyHelpScreen())


class StudyDialog(OffersOnlyKeysThatAct[ScreenResultType], ModalScreen[ScreenResultType]):
    """A modal of the study loop (pause, flag, submit, details), dismissed with a
    `ScreenResultType` (or None)."""

    HELP_TITLE = ""
