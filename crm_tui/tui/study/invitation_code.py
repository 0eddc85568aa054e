"""The first screen of a multi-person study: the invitation code. The profile and its
role come from the code (never from a list), and the person sees only their own profile.

One Input (`#invitation-code`), Enter submits; a bad code shows one line in
`#invitation-code-message` and reaches nothing. `crm-tui web`'s browser test types here.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, Input, Label, Static

from crm_tui.errors import CrmTuiError
from crm_tui.study.service import Profile
from crm_tui.tui.notices import explain
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.fitting_footer import FittingFooter

PROMPT = "Type the invitation code you were given (4 groups of 4 characters) and press Enter:"
# Once anyone is invited, every profile is reached by its code: say so to the people whose
# profiles were made here before (they were never given one).
NO_CODE_YET = (
    "This study opens with invitation codes. Made a profile here before codes were used? "
    "Your work is kept: ask the study coordinator for your code "
    '(`crm-tui study invite "Your Name"` gives an existing profile one).'
)


# A browser tab left on the code screen holds one of the server's places (and an app of
# ~130 MB): without a code within this many seconds, its app ends and the place is freed.
CODE_WAIT_S = 600.0


class InvitationCodeScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Invitation code"
    # The field takes Enter itself; this shows the key in the footer and F1, and submits
    # when the focus is elsewhere.
    BINDINGS = [Binding("enter", "submit_code", "Open my profile", id="submit-code")]

    def compose_body(self) -> ComposeResult:
        yield Static(f"Study: {self.service.study.name}", classes="screen-title")
        with Vertical(id="invitation-body"):
            yield Label(PROMPT, id="invitation-code-label")
            yield Input(placeholder="XXXX-XXXX-XXXX-XXXX", id="invitation-code", max_length=40)
            yield Static("", id="invitation-code-message")
            yield Static(NO_CODE_YET, id="invitation-code-help", classes="hint")

    def on_mount(self) -> None:
        self.title = "Invitation code"
        self.query_one("#invitation-code", Input).focus()
        source: str = getattr(self.app, "code_source", "terminal")
        self.wait = (
            self.set_timer(CODE_WAIT_S, self._no_code_in_time)
            if source.startswith("browser")
            else None
        )

    def _no_code_in_time(self) -> None:
        if self.app.screen is self:  # nobody opened a profile from this tab
            self.app.exit(message="No invitation code was entered in time; reload to try again.")

    async def action_submit_code(self) -> None:
        await self._redeem(self.query_one("#invitation-code", Input))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        await self._redeem(event.input)

    async def _redeem(self, field: Input) -> None:
        code = field.value.strip()
        if not code:
            return
        message = self.query_one("#invitation-code-message", Static)
        message.update("Checking…")
        source: str = getattr(self.app, "code_source", "terminal")
        try:
            profile = await self.service.run(self.service.redeem_code, code, source)
        except CrmTuiError as error:  # wrong, expired, revoked, locked out: one line
            message.update(str(error))
            field.select_all()  # typing replaces it; an arrow key keeps it to fix one character
            return
        except Exception as error:
            message.update(explain(self, error))
            return
        field.value = ""  # the code stays on no screen
        message.update("")
        if self.wait is not None:
            self.wait.stop()
        self._continue_as(profile)

    def _continue_as(self, profile: Profile) -> None:
        from crm_tui.tui.study.home import HomeScreen

        self.app.push_screen(HomeScreen(self.service, profile))


class NoStudyScreen(Screen[None]):
    """Where an app that needs a code stops when its study cannot open: nothing of the
    org, nothing of anyone's work."""

    CSS_PATH = css_next_to(__file__)

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="invitation-body"):
            yield Static(
                f"The study cannot open: {self.reason}\nAsk the study coordinator; Ctrl+Q quits.",
                id="invitation-code-message",
            )
        yield FittingFooter()
