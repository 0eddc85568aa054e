"""The feedback a practice or training answer gets on leaving the solve screen (and the
chat solve screen): right, not right, and a late answer told why it is not right."""

from __future__ import annotations

import pytest

from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.attempts import open_next, submit
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset, with_overrides
from crm_tui.tui.study.solve import training_feedback

GOLD = "005Wt0000000001AAA"


@pytest.mark.parametrize(("seconds", "answer", "said"), [
    (30, GOLD, " Correct!"),
    (30, "005Wt0000000002AAA", " Not correct."),
    (61, GOLD, " Not counted as right: it came after the time limit."),
])  # fmt: skip
def test_the_feedback_says_right_wrong_or_late(tmp_path, seconds, answer, said):
    clock = FakeClock()
    with StudyStore.open(tmp_path / "study.sqlite", clock) as store:
        preset = with_overrides(solve_only_preset(1), training_feedback=True, time_limit_minutes=1)
        study = create_study(store, "timed", preset, instances=[{
            "idx": 0, "task": "case_routing", "query": "Who should take the case?",
            "answer": GOLD, "metadata": {"required": "- Today's date: 2023-01-15"},
            "reward_metric": "exact_match",
        }], task_set_hash="sha256:timed", org_fingerprint="local-0000")  # fmt: skip
        person = create_profile(store, "Tia", "Customer Service Agent", 1)
        view = open_next(store, study.id, person.id)
        assert view is not None
        clock.advance(seconds)
        assert training_feedback(submit(store, view.attempt_id, answer)) == said
