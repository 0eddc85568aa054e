"""The solve screen's modals: pause, domain details, confirm-and-rate-confidence, flag,
refuse."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Label, Markdown, Select, Static

from crm_tui.study.service import Taxonomy
from crm_tui.tui.study.study_screen import StudyDialog
from crm_tui.tui.styles import css_next_to


class PauseDialog(StudyDialog[None]):
    """Covers the whole screen (the query included) until the person resumes."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Paused"
    BINDINGS = [Binding("enter,escape,f5", "dismiss", "Resume")]

    def compose(self) -> ComposeResult:
        with Vertical(id="pause-box", classes="dialog"):
            yield Static(
                "[b]Paused[/b]\n\nThe clock is stopped and the query is hidden.\n"
                "Press Enter to resume."
            )


class DetailsDialog(StudyDialog[None]):
    """The optional domain details (`metadata.optional`)."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Domain details"
    BINDINGS = [Binding("escape,f3", "dismiss", "Close")]

    def __init__(self, details: str) -> None:
        super().__init__()
        self.details = details

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="details-box", classes="dialog"):
            yield Markdown(self.details or "_This query has no domain details._")


class SubmitDialog(StudyDialog[int]):
    """Shows the answer about to be submitted; a key 1-5 (confidence) submits it."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Submit"
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"dismiss({n})", f"Confidence {n}", show=n in (1, 5))
            for n in range(1, 6)
        ),
        Binding("escape", "dismiss(None)", "Back"),
    ]

    def __init__(self, answer: str | None) -> None:
        super().__init__()
        self.answer = answer

    def compose(self) -> ComposeResult:
        shown = "None (no answer)" if self.answer is None else self.answer
        with Vertical(id="submit-box", classes="dialog"):
            yield Label("[b]Submit this answer?[/b]")
            yield Static(shown, id="submit-answer", markup=False)
            yield Static(
                "How confident are you? Press 1 (a guess) … 5 (certain) to submit, Esc to go back."
            )


class SkipDialog(StudyDialog[bool]):
    """Skipping cannot be undone: ask once, so F7 next to F6 is never pressed by mistake."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Skip"
    BINDINGS = [
        Binding("enter,y", "dismiss(True)", "Skip it"),
        Binding("escape,n", "dismiss(False)", "Back"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="skip-box", classes="dialog"):
            yield Label("[b]Skip this query?[/b]")
            yield Static(
                "It will not come back, and anything typed for it is not an answer. "
                "Enter or y skips, Esc goes back to it."
            )


@dataclass(frozen=True)
class FlagInput:
    category: str
    comment: str
    suggested_answer: str | None


class FlagDialog(StudyDialog[FlagInput]):
    """Flag this query: a category of the audit taxonomy, a comment, a suggested answer."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Flag this query"
    BINDINGS = [Binding("ctrl+s", "send", "Send flag"), Binding("escape", "dismiss", "Cancel")]

    def __init__(self, taxonomy: Taxonomy) -> None:
        super().__init__()
        self.taxonomy = taxonomy

    def compose(self) -> ComposeResult:
        with Vertical(id="flag-box", classes="dialog"):
            yield Label("[b]Flag this query[/b] — what is wrong with it?")
            yield Select(
                [(c.label, c.key) for c in self.taxonomy.categories],
                prompt="Category",
                id="flag-category",
            )
            yield Static("", id="flag-description")
            yield Input(placeholder="Comment: what makes it wrong?", id="flag-comment")
            yield Input(
                placeholder="The answer you believe is right (optional)", id="flag-suggested"
            )
            yield Static(
                "Ctrl+S or Enter in the last field sends the flag; Esc cancels. "
                "You keep working on the query afterwards.",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#flag-category", Select).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        category = next((c for c in self.taxonomy.categories if c.key == event.value), None)
        self.query_one("#flag-description", Static).update(category.description if category else "")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "flag-suggested":
            self.action_send()
        else:
            self.focus_next()

    def action_send(self) -> None:
        category = self.query_one("#flag-category", Select).value
        if category is Select.NULL:
            self.notify("Pick a category first.", severity="error")
            self.query_one("#flag-category", Select).focus()
            return
        suggested = self.query_one("#flag-suggested", Input).value.strip()
        self.dismiss(
            FlagInput(
                str(category), self.query_one("#flag-comment", Input).value, suggested or None
            )
        )


class RefuseDialog(StudyDialog[str]):
    """Refuse the request, with a reason: what a customer asks may be private customer
    information, internal operation data or confidential company knowledge."""

    CSS_PATH = css_next_to(__file__)

    HELP_TITLE = "Refuse this request"
    BINDINGS = [Binding("ctrl+s", "send", "Refuse"), Binding("escape", "dismiss", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="refuse-box", classes="dialog"):
            yield Label("[b]Refuse this request?[/b]")
            yield Static(
                "Refuse when answering would disclose what must not be: another customer's "
                "information, internal figures, or internal-only knowledge. Your refusal is "
                "your answer."
            )
            yield Input(placeholder="Reason: why you cannot answer", id="refuse-reason")
            yield Static("Enter or Ctrl+S refuses; Esc goes back to the query.", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#refuse-reason", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_send()

    def action_send(self) -> None:
        reason = " ".join(self.query_one("#refuse-reason", Input).value.split())
        if not reason:
            self.notify("Give a reason first.", severity="error")
            return
        self.dismiss(reason)
