"""A study with interactive items for the single- vs multi-turn section: two handle-time
items solved by two people, every other item of each queue in conversation with the
scripted customer ("alternate"), and two agents, one of them with an interactive run.

Worked out by hand (HTU):
- People: Ana (id 1) answers item 0 single-turn (right) and item 1 in conversation:
  asks for the period, then answers right (customer turns: opener, period, stop = 3).
  Ben (id 2) answers item 0 in conversation, right at once (opener, stop = 2) and item 1
  single-turn, wrong. Single-turn 1 of 2 = 50 %, multi-turn 2 of 2 = 100 %, 2.5 turns.
- gpt-4o ReAct: trial 1 interactive (3 and 5 customer turns; right, wrong), trial 2
  single-turn (right, right): single 100 %, multi 50 %, 4 turns. claude ReAct has no
  interactive record: not in the section.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert

from crm_tui.study.results.agent_runs import AgentAnswer, AgentRun
from crm_tui.study.results.summary import Report, build_report
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import row_id
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.conversations import is_interactive, open_conversation, reply
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.studies import create_study, list_studies, with_overrides
from crm_tui.tasks.families import get_family

GOLD = "005Ws000001xadBIAQ"
WRONG = "005Ws000009zzzzIAA"
TASK_SET = "sha256:crafted-turns"
FILL = {"threshold": "more than two cases", "period": "in Q2 2023", "extreme": "lowest"}
NOW = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)


def handle_time_row(idx: int) -> dict:
    family = get_family("handle_time")
    return {
        "idx": idx,
        "task": "handle_time",
        "answer": GOLD,
        "reward_metric": family.metric,
        "query": family.templates[0].format(**FILL) + " " + family.suffix,
        "metadata": {"required": "- Today's date: 2023-07-15", "optional": ""},
        "crm_tui": {
            "persona": family.persona,
            "answer_type": family.answer_type,
            "answer_object": family.answer_object,
            "template": 0,
            "params": {"period": "Q2 2023", "today": "2023-07-15"},
            "org": "crafted",
        },
    }


def make_turn_modes_study(path: Path, clock: FakeClock | None = None) -> None:
    clock = clock or FakeClock()
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(preset, items=2, distinct_families=False, annotators_per_item=2)
    solve = preset.solve.model_copy(update={"interactive": "alternate"})
    preset = preset.model_copy(update={"parts": [solve]})
    with StudyStore.open(path, clock=clock) as store:
        create_study(
            store,
            "turns",
            preset,
            preset_path=preset_path,
            instances=[handle_time_row(0), handle_time_row(1)],
            task_set_hash=TASK_SET,
            org_fingerprint="crafted",
        )
        (study,) = list_studies(store)
        single = {"Ana": GOLD, "Ben": WRONG}
        conversation = {"Ana": ["For which time period?", GOLD], "Ben": [GOLD]}
        for name in ("Ana", "Ben"):
            person = create_profile(store, name, "Customer Service Agent", 3)
            while (view := open_next(store, row_id(study), row_id(person))) is not None:
                clock.advance(seconds=30)
                if is_interactive(store, view.attempt_id):
                    open_conversation(store, view.attempt_id)
                    for text in conversation[name]:
                        reply(store, view.attempt_id, text)
                else:
                    submit(store, view.attempt_id, single[name])
        create_profile(store, "Abe", "Study lead", 12, mode="coordinator")
        with store.transaction() as session:
            for model, trial, turns, answers in (
                ("gpt-4o", 1, (3, 5), (GOLD, WRONG)),
                ("gpt-4o", 2, (None, None), (GOLD, GOLD)),
                ("claude", 1, (None, None), (WRONG, GOLD)),
            ):
                run = AgentRun(
                    model=model,
                    strategy="react",
                    trial=trial,
                    task_set_hash=TASK_SET,
                    source_name=f"{model}-{trial}.json",
                    source_hash=f"{model}-{trial}",
                    imported_at=NOW,
                )
                session.add(run)
                session.flush()
                session.execute(
                    insert(AgentAnswer),
                    [
                        {
                            "run_id": row_id(run),
                            "idx": idx,
                            "task": "handle_time",
                            "answer": answer,
                            "crmarena_reward": float(answer == GOLD),
                            "score": float(answer == GOLD),
                            "user_turns": user_turns,
                        }
                        for idx, (answer, user_turns) in enumerate(zip(answers, turns))
                    ],
                )


def one_conversation(
    path: Path,
    clock: FakeClock | None = None,
    customer: str = "scripted",
    max_user_turns: int = 10,
) -> int:
    """A study of one handle-time item, solved in conversation ("all") by Dana: the id of
    her attempt, opened and nothing said yet. `customer`: the part's `simulated_user`."""
    preset, preset_path = load_preset("paper-expert-study")
    update = {
        "items": 1,
        "interactive": "all",
        "simulated_user": customer,
        "max_user_turns": max_user_turns,
    }
    solve = preset.solve.model_copy(update=update)
    preset = preset.model_copy(update={"parts": [solve]})
    with StudyStore.open(path, clock=clock or FakeClock()) as store:
        create_study(
            store,
            "one conversation",
            preset,
            preset_path=preset_path,
            instances=[handle_time_row(0)],
            task_set_hash=TASK_SET,
            org_fingerprint="crafted",
        )
        (study,) = list_studies(store)
        person = create_profile(store, "Dana", "Customer Service Associate", 6)
        view = open_next(store, row_id(study), row_id(person))
        assert view is not None
        return view.attempt_id


def study_report(path: Path) -> Report:
    with StudyStore.open(path) as store, store.transaction() as session:
        (study,) = list_studies(store)
        return build_report(session, study)
