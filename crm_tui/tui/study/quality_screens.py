"""The quality-control screens of a study: the consent text to agree to or decline, a task
family's guidelines, and the post-study questions. Home shows where a person stands (the
qualification, the end with a completion code) in its next-step line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Markdown

from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to

if TYPE_CHECKING:
    from crm_tui.study.service import Profile, Standing, StudyService

STAGE_TEXT = {
    "practice": "Qualification: practice queries, with feedback after each — press [b]s[/b].",
    "failed": (
        "You did not pass the qualification this time, so the study ends here for now. "
        "The study coordinator can let you try again."
    ),
    "stopped": (
        "Your part in this study has ended. Thank you for your time: the study "
        "coordinator will be in touch."
    ),
    "declined": "You declined to take part.",
    "post_study": "Last: a few questions about the study — press [b]q[/b].",
}


def standing_text(standing: Standing) -> str | None:
    """The home screen's line for a stage that is not plain work; None for plain work."""
    if standing.stage == "practice" and standing.practice_items:
        return (
            f"Qualification (try {max(1, standing.practice_try)} of {standing.tries_allowed}): "
            f"{standing.pass_correct} of {standing.practice_items} practice queries right "
            "opens the study — press [b]s[/b]."
        )
    if standing.stage == "done" and standing.completion_code:
        return (
            "All parts are done. Thank you! Your completion code: "
            f"[b]{standing.completion_code}[/b]"
        )
    return STAGE_TEXT.get(standing.stage)


class ConsentScreen(StudyScreen):
    """The consent text; agreeing goes on, declining ends the session."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Consent"
    BINDINGS = [Binding("escape", "decline", "Decline", show=False)]

    def __init__(self, service: StudyService, profile: Profile, title: str, text: str) -> None:
        super().__init__(service, profile)
        self.consent_title, self.text = title, text

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="consent-text"):
            yield Markdown(self.text)
        with Horizontal(id="consent-buttons"):
            yield Button("I agree", id="agree", variant="primary")
            yield Button("I decline", id="decline")

    def on_mount(self) -> None:
        self.title = self.consent_title
        self.query_one("#agree", Button).focus()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self._answer(event.button.id == "agree")

    async def action_decline(self) -> None:
        await self._answer(False)

    async def _answer(self, agree: bool) -> None:
        standing = await self.study(self.service.give_consent, self.person.id, agree)
        if standing is None:
            return
        if not agree:
            self.app.exit(message="You declined to take part. Nothing else was kept.")
            return
        self.dismiss()


class GuidelinesScreen(StudyScreen):
    """A task family's guidelines; any key that closes it goes back."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Guidelines"
    BINDINGS = [Binding("escape", "close", "Close"), Binding("enter", "close", "Close")]

    def __init__(self, service: StudyService, profile: Profile, text: str) -> None:
        super().__init__(service, profile)
        self.text = text

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="guidelines-text"):
            yield Markdown(self.text)
        yield Button("Go on", id="guidelines-close", variant="primary")

    def on_mount(self) -> None:
        self.title = "Guidelines"

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


class PostStudyScreen(StudyScreen):
    """Short questions at the end: a 1-5 answer per family, then free text."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "A few questions"

    def __init__(
        self, service: StudyService, profile: Profile, questions: list[tuple[str, str, str]]
    ) -> None:
        super().__init__(service, profile)
        self.questions = questions

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="post-study"):
            for n, (key, prompt, kind) in enumerate(self.questions):
                yield Label(prompt)
                yield Input(
                    placeholder="1-5" if kind == "scale" else "",
                    id=f"q{n}",
                    name=key,
                    restrict=r"[1-5]?" if kind == "scale" else None,
                )
            yield Button("Send", id="post-send", variant="primary")

    def on_mount(self) -> None:
        self.title = "A few questions"

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        answers = {
            field.name: field.value for field in self.query(Input) if field.name and field.value
        }
        if await self.study(self.service.answer_post_study, self.person.id, answers) is not None:
            self.dismiss()
