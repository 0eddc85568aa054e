"""The list view's filter bar: a field from the catalogue, an operator and a value."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Input, Select

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Filter, Operator, validate_filter
from crm_tui.org.schema.catalogue import SObject


class FilterBar(Horizontal):
    """Posts `FilterBar.Applied` with a filter already checked against the catalogue."""

    class Applied(Message):
        def __init__(self, flt: Filter) -> None:
            super().__init__()
            self.filter = flt

    def __init__(self, obj: SObject, **kwargs) -> None:
        super().__init__(**kwargs)
        self.obj = obj

    def compose(self) -> ComposeResult:
        fields = [(f"{f.label} ({f.name})", f.name) for f in self.obj.fields]
        yield Select(fields, prompt="Field", id="filter-field")
        yield Select(
            [(op.value, op.value) for op in Operator],
            value=Operator.EQ.value,
            allow_blank=False,
            id="filter-operator",
        )
        yield Input(placeholder="value", id="filter-value")
        yield Button("Add filter", id="filter-apply", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.apply()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.apply()

    def apply(self) -> None:
        field = self.query_one("#filter-field", Select).value
        if field is Select.NULL:
            self.notify("Choose a field to filter on", severity="warning")
            return
        operator = Operator(self.query_one("#filter-operator", Select).value)
        value = self.query_one("#filter-value", Input).value if operator.takes_value else None
        flt = Filter(str(field), operator, value)
        try:
            validate_filter(self.obj, flt)
        except CrmTuiError as exc:
            self.notify(str(exc), title="Filter", severity="error")
            return
        self.post_message(self.Applied(flt))
