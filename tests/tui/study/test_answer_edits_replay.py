"""The answer as it was edited: a person types an answer, changes it and submits; the log
keeps each text the answer settled on (not each keystroke), the replay shows both, and
the steps (and so the step measures) do not count them."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.study.results.replay import replay_item
from crm_tui.study.results.steps import StepKind, answer_edits, human_steps
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import attempt_events
from crm_tui.study.store.models import Attempt, Study, row_id
from crm_tui.tui.study.replay_screen import EDITED, step_rows
from tests.helpers.pilot import settle
from tests.helpers.study_pilot import (
    first_two_ids,
    open_first_query,
    submit_with_confidence,
    type_text,
)

pytestmark = pytest.mark.usefixtures("dana")  # one annotator profile to pick


async def test_an_answer_typed_then_changed_shows_both_texts_in_the_replay(
    make_app, study_path, small_org_path, clock
):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        solve = await open_first_query(pilot)
        first, second = first_two_ids(small_org_path, solve.family.answer_object)
        clock.advance(4)
        await type_text(pilot, first)  # the answer field has the focus
        await settle(pilot)
        clock.advance(6)  # a pause: the first text settled
        await pilot.press(*["backspace"] * len(first))
        await type_text(pilot, second)
        await settle(pilot)
        clock.advance(2)
        await submit_with_confidence(pilot)
        assert solve.finished
    with StudyStore.open(study_path, clock) as store, store.transaction() as db:
        (attempt,) = db.exec(select(Attempt)).all()
        assert attempt.status == "submitted" and attempt.answer_raw == second
        logged = attempt_events(db, row_id(attempt))
        edits = answer_edits(logged)
        steps = human_steps(logged)
        study = db.exec(select(Study)).one()
        idx = solve.view.item.idx
        (replayed,) = replay_item(db, study, idx).solves
    # each text the answer settled on, once: not one event per keystroke
    assert [e.detail for e in edits] == [first, second]
    assert sum(event.kind == "answer_edited" for event in logged) == 2
    assert edits[0].at == 10_000  # logged when typing resumed after the pause
    # typing is no step: the attempt is one step, its submission
    assert [s.kind for s in steps] == [StepKind.ANSWER] and steps[0].detail == second
    assert len(replayed.steps) == 1 and [e.detail for e in replayed.edits] == [first, second]
    rows = step_rows(replayed)
    assert [(r[0], r[2], r[4]) for r in rows] == [
        ("", EDITED, first),
        ("", EDITED, second),
        ("1", StepKind.ANSWER, second),
    ]
