"""Solving in conversation with a simulated customer (multi-turn solving).

The query stays hidden: the customer opens, the person replies in the chat pane while
browsing and querying as on the solve screen (all recorded as there), and the
conversation ends when the customer stops; the last reply is the answer, submitted and
scored by the service. Timer, pause, flag, skip and the browser are the solve screen's.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Markdown, Static

from crm_tui.study.service import Conversation
from crm_tui.tasks.pro_scoring import REFUSED_PREFIX
from crm_tui.tasks.simulated_user import ChatTurn
from crm_tui.tui.notices import notify_error
from crm_tui.tui.study.chat_pane import ChatPane
from crm_tui.tui.study.solve import SolveScreen, clock_text, query_place, training_feedback
from crm_tui.tui.styles import css_next_to

POLL_S = 1.0  # how often the screen looks for a customer played by a person


class ChatSolveScreen(SolveScreen):
    HELP_TITLE = "Solve a query in conversation"
    CSS_PATH = [*SolveScreen.CSS_PATH, *css_next_to(__file__)]

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="solve-head"):
            yield Static(
                Text.assemble(
                    (query_place(self.view), "bold"),
                    f" · {self.family.abbrev} · a customer is writing to you",
                ),
                id="solve-where",
            )
            yield Static("", id="timer")
        with VerticalScroll(id="solve-body"):
            yield Static("Context", classes="section-title")
            yield Markdown(self.view.item.required_context or "—", id="required-context")
            yield Static(
                "Ask the customer what you need to know, one question at a time; your "
                "last reply before the customer ends the conversation is your answer.",
                classes="hint",
            )
        yield ChatPane(id="chat")

    def on_mount(self, event: events.Mount | None = None) -> None:
        if event is not None:  # the solve screen's own mount looks for its answer entry
            event.prevent_default()
        self.title = f"Solve · {self.family.abbrev} · conversation"
        self.sub_title = self.person.name
        self._show_timer()
        self.set_interval(1, self._tick)
        self.shown_turns: tuple[ChatTurn, ...] = ()
        part = next((p for p in self.service.study.protocol.parts if p.kind == "solve"), None)
        if getattr(part, "simulated_user", None) == "person":
            # a person types the customer's side in their own time: look for it each second
            self.set_interval(POLL_S, self._poll)
        self.run_worker(self._open_conversation(), exclusive=True)

    async def _poll(self) -> None:
        if self.finished:
            return
        try:
            conversation = await self.service.run(self.service.conversation, self.view.attempt_id)
        except Exception:  # the next look may work; a lasting failure shows on sending
            return
        self._show(conversation)

    def _show(self, conversation: Conversation) -> None:
        pane = self.query_one(ChatPane)
        if conversation.turns != self.shown_turns:
            self.shown_turns = conversation.turns
            pane.show(conversation.turns)
        if conversation.done and not self.finished:
            pane.close()
            self._leave("The customer ended the conversation; your last reply is your answer.")

    async def _open_conversation(self) -> None:
        try:  # beside the writer: the customer may take seconds to open
            conversation = await self.service.run_beside(
                self.service.open_conversation, self.view.attempt_id
            )
        except Exception as error:
            notify_error(self, error)
            conversation = None
        if conversation is not None:
            self.shown_turns = conversation.turns
            self.query_one(ChatPane).show(conversation.turns)
        self.query_one(ChatPane).focus_entry()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        event.prevent_default()  # the solve screen's handler would submit as well
        await self.send_reply()

    def action_submit(self) -> None:
        self.run_worker(self.send_reply(), exclusive=True)

    async def _refusing(self, reason: str | None) -> None:
        """In conversation the refusal is the reply (`REFUSED: reason`), sent at once; the
        reply being written stays in its line."""
        if reason is not None:
            await self.send_reply(f"{REFUSED_PREFIX} {reason}")

    async def send_reply(self, said: str | None = None) -> None:
        pane = self.query_one(ChatPane)
        text = (said or pane.reply).strip()
        if self.finished or not text:
            return
        try:
            conversation = await self.service.run_beside(
                self.service.reply_to_customer, self.view.attempt_id, text
            )
        except Exception as error:
            notify_error(self, error, title="Not sent")
            return
        if said is None:
            pane.clear_reply()
        self.shown_turns = conversation.turns
        pane.show(conversation.turns)
        await self._resync()
        if conversation.done:
            pane.close()
            result = conversation.submitted
            message = "The customer ended the conversation; your last reply is your answer."
            if result is not None:
                message += f" {clock_text(result.active_ms)} of active time."
                message += training_feedback(result)
            self._leave(message)

    def action_answer_none(self) -> None:
        self.query_one(ChatPane).insert("None")

    async def use_as_answer(self, record_id: str, object_name: str) -> bool:
        """A record taken in the browser goes into the reply being written."""
        self.query_one(ChatPane).insert(record_id)
        await self.event("answer_used", {"record_id": record_id, "object": object_name})
        self.notify(f"{record_id} is in your reply; Enter sends it.", title="Taken")
        return True

    async def use_value_as_answer(self, value: str) -> bool:
        self.query_one(ChatPane).insert(value)
        await self.event("answer_used", {"value": value})
        self.notify(f"{value} is in your reply; Enter sends it.", title="Taken")
        return True
