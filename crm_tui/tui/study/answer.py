"""Answer entry fitted to the task's answer type: a record Id (typed, or taken from the
browser with "use as my answer"), a month, a state, free text; or the explicit "None"."""

from __future__ import annotations

import calendar
from typing import Unpack

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Select, Static

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.ids import is_valid_id
from crm_tui.tui.widgets.widget_options import WidgetOptions
from crm_tui.tui.wording import a_or_an

MONTHS = tuple(calendar.month_name[1:])


def us_states() -> list[tuple[str, str]]:
    """(code, name) of the 50 states and DC, in code order as Faker lists them."""
    # Imported here: Faker's providers take a while to load, and the app's start does
    # without them.
    from faker.providers.address.en_US import Provider as UsAddresses

    codes = [c for c in UsAddresses.states_abbr if c != "DC"]
    names = dict(zip(codes, UsAddresses.states, strict=True)) | {"DC": "District of Columbia"}
    return [(code, names[code]) for code in UsAddresses.states_abbr]


class AnswerEntry(Vertical):
    """`answer` is the text to submit, None for the explicit "None", or "" when empty."""

    def __init__(
        self, answer_type: str, answer_object: str | None, **kwargs: Unpack[WidgetOptions]
    ) -> None:
        super().__init__(**kwargs)
        self.answer_type = answer_type
        self.answer_object = answer_object
        self.explicit_none = False

    def compose(self) -> ComposeResult:
        yield Static(self._label(), id="answer-label")
        match self.answer_type:
            case "month":
                yield Select([(m, m) for m in MONTHS], prompt="Pick a month", id="answer-choice")
            case "state":
                yield Select(
                    [(f"{code} — {name}", code) for code, name in us_states()],
                    prompt="Pick a state",
                    id="answer-choice",
                )
            case "record_id":
                label = self._object_label() if self.answer_object else "record"
                yield Input(
                    placeholder=f"{label} Id: type it, or F2 → open the record → u",
                    id="answer-text",
                    select_on_focus=False,  # a restored draft: typing goes on after it
                )
            case _:
                yield Input(placeholder="Type your answer", id="answer-text", select_on_focus=False)
        yield Static("", id="answer-state")

    def _label(self) -> str:
        if self.answer_type == "record_id" and self.answer_object:
            label = self._object_label()
            return f"Your answer: the Id of {a_or_an(label)} record"
        return {
            "month": "Your answer: a month",
            "state": "Your answer: a US state",
        }.get(self.answer_type, "Your answer")

    @property
    def answer(self) -> str | None:
        if self.explicit_none:
            return None
        widget = self.query_one("#answer-choice, #answer-text")
        if isinstance(widget, Select):
            return "" if widget.value is Select.NULL else str(widget.value)
        assert isinstance(widget, Input)  # #answer-text
        return widget.value.strip()

    def problem(self) -> str | None:
        """Why the answer cannot be submitted as it is (None when it can)."""
        answer = self.answer
        if answer is None:
            return None
        if not answer:
            return "No answer yet: enter one, or press F6 for an explicit “None”."
        if self.answer_type == "record_id":
            return self.wrong_record(answer)
        return None

    def _object_label(self) -> str:
        """The answer object's label as the org describes it (while the org is out of
        reach, its API name)."""
        backend = self.app.backend  # type: ignore[attr-defined]
        try:
            return str(backend.describe(self.answer_object).label)
        except CrmTuiError:
            return str(self.answer_object)

    def wrong_record(self, record_id: str) -> str | None:
        backend = self.app.backend  # type: ignore[attr-defined]
        try:
            obj = backend.object_for_id(record_id) if is_valid_id(record_id) else None
            wanted = backend.describe(self.answer_object) if self.answer_object else None
        except CrmTuiError as error:  # the org out of reach: the answer waits for it
            return str(error)
        if obj is None:
            return f"{record_id!r} is not a record Id of this org."
        if wanted is not None and obj.name != wanted.name:
            return (
                f"This query asks for {a_or_an(wanted.label)} Id; "
                f"{record_id} is {a_or_an(obj.label)}."
            )
        return None

    def fill(self, value: str) -> None:
        """Put a value in the field (from "use as my answer")."""
        self.explicit_none = False
        self.query_one("#answer-text", Input).value = value
        self._show_state()

    def take(self, value: str) -> bool:
        """Put a value from the browser in the field (a state, a month, text); False when
        it is not one of the choices."""
        widget = self.query_one("#answer-choice, #answer-text")
        if isinstance(widget, Select):
            choices = MONTHS if self.answer_type == "month" else [c for c, _ in us_states()]
            if value not in choices:
                return False
            widget.value = value
        elif isinstance(widget, Input):
            widget.value = value
        self.explicit_none = False
        self._show_state()
        return True

    def restore(self, value: str) -> None:
        """Show a draft kept from before a restart (a month, a state, or typed text)."""
        widget = self.query_one("#answer-choice, #answer-text")
        if isinstance(widget, Select):
            choices = MONTHS if self.answer_type == "month" else [c for c, _ in us_states()]
            if value in choices:
                widget.value = value
        elif isinstance(widget, Input):  # #answer-text
            widget.value = value
            widget.cursor_position = len(value)  # go on typing after it, as it was left

    def set_none(self) -> None:
        self.explicit_none = True
        self._show_state()

    def focus_entry(self) -> None:
        self.query_one("#answer-choice, #answer-text").focus()

    class Edited(Message):
        """The answer field changed (typed, picked or filled from the browser)."""

        def __init__(self, answer: str) -> None:
            super().__init__()
            self.answer = answer

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value:
            self.explicit_none = False
        self._show_state()
        self.post_message(self.Edited(event.value))

    def on_select_changed(self, event: Select.Changed) -> None:
        self.explicit_none = False
        self._show_state()
        if event.value is not Select.NULL:
            self.post_message(self.Edited(str(event.value)))

    def _show_state(self) -> None:
        state = self.query_one("#answer-state", Static)
        if self.explicit_none:
            state.update(Text("Answer: None — you say the query has no answer.", style="bold"))
        else:
            state.update("")
