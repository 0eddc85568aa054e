"""Multi-turn solving in the app: an interactive item end to end with the scripted
customer (ask for the period, get it, answer, the customer stops, the answer is scored),
and with the LLM customer on litellm's mock responses."""

from __future__ import annotations

from contextlib import asynccontextmanager

from sqlmodel import select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Attempt, AttemptStatus, ConversationTurn
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study
from crm_tui.tasks.families import get_family
from crm_tui.tui.app import Launch, create_app
from crm_tui.tui.study.chat_pane import ChatPane
from crm_tui.tui.study.chat_solve import ChatSolveScreen
from tests.helpers.llm import importorskip_litellm
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import type_text
from tests.helpers.turn_modes_study import study_report

SIZE = (120, 40)
FILL = {"threshold": "more than two cases", "period": "in Q2 2023", "extreme": "lowest"}


def handle_time_row(org: OrgStore) -> dict:
    """A handle_time query as the generator writes one (template 0), gold a real User."""
    family = get_family("handle_time")
    gold = org.rows("User", "1 ORDER BY Id LIMIT 2")[1]["Id"]
    query = family.templates[0].format(**FILL) + " " + family.suffix
    return {
        "idx": 0,
        "task": "handle_time",
        "answer": gold,
        "reward_metric": family.metric,
        "query": query,
        "metadata": {"required": "- Today's date: 2023-07-15", "optional": ""},
        "crm_tui": {
            "persona": family.persona,
            "answer_type": family.answer_type,
            "answer_object": family.answer_object,
            "template": 0,
            "params": {"period": "Q2 2023", "today": "2023-07-15"},
            "org": org.fingerprint,
        },
    }


def make_study(path, org_path, clock, simulated_user="scripted"):
    preset, preset_path = load_preset("paper-expert-study")
    solve = preset.solve.model_copy(
        update={"items": 1, "interactive": "all", "simulated_user": simulated_user}
    )
    preset = preset.model_copy(update={"parts": [solve]})
    with OrgStore.open(org_path) as org, StudyStore.open(path, clock) as store:
        row = handle_time_row(org)
        create_study(
            store,
            "multi-turn",
            preset,
            instances=[row],
            task_set_hash="sha256:crafted",
            org_fingerprint=org.fingerprint,
            preset_path=preset_path,
        )
        create_profile(store, "Dana", "Customer Service Associate", 6)
    return row["answer"]


@asynccontextmanager
async def solving_in_conversation(path, org_path, clock):
    """The app on the study at `path`, the first profile picked and its query open in
    conversation."""
    app = create_app(Launch(org_path=org_path, study=path, study_clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter", "s")
        await settle(pilot)
        assert isinstance(app.screen, ChatSolveScreen)
        yield app, pilot


async def say(pilot, text):
    await type_text(pilot, text)
    await pilot.press("enter")
    await settle(pilot)


def chat_texts(app) -> list[str]:
    return [str(s.render()) for s in app.screen.query_one(ChatPane).query(".chat-customer")]


async def test_an_interactive_item_end_to_end_with_the_scripted_customer(
    tmp_path, small_org_path, clock
):
    path = tmp_path / "study.sqlite"
    gold = make_study(path, small_org_path, clock)
    async with solving_in_conversation(path, small_org_path, clock) as (app, pilot):
        texts = chat_texts(app)
        assert len(texts) == 1 and "over some period" in texts[0].lower()
        assert "Q2 2023" not in texts[0]  # the query stays hidden
        await say(pilot, "For which time period?")
        assert "in Q2 2023" in chat_texts(app)[-1]
        clock.advance(30)
        await say(pilot, gold)
        await settle(pilot)
        assert not isinstance(app.screen, ChatSolveScreen)
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
        turns = session.exec(select(ConversationTurn).order_by(ConversationTurn.position)).all()
    assert attempt.status == AttemptStatus.SUBMITTED
    assert (attempt.answer_raw, attempt.score) == (gold, 1.0)
    assert [t.role for t in turns] == ["customer", "agent", "customer", "agent", "customer"]
    assert [t.source for t in turns] == ["scripted", "person", "scripted", "person", "scripted"]
    assert "###STOP###" in turns[-1].text
    turn_modes = study_report(path).turn_modes
    assert turn_modes is not None
    row = turn_modes[0]
    assert (row.family, row.solver, row.multi_answers, row.multi_accuracy) == (
        "HTU",
        "humans",
        1,
        1.0,
    )
    assert row.mean_customer_turns == 3.0


async def test_an_interactive_item_with_the_llm_customer_on_mock_responses(
    tmp_path, small_org_path, clock, monkeypatch
):
    litellm = importorskip_litellm()
    said = iter(
        [
            "Hi, I need to find an agent by handle time.",
            "The second quarter of 2023.",
            "Thanks! ###STOP###",
        ]
    )
    real = litellm.completion

    def mocked(**kwargs):
        return real(mock_response=next(said), **kwargs)

    monkeypatch.setattr(litellm, "completion", mocked)
    path = tmp_path / "study.sqlite"
    gold = make_study(path, small_org_path, clock, simulated_user="llm")
    async with solving_in_conversation(path, small_org_path, clock) as (app, pilot):
        assert chat_texts(app)[0].endswith("handle time.")
        await say(pilot, "Which period?")
        assert "second quarter" in chat_texts(app)[-1]
        await say(pilot, gold)
        await settle(pilot)
        assert not isinstance(app.screen, ChatSolveScreen)
    with StudyStore.open(path, clock) as store, store.transaction() as session:
        attempt = session.exec(select(Attempt)).one()
        sources = session.exec(select(ConversationTurn.source)).all()
    assert (attempt.status, attempt.score) == (AttemptStatus.SUBMITTED, 1.0)
    assert sources.count("llm") == 3
