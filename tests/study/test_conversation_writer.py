"""A simulated customer that takes its time (an LLM answering in seconds) holds neither the
study file's write lock nor the service's writer thread: other people's writes and the
same session's other calls go on while it thinks, and its answer is stored afterwards."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlmodel import select

from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import ConversationTurn
from crm_tui.study.work import conversations
from crm_tui.study.work.profiles import create_profile
from crm_tui.tasks.simulated_user import ChatTurn, UserMessage
from tests.helpers.turn_modes_study import one_conversation

WAIT_S = 10  # how long the slow customer thinks at most (it is released far sooner)
FREE_S = 3  # a write that is not held up finishes well within this


@dataclass
class SlowCustomer:
    """A customer whose every answer waits until the test releases it."""

    started: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    source: str = "llm"

    def respond(self, dialogue: Sequence[ChatTurn]) -> UserMessage:
        self.started.set()
        self.release.wait(WAIT_S)
        return UserMessage("Over the second quarter." if dialogue else "Hi, a question.", False)


def write_elsewhere(path: Path, name: str, done: threading.Event) -> None:
    """Another person's session writes to the same file (a profile of its own)."""
    with StudyStore.open_existing(path) as other:
        create_profile(other, name, "Customer Service Associate", 2)
    done.set()


def others_write_while_it_answers(path: Path, name: str, call, *args) -> bool:
    """Run `call` (which asks the slow customer at its end: `args[-1]`) and, while the
    customer thinks, another person's write: whether that write finished meanwhile."""
    customer: SlowCustomer = args[-1]
    customer.started.clear()
    customer.release.clear()
    asking = threading.Thread(target=call, args=args)
    asking.start()
    assert customer.started.wait(WAIT_S)
    done = threading.Event()
    threading.Thread(target=write_elsewhere, args=(path, name, done), daemon=True).start()
    free = done.wait(FREE_S)
    customer.release.set()
    asking.join(WAIT_S)
    return free


def test_a_slow_customer_does_not_hold_the_study_file_while_it_answers(tmp_path):
    path = tmp_path / "study.sqlite"
    attempt_id = one_conversation(path)
    customer = SlowCustomer()
    with StudyStore.open_existing(path) as store:
        opening = (conversations.open_conversation, store, attempt_id, customer)
        assert others_write_while_it_answers(path, "Eli", *opening), "waited for the opener"
        answer = (conversations.reply, store, attempt_id, "Which period?", customer)
        assert others_write_while_it_answers(path, "Fay", *answer), "waited for the answer"
        with store.transaction() as session:
            turns = session.exec(
                select(ConversationTurn).order_by(ConversationTurn.position)  # type: ignore[arg-type]
            ).all()
    assert [(t.role, t.source) for t in turns] == [
        ("customer", "llm"),
        ("agent", "person"),
        ("customer", "llm"),
    ]
    assert turns[-1].text == "Over the second quarter."


def test_a_slow_customer_leaves_the_services_writer_free(tmp_path, monkeypatch):
    path = tmp_path / "study.sqlite"
    attempt_id = one_conversation(path)
    customer = SlowCustomer()
    monkeypatch.setattr(conversations, "simulated_user_for", lambda study, instance: customer)
    with StudyService.open(path) as service:
        customer.release.set()
        service.open_conversation(attempt_id)
        customer.started.clear()
        customer.release.clear()
        answered = threading.Thread(
            target=service.reply_to_customer, args=(attempt_id, "Which period?")
        )
        answered.start()
        assert customer.started.wait(WAIT_S)
        queued = service.submit(service.is_interactive, attempt_id)
        try:
            assert queued.result(FREE_S), "the writer waited for the customer's answer"
        finally:
            customer.release.set()
            answered.join(WAIT_S)
        turns = service.open_conversation(attempt_id).turns
    assert [t.role for t in turns] == ["customer", "agent", "customer"]
