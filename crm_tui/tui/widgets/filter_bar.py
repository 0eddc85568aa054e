"""The list view's filter bar: a field of the object (as the backend describes it), an
operator and a value."""

from __future__ import annotations

from typing import Unpack

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Select

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Filter, Operator, SObject, validate_filter
from crm_tui.tui.notices import notify_error
from crm_tui.tui.widgets.widget_options import WidgetOptions


class FilterBar(Horizontal):
    """Posts `FilterBar.Applied` with a filter already checked against the object's fields
    (none until `show_object` gives them: the list view describes the object in a worker)."""

    class Applied(Message):
        def __init__(self, flt: Filter) -> None:
            super().__init__()
            self.filter = flt

    def __init__(self, obj: SObject | None = None, **kwargs: Unpack[WidgetOptions]) -> None:
        super().__init__(**kwargs)
        self.obj = obj

    def compose(self) -> ComposeResult:
        yield Select(self._field_options(), prompt="Field", id="filter-field")
        yield Select(
            [(op.value, op.value) for op in Operator],
            value=Operator.EQ.value,
            allow_blank=False,
            id="filter-operator",
        )
        yield Input(placeholder="value", id="filter-value")
        yield Button("Add filter", id="filter-apply", variant="primary")

    def show_object(self, obj: SObject) -> None:
        """Offer the fields of `obj`."""
        self.obj = obj
        self.query_one("#filter-field", Select).set_options(self._field_options())

    def _field_options(self) -> list[tuple[str, str]]:
        fields = self.obj.fields if self.obj else ()
        return [(f"{f.label} ({f.name})", f.name) for f in fields]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.apply()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.apply()

    def apply(self) -> None:
        field = self.query_one("#filter-field", Select).value
        if field is Select.NULL or self.obj is None:
            self.notify("Choose a field to filter on", severity="warning")
            return
        operator = Operator(str(self.query_one("#filter-operator", Select).value))  # never blank
        value = self.query_one("#filter-value", Input).value if operator.takes_value else None
        flt = Filter(str(field), operator, value)
        try:
            validate_filter(self.obj, flt)
        except CrmTuiError as exc:
            notify_error(self, exc, title="Filter")
            return
        self.post_message(self.Applied(flt))
