"""Messages the browser posts for other screens to take."""

from __future__ import annotations

from textual.message import Message


class UseAsAnswer(Message):
    """The person chose this record as their answer (the solve screen takes it)."""

    def __init__(self, record_id: str, object_name: str) -> None:
        super().__init__()
        self.record_id = record_id
        self.object_name = object_name
