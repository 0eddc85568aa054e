"""The study loop end to end on a FakeClock: exact times, rows, blinding, progress."""

from __future__ import annotations

import dataclasses
import json

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import record_study_event
from crm_tui.study.store.models import Attempt, AuditFlag, Event, RealismRating, StudyItem
from crm_tui.study.work.attempts import (
    elapsed,
    expire_if_over_limit,
    normalise_answer,
    open_next,
    record_event,
    save_draft,
    skip,
    submit,
)
from crm_tui.study.work.audit import audit_items
from crm_tui.study.work.bounds import MAX_TEXT_CHARS
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.progress import annotator_progress, study_summary
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.ratings import flag_item, rate_realism
from crm_tui.study.work.studies import create_study, solve_only_preset, with_overrides
from tests.helpers.paths import CRMARENA_TASKS


def crmarena_sample(step: int = 13) -> list[dict]:
    """Every `step`-th real CRMArena instance: all nine families, real gold answers."""
    return json.loads(CRMARENA_TASKS.read_text())[::step]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(study_store_url, clock):
    """A fresh store, once on SQLite and once on PostgreSQL (tests/study/conftest.py)."""
    with StudyStore.open(study_store_url, clock) as opened:
        yield opened


def paper_study(store, name="pilot", step=13, **overrides):
    preset, path = load_preset("paper-expert-study")
    if overrides:
        preset = with_overrides(preset, **overrides)
    return create_study(
        store,
        name,
        preset,
        instances=crmarena_sample(step),
        task_set_hash="sha256:sample",
        org_fingerprint="local-0000",
        preset_path=path,
    )


def test_paper_preset_flow_records_exact_rows_and_times(store, clock):
    ann = create_profile(store, "Dana", "Customer Service Associate", 6)
    study = paper_study(store)
    start = clock.wall()

    record_study_event(store, study.id, ann.id, "explore_started")
    clock.advance(300)
    record_study_event(store, study.id, ann.id, "explore_finished")

    first = open_next(store, study.id, ann.id)
    assert (first.position, first.queue_length, first.resumed) == (1, 5, False)
    for seconds, kind in [
        (10, "paused"),
        (60, "resumed"),
        (5, "focus_lost"),
        (30, "focus_regained"),
        (15, "record_viewed"),
        (5, None),
    ]:
        clock.advance(seconds)
        if kind:
            record_event(store, first.attempt_id, kind, {"n": seconds})
    assert elapsed(store, first.attempt_id).active_ms == 35_000
    result = submit(
        store,
        first.attempt_id,
        '  "001Wt00000PWcNgIAL" ',
        confidence=4,
        note="checked the case history",
    )
    assert (result.wall_ms, result.active_ms) == (125_000, 35_000)
    assert result.correct is None and result.score is None  # no training feedback
    with store.transaction() as s:
        gold = json.loads(s.get(StudyItem, first.item.item_id).gold_json)

    second = open_next(store, study.id, ann.id)
    assert second.position == 2 and second.item.item_id != first.item.item_id
    clock.advance(42)
    skip(store, second.attempt_id, note="no idea")

    rate_realism(store, study.id, ann.id, "org", 4, "feels like our org")
    rate_realism(store, study.id, ann.id, "Case", 5, record_ids=["500Wt00000DDtsCIAT"])
    rate_realism(store, study.id, ann.id, "Order", 0)
    flag_item(
        store,
        study.id,
        ann.id,
        first.item.item_id,
        "ambiguous_query",
        "two agents tie",
        suggested_answer="005Wt000003NF8yIAG",
    )

    with store.transaction() as s:
        attempts = s.exec(select(Attempt).order_by(Attempt.id)).all()
        kinds = [e.kind for e in s.exec(select(Event).order_by(Event.id))]
        ratings = {
            r.target: (r.level, r.rationale, json.loads(r.record_ids_json))
            for r in s.exec(select(RealismRating))
        }
        flag = s.exec(select(AuditFlag)).one()
        queue_families = {s.get(StudyItem, a.item_id).task for a in attempts}
    solved, skipped = attempts
    assert solved.status == "submitted" and skipped.status == "skipped"
    assert solved.started_at == start.replace(minute=5)
    assert (solved.submitted_at - solved.started_at).total_seconds() == 125
    assert (solved.wall_ms, solved.active_ms) == (125_000, 35_000)
    assert solved.answer_raw == '  "001Wt00000PWcNgIAL" '
    assert solved.answer_normalised == "001Wt00000PWcNgIAL"
    assert (solved.confidence, solved.note) == (4, "checked the case history")
    assert solved.score == (1.0 if gold == "001Wt00000PWcNgIAL" else 0.0)
    assert (skipped.wall_ms, skipped.active_ms, skipped.note) == (42_000, 42_000, "no idea")
    assert len(queue_families) == 2
    assert kinds == [
        "explore_started",
        "explore_finished",
        "opened",
        "paused",
        "resumed",
        "focus_lost",
        "focus_regained",
        "record_viewed",
        "answer_submitted",
        "opened",
        "skipped",
        "realism_rated",
        "realism_rated",
        "realism_rated",
        "flagged",
    ]
    assert ratings == {
        "org": (4, "feels like our org", []),
        "Case": (5, None, ["500Wt00000DDtsCIAT"]),
        "Order": (0, None, []),
    }
    assert (flag.category, flag.suggested_answer) == ("ambiguous_query", "005Wt000003NF8yIAG")

    parts = {p.kind: (p.done, p.total) for p in annotator_progress(store, study.id, ann.id)}
    assert parts == {"explore": (1, 1), "solve": (2, 5), "rate": (3, 17)}
    summary = study_summary(store, study.id)
    assert summary.attempts == {"in_progress": 0, "submitted": 1, "skipped": 1, "expired": 0}
    assert (summary.ratings, summary.flags, summary.families) == (3, 1, 9)


def test_queue_has_five_families_and_ends(store):
    ann = create_profile(store, "Lee", "Customer Service Agent", 2)
    study = paper_study(store)
    families = []
    while (view := open_next(store, study.id, ann.id)) is not None:
        families.append(view.item.task)
        submit(store, view.attempt_id, None)
    assert len(families) == 5 and len(set(families)) == 5


def test_rating_and_flag_inputs_are_checked(store):
    ann = create_profile(store, "Kim", "Account Executive", 3)
    other = create_profile(store, "Sam", "Technical Support", 1)
    study = paper_study(store)
    view = open_next(store, study.id, ann.id)
    with pytest.raises(CrmTuiError, match="use 1-5"):
        rate_realism(store, study.id, ann.id, "org", 0)  # "don't know" is for objects only
    with pytest.raises(CrmTuiError, match="not rated"):
        rate_realism(store, study.id, ann.id, "Widget", 3)
    with pytest.raises(CrmTuiError, match="unknown flag category"):
        flag_item(store, study.id, ann.id, view.item.item_id, "boring")
    with pytest.raises(CrmTuiError, match="not in Sam's queue"):
        flag_item(store, study.id, other.id, view.item.item_id, "other")
    with pytest.raises(CrmTuiError, match="confidence"):
        submit(store, view.attempt_id, "x", confidence=6)
    with pytest.raises(CrmTuiError, match="its own call"):
        record_event(store, view.attempt_id, "answer_submitted")
    submit(store, view.attempt_id, "x")
    with pytest.raises(CrmTuiError, match="already submitted"):
        submit(store, view.attempt_id, "y")


def test_annotator_calls_never_expose_gold_or_other_answers(store, clock):
    a = create_profile(store, "Ana", "Customer Service Advisor", 4)
    b = create_profile(store, "Ben", "Customer Service Advisor", 4)
    auditor = create_profile(store, "Aud", "QA lead", 9, mode="auditor")
    study = paper_study(store, step=130, annotators_per_item=2)  # 9 items, one per family
    with store.transaction() as s:
        golds = {i.id: json.loads(i.gold_json) for i in s.exec(select(StudyItem))}
    outputs, bens = [], []
    while (view := open_next(store, study.id, a.id)) is not None:
        outputs.append(view)
        outputs.append(submit(store, view.attempt_id, f"ANA-SECRET-{view.item.item_id}"))
    while (view := open_next(store, study.id, b.id)) is not None:
        bens += [view, elapsed(store, view.attempt_id), submit(store, view.attempt_id, "ben")]
    bens += annotator_progress(store, study.id, b.id)
    outputs += bens
    items = {o.item.item_id: dataclasses.asdict(o.item) for o in outputs if hasattr(o, "item")}
    assert len(items) == 9 and all("gold" not in f and "answer" not in f for f in items.values())
    shown = " ".join(
        f["query"] + f["required_context"] + f["optional_context"] for f in items.values()
    )
    hidden = [golds[i] for i in items if golds[i] is not None and golds[i] not in shown]
    assert hidden, "some golds never appear in the text an annotator is shown"
    text = repr(outputs)
    assert not [g for g in hidden if g in text]
    assert "ANA-SECRET" not in repr(bens)
    with pytest.raises(CrmTuiError, match="needs the auditor or coordinator role"):
        audit_items(store, study.id, b.id)
    audited = {i.item_id: i for i in audit_items(store, study.id, auditor.id)}
    both = [i for i in audited.values() if {r.annotator for r in i.answers} == {"Ana", "Ben"}]
    assert len(both) == 1, "10 places over 9 items: exactly one item is shared"
    assert all(audited[i].gold == golds[i] for i in items)


def test_training_mode_reports_correctness_with_the_bench_scorer(store):
    ann = create_profile(store, "Tia", "Customer Service Agent", 1)
    study = paper_study(store, training_feedback=True)
    with store.transaction() as s:
        golds = {i.id: json.loads(i.gold_json) for i in s.exec(select(StudyItem))}
    right = open_next(store, study.id, ann.id)
    result = submit(store, right.attempt_id, golds[right.item.item_id])
    assert result.correct is True and result.score == 1.0
    wrong = open_next(store, study.id, ann.id)
    result = submit(store, wrong.attempt_id, "certainly not the gold 1234")
    assert result.correct is False and result.score == 0.0


def test_time_limit_expires_on_active_time_only(store, clock):
    ann = create_profile(store, "Ola", "Customer Service Manager", 12)
    study = create_study(
        store,
        "timed",
        with_overrides(solve_only_preset(2), time_limit_minutes=1),
        instances=crmarena_sample(),
        task_set_hash="h",
        org_fingerprint="local-0000",
    )
    view = open_next(store, study.id, ann.id)
    assert view.time_limit_ms == 60_000
    clock.advance(40)
    record_event(store, view.attempt_id, "paused")
    clock.advance(600)  # paused time does not count
    record_event(store, view.attempt_id, "resumed")
    assert not expire_if_over_limit(store, view.attempt_id)
    assert elapsed(store, view.attempt_id).remaining_ms == 20_000
    clock.advance(20)
    assert expire_if_over_limit(store, view.attempt_id)
    nxt = open_next(store, study.id, ann.id)
    assert nxt.position == 2
    with store.transaction() as s:
        expired = s.get(Attempt, view.attempt_id)
    assert (expired.status, expired.active_ms, expired.wall_ms) == ("expired", 60_000, 660_000)


@pytest.mark.parametrize(
    "raw, normal",
    [("  Texas ", "Texas"), ("'CA'", "CA"), ("", "None"), (None, "None"), ("null", "None")],
)
def test_normalised_answer(raw, normal):
    assert normalise_answer(raw) == normal


def test_a_resumed_attempt_brings_back_the_answer_typed_so_far(study_store_url, clock):
    path = study_store_url
    with StudyStore.open(path, clock) as first:
        ann = create_profile(first, "Ida", "Customer Service Agent", 2)
        study = paper_study(first)
        view = open_next(first, study.id, ann.id)
        assert view.draft_answer is None
        save_draft(first, view.attempt_id, "Decem")
        save_draft(first, view.attempt_id, "December")
    # The process died here; a new one opens the same file.
    with StudyStore.open(path, clock) as second:
        again = open_next(second, study.id, ann.id)
        assert (again.attempt_id, again.resumed, again.draft_answer) == (
            view.attempt_id,
            True,
            "December",
        )
        submit(second, again.attempt_id, "January")
        with pytest.raises(CrmTuiError):  # a finished attempt keeps its submitted answer
            save_draft(second, again.attempt_id, "March")
        with second.transaction() as session:
            done = session.get(Attempt, again.attempt_id)
            assert (done.answer_raw, done.draft_answer) == ("January", "December")
        skipped = open_next(second, study.id, ann.id)
        save_draft(second, skipped.attempt_id, "half typed")
        skip(second, skipped.attempt_id)
        with second.transaction() as session:  # a draft is never taken for an answer
            assert session.get(Attempt, skipped.attempt_id).answer_raw is None


@pytest.mark.parametrize("mode", ["auditor", "coordinator"])
def test_profiles_that_see_gold_do_not_solve(store, mode):
    study = paper_study(store)
    viewer = create_profile(store, "Rae", "QA Lead", 7, mode)
    with pytest.raises(CrmTuiError, match="solved by annotator profiles only"):
        open_next(store, study.id, viewer.id)
    with store.transaction() as session:
        assert not session.exec(select(Attempt)).all()


def test_training_feedback_and_the_process_view_count_right_by_one_rule(store):
    """A knowledge-QA answer with F1 0.78 is right for the feedback as it is for the
    process table and the audit (`tasks.scoring.is_right`)."""
    from crm_tui.study.results.process import HUMANS, Sight, trace
    from crm_tui.tasks.scoring import is_right, token_f1

    kqa = [i for i in crmarena_sample(1) if i["type"] == "knowledge_qa"][:1]
    preset = with_overrides(solve_only_preset(1), training_feedback=True)
    study = create_study(
        store,
        "kqa",
        preset,
        instances=kqa,
        task_set_hash="sha256:kqa",
        org_fingerprint="local-0000",
    )
    ann = create_profile(store, "Kim", "Customer Service Agent", 2)
    view = open_next(store, study.id, ann.id)
    gold = kqa[0]["answer"]
    words = gold.split()
    answer = next(
        " ".join(words[:k])
        for k in range(1, len(words) + 1)
        if 0.7 <= token_f1(" ".join(words[:k]), gold) < 0.9
    )
    result = submit(store, view.attempt_id, answer)
    assert 0.7 <= result.score < 0.9
    assert result.correct is True and is_right(result.score)
    traced = trace(
        solver=HUMANS,
        task="knowledge_qa",
        idx=0,
        who="Kim",
        steps=[],
        answer=answer,
        points=result.score,
        gold=gold,
        time=0,
    )
    assert traced.label == Sight.RIGHT


def test_answers_notes_and_drafts_are_bounded_as_an_exchange_file_bounds_them(store):
    ann = create_profile(store, "Kim", "Account Executive", 3)
    study = paper_study(store)
    view = open_next(store, study.id, ann.id)
    huge = "x" * (MAX_TEXT_CHARS + 1)
    with pytest.raises(CrmTuiError, match="answer: 100,001 characters, over the 100,000"):
        submit(store, view.attempt_id, huge)
    with pytest.raises(CrmTuiError, match="note: 100,001 characters"):
        submit(store, view.attempt_id, "x", note=huge)
    with pytest.raises(CrmTuiError, match="draft: 100,001 characters"):
        save_draft(store, view.attempt_id, huge)
    save_draft(store, view.attempt_id, "x" * MAX_TEXT_CHARS)  # at the bound: kept
    assert submit(store, view.attempt_id, "x" * MAX_TEXT_CHARS).status == "submitted"
