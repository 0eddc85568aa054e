"""The chat pane of multi-turn solving: the simulated customer's messages and the
person's replies, newest at the bottom, and the line where the next reply is written."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from crm_tui.tasks.simulated_user import AGENT, CUSTOMER, STOP, ChatTurn


class ChatPane(Vertical):
    """The conversation and the reply line (styled in chat_solve.tcss, beside its screen).
    `me`: the side the person plays, the agent (solving) or the customer (the customer
    role); the other side's turns are on the left."""

    def __init__(self, *, me: str = AGENT, id: str | None = None) -> None:
        super().__init__(id=id)
        self.me = me

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="chat-log")
        other = "customer" if self.me == AGENT else "agent"
        yield Input(placeholder=f"Your reply to the {other} (Enter sends)", id="chat-input")

    def show(self, turns: Iterable[ChatTurn]) -> None:
        log = self.query_one("#chat-log", VerticalScroll)
        log.remove_children()
        for turn in turns:
            mine = turn.role == self.me
            text = turn.text.replace(STOP, "").strip() or "(ends the conversation)"
            other = "Customer: " if turn.role == CUSTOMER else "Agent: "
            label = ("You: " if mine else other, "bold")
            log.mount(
                Static(
                    Text.assemble(label, text), classes="chat-agent" if mine else "chat-customer"
                )
            )
        log.scroll_end(animate=False)

    @property
    def reply(self) -> str:
        return self.query_one("#chat-input", Input).value

    def clear_reply(self) -> None:
        self.query_one("#chat-input", Input).value = ""

    def insert(self, text: str) -> None:
        entry = self.query_one("#chat-input", Input)
        entry.insert_text_at_cursor(text)
        entry.focus()

    def focus_entry(self) -> None:
        self.query_one("#chat-input", Input).focus()

    def close(self) -> None:
        self.query_one("#chat-input", Input).disabled = True
