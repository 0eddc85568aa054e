"""The customer role in a served study, in two real browser tabs: one person solves in
conversation, another plays the customer (seeing the hidden query); the customer opens,
the solver answers, the customer stops, and the answer is submitted and scored."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlmodel import select

from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, ConversationTurn
from crm_tui.study.work.clock import FakeClock
from tests.tui.study.test_multi_turn import make_study
from tests.tui.web.served_study import (
    CHROMIUM,
    CHROMIUM_ARGS,
    BrowserTab,
    invitation_code,
    serve,
    sign_in,
)

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: `.ci/run` installs Debian's chromium (as root)",
)
OPENER = "Hi, I need the agent with the lowest handle time."


@pytest.fixture
def person_study(tmp_path, small_org_path):
    path = tmp_path / "study.sqlite"
    gold = make_study(path, small_org_path, FakeClock(), simulated_user="person")
    return path, gold


@pytest.fixture
def served(tmp_path, small_org_path, person_study) -> Iterator[object]:
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(person_study[0]), "--study", "multi-turn")
    running = serve(*options, folder=tmp_path, env=env)
    yield running
    running.stop()


def test_one_tab_solves_while_another_plays_the_customer(served, person_study, tmp_path):
    path, gold = person_study
    solver_code = invitation_code(path, "multi-turn", "Ann", "annotator")
    customer_code = invitation_code(path, "multi-turn", "Cleo", "customer")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "chromium-profile",
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
        )
        try:
            solver, customer = BrowserTab(context.new_page()), BrowserTab(context.new_page())
            sign_in(solver, served.url, solver_code, "Next query")
            mark = solver.mark()
            solver.press("s")
            solver.wait_for_text("a customer is writing to you", since=mark)
            sign_in(customer, served.url, customer_code, "Play the customer")
            mark = customer.mark()
            customer.press("c")
            customer.wait_for_text("your turn", since=mark)
            customer.wait_for_text("Q2 2023", since=mark)  # the query, hidden from the solver
            mark = customer.mark()
            customer.type(OPENER)
            customer.wait_for_text(OPENER[-20:], since=mark)
            solver_mark = solver.mark()
            customer.press("Enter")
            customer.wait_for_text("the agent is writing", since=mark)
            solver.wait_for_text("lowest handle time", since=solver_mark)
            mark = solver.mark()
            solver.type(gold)
            solver.wait_for_text(gold, since=mark)
            customer_mark = customer.mark()
            solver.press("Enter")
            customer.wait_for_text("your turn", since=customer_mark)
            customer.wait_for_text(gold, since=customer_mark)
            solver_mark = solver.mark()
            customer.press("Control+e")  # answered: the customer stops
            customer.wait_for_text("has ended", since=customer_mark)
            solver.wait_for_text("ended the conversation", since=solver_mark)
        finally:
            context.close()
    with StudyStore.open(path) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
        turns = session.exec(select(ConversationTurn).order_by(ConversationTurn.position)).all()  # type: ignore[arg-type]
    assert (attempt.status, attempt.answer_raw, attempt.score) == (
        AttemptStatus.SUBMITTED,
        gold,
        1.0,
    )
    assert [(t.role, t.text) for t in turns] == [
        ("customer", OPENER),
        ("agent", gold),
        ("customer", "###STOP###"),
    ]
    assert turns[0].source == turns[2].source != "person"
    assert turns[0].at <= turns[1].at <= turns[2].at
