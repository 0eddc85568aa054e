"""The customer role: a person plays the customer of another person's conversation.

The screen shows what the customer knows and the agent does not (the query), the persona
to play and the rules the simulated customer follows, beside the chat. It takes the first
conversation waiting for a customer and looks again each second: for the agent's replies,
and for a new conversation once one ends. Enter sends, Ctrl+E ends the conversation
(with what is written, if anything) once the agent has answered. The status line says
how many of the customer's turns are left; the agent's reply to the last one ends the
conversation, as with a simulated customer.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Markdown, Static

from crm_tui.study.service import CustomerView, Profile, StudyService
from crm_tui.tasks.simulated_user import CUSTOMER
from crm_tui.tui.notices import notify_error
from crm_tui.tui.study.chat_pane import ChatPane
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to

POLL_S = 1.0
WAITING = "No conversation is waiting for a customer yet; this screen looks again each second."


def status_line(view: CustomerView) -> str:
    """Whose turn it is and the customer's turns left, as a simulated customer has them."""
    turn = "your turn" if view.customers_turn else "the agent is writing"
    if view.turns_left == 0:
        left = "no turns left: the agent's next reply ends the conversation"
    else:
        plural = "" if view.turns_left == 1 else "s"
        left = f"{view.turns_left} of {view.max_user_turns} turn{plural} left"
    return f"Conversation {view.attempt_id} · {turn} · {left}"


class CustomerScreen(StudyScreen):
    CSS_PATH = [*css_next_to(__file__), Path(__file__).with_name("chat_solve.tcss")]
    HELP_TITLE = "Play the customer"
    BINDINGS = [
        Binding("ctrl+e", "stop", "Stop (answered)", id="stop", priority=True),
        Binding("escape", "leave", "Home", id="leave"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.current: CustomerView | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="customer-main"):
            with VerticalScroll(id="customer-brief"):
                yield Static("", id="customer-status")
                yield Static("What you want (the agent cannot see it)", classes="section-title")
                yield Markdown("", id="customer-query")
                yield Static("Who you are", classes="section-title")
                yield Static("", id="customer-persona")
                yield Static("How to play", classes="section-title")
                yield Static("", id="customer-rules", markup=False)
            yield ChatPane(me=CUSTOMER, id="chat")

    def on_mount(self) -> None:
        self.title = "Play the customer"
        self.sub_title = self.person.name
        self.set_interval(POLL_S, self._look)
        self.run_worker(self._look(), exclusive=True)

    async def _look(self) -> None:
        try:
            views = await self.service.run(self.service.customer_conversations, self.person.id)
        except Exception as error:
            notify_error(self, error)
            return
        keep = self.current.attempt_id if self.current is not None else None
        view = next((v for v in views if v.attempt_id == keep), None)
        if keep is not None and view is None:  # ended by the agent's reply to the last turn
            self.notify(f"Conversation {keep} has ended; thank you.", title="Ended")
        self._show(view or (views[0] if views else None))

    def _show(self, view: CustomerView | None) -> None:
        pane = self.query_one(ChatPane)
        changed = view != self.current
        self.current = view
        if not changed:
            return
        if view is None:
            self.query_one("#customer-status", Static).update(WAITING)
            pane.show(())
            return
        self.query_one("#customer-status", Static).update(status_line(view))
        self.query_one("#customer-query", Markdown).update(view.query)
        self.query_one("#customer-persona", Static).update(view.persona)
        self.query_one("#customer-rules", Static).update(view.rules)
        pane.show(view.turns)
        pane.focus_entry()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        await self._say(stop=False)

    async def action_stop(self) -> None:
        await self._say(stop=True)

    async def _say(self, *, stop: bool) -> None:
        pane = self.query_one(ChatPane)
        if self.current is None:
            self.notify(WAITING, severity="warning")
            return
        try:
            view = await self.service.run(
                self.service.customer_says,
                self.person.id,
                self.current.attempt_id,
                pane.reply,
                stop=stop,
            )
        except Exception as error:
            notify_error(self, error, title="Not sent")  # what was written stays
            return
        pane.clear_reply()
        if view.done:
            self.notify("The conversation has ended; thank you.", title="Stopped")
            self.current = None
            self._show(None)
            self.run_worker(self._look(), exclusive=True)
        else:
            self._show(view)

    def action_leave(self) -> None:
        self.dismiss()
