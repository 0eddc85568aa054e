"""Offline work: export one annotator's work, merge it into the coordinator's study
(round trip equal, idempotent, all-or-nothing, refusals naming the file and field)."""

from __future__ import annotations

import json
import shutil
import stat

import pytest
from sqlmodel import col, select

from crm_tui.errors import CrmTuiError
from crm_tui.study.exchange.offline import collect_work, export_work, merge_work, work_counts
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import attempt_events, record_study_event
from crm_tui.study.store.models import Annotator, Attempt, row_id
from crm_tui.study.work import attempts
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.drafts import realism_key, save_text_draft
from crm_tui.study.work.profiles import create_profile, list_profiles
from crm_tui.study.work.protocol import load_preset
from crm_tui.study.work.ratings import flag_item, rate_realism
from crm_tui.study.work.studies import create_study, find_study, with_overrides
from crm_tui.study.work.timing import derive
from tests.helpers.routing_items import ORG, instances

TASKS = "sha256:exchange"


def new_study(path, clock, *, name="pilot", task_set_hash=TASKS, org=ORG) -> int:
    """A paper-preset study (solve 2 of the 3 queries, rate the org and objects)."""
    preset, preset_path = load_preset("paper-expert-study")
    preset = with_overrides(preset, items=2, distinct_families=False, annotators_per_item=2)
    rows = [dict(row, crm_tui={"org": org}) for row in instances()]
    with StudyStore.open(path, clock) as store:
        study = create_study(
            store,
            name,
            preset,
            instances=rows,
            task_set_hash=task_set_hash,
            org_fingerprint=org,
            preset_path=preset_path,
        )
    assert study.id is not None
    return study.id


def work_of_dana(store: StudyStore, study_id: int, clock: FakeClock) -> None:
    """One query answered (with a pause), one left open, a rating, a flag and a draft."""
    dana = create_profile(store, "Dana", "Customer Service Associate", 6)
    record_study_event(store, study_id, row_id(dana), "explore_started")
    clock.advance(30)
    record_study_event(store, study_id, row_id(dana), "explore_finished")
    view = attempts.open_next(store, study_id, row_id(dana))
    assert view is not None
    clock.advance(40)
    attempts.record_event(store, view.attempt_id, "paused")
    clock.advance(100)
    attempts.record_event(store, view.attempt_id, "resumed")
    clock.advance(20)
    attempts.record_event(store, view.attempt_id, "record_viewed", {"record_id": "500x"})
    attempts.submit(store, view.attempt_id, f"005Wt00000000{view.item.idx:02}AAA", confidence=4)
    flag_item(store, study_id, row_id(dana), view.item.item_id, "wrong_gold", "looks odd")
    second = attempts.open_next(store, study_id, row_id(dana))
    assert second is not None
    clock.advance(10)
    attempts.record_event(store, second.attempt_id, "heartbeat")
    attempts.save_draft(store, second.attempt_id, "005Wt")
    rate_realism(store, study_id, row_id(dana), "org", 4, "Feels like our CRM")
    save_text_draft(store, study_id, row_id(dana), realism_key("Case"), "half a thought")


def work(store: StudyStore, name: str = "Dana") -> dict:
    """The person's work in study "pilot", by natural keys (no row ids, no export stamp)."""
    study = find_study(store, "pilot")
    with store.transaction() as session:
        person = session.exec(select(Annotator).where(Annotator.name == name)).one()
        data = collect_work(session, study, person, store.now()[0]).model_dump()
    data.pop("exported_at")
    return data


def scores_and_times(store: StudyStore) -> list[tuple]:
    with store.transaction() as session:
        rows = session.exec(select(Attempt).order_by(col(Attempt.item_id))).all()
        return [
            (
                a.status,
                a.score,
                a.answer_normalised,
                a.wall_ms,
                a.active_ms,
                derive(attempt_events(session, row_id(a))).active_ms,
            )
            for a in rows
        ]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def original(tmp_path, clock):
    """The study file Dana worked in, and the study's id."""
    path = tmp_path / "laptop.sqlite"
    study_id = new_study(path, clock)
    with StudyStore.open(path, clock) as store:
        work_of_dana(store, study_id, clock)
    return path, study_id


@pytest.fixture
def exported(tmp_path, original, clock):
    path, _ = original
    out = tmp_path / "dana.json"
    with StudyStore.open(path, clock) as store:
        summary = export_work(store, "Dana", out)
    assert (summary.attempts, summary.ratings, summary.flags) == (2, 1, 1)
    return out


@pytest.fixture
def fresh(tmp_path, clock):
    """The coordinator's study file: the same study (name, org, task set), nobody in it."""
    path = tmp_path / "coordinator.sqlite"
    new_study(path, clock)
    return path


def test_export_file_is_private_versioned_and_holds_no_gold(exported):
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    data = json.loads(exported.read_text())
    assert (data["kind"], data["format"]) == ("crm-tui-study-work", 1)
    assert data["study"] == {"name": "pilot", "org_fingerprint": ORG, "task_set_hash": TASKS}
    text = exported.read_text()
    assert "gold_json" not in text and "score" not in text
    open_idx = data["records"]["attempts"][1]["item_idx"]
    assert f"005Wt00000000{open_idx:02}AAA" not in text  # the gold of her open query
    assert '"item_id"' not in text  # queries by task index: row ids differ between copies
    assert [a["status"] for a in data["records"]["attempts"]] == ["submitted", "in_progress"]


def test_round_trip_into_a_fresh_study_equals_the_original(original, exported, fresh, clock):
    with StudyStore.open(fresh, clock) as store:
        name, counts = merge_work(store, [exported])
        assert name == "pilot"
        assert (counts.profiles, counts.attempts, counts.ratings, counts.flags) == (1, 2, 1, 1)
        assert counts.events == 11 and counts.drafts == 1  # 11: counted in work_of_dana
        merged, merged_times = work(store), scores_and_times(store)
        merged_counts = work_counts(store, find_study(store, "pilot").id)
    with StudyStore.open(original[0], clock) as store:
        assert work(store) == merged
        assert scores_and_times(store) == merged_times
        assert work_counts(store, original[1]) == merged_counts
    submitted = merged_times[0] if merged_times[0][0] == "submitted" else merged_times[1]
    assert submitted[1] == 1.0 and submitted[4] == 60_000  # 40 s + 20 s, the pause left out


def test_merging_twice_adds_nothing(exported, fresh, clock):
    with StudyStore.open(fresh, clock) as store:
        merge_work(store, [exported])
        before = work_counts(store, find_study(store, "pilot").id)
        _, counts = merge_work(store, [exported, exported])
        assert counts.nothing_new and counts.describe() == "nothing new"
        assert work_counts(store, find_study(store, "pilot").id) == before


def test_work_continued_on_a_copy_merges_back(original, tmp_path, clock):
    """The laptop case: a copy of the coordinator's file, worked on, exported, merged."""
    coordinator, study_id = original
    laptop = tmp_path / "copy.sqlite"
    shutil.copy(coordinator, laptop)
    with StudyStore.open(laptop, clock) as store:
        dana = next(p for p in list_profiles(store) if p.name == "Dana")
        view = attempts.open_next(store, study_id, row_id(dana))  # resumes the open query
        clock.advance(15)
        attempts.submit(store, view.attempt_id, "None", confidence=2)
        export_work(store, "Dana", tmp_path / "dana.json")
        finished = work(store)
    with StudyStore.open(coordinator, clock) as store:
        _, counts = merge_work(store, [tmp_path / "dana.json"])
        assert (counts.attempts, counts.attempts_updated, counts.events) == (0, 1, 2)
        assert counts.profiles == 0
        assert work(store) == finished


def damaged(path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["study"].update(task_set_hash="sha256:other"),
            "is of task set 'sha256:other'",
        ),
        (lambda d: d["study"].update(org_fingerprint="local-ffff"), "is of org 'local-ffff'"),
        (lambda d: d["study"].update(name="other"), "is of study 'other', which"),
        (lambda d: d["records"]["events"][2].pop("kind"), "records.events.2.kind: Field required"),
        (lambda d: d["records"]["attempts"][0].update(item_idx=7), "query 7 is not in the queue"),
        (lambda d: d.update(format=2), "work file format 2"),
        (lambda d: d["profile"].update(mode="chief"), "profile.mode: Input should be"),
        (lambda d: d["profile"].update(mode="coordinator"), "is a coordinator in the file"),
        (
            lambda d: d["records"]["attempts"][0].update(answer_raw=None),
            "records.attempts.0.answer_raw: a submitted attempt has an answer",
        ),
    ],
)
def test_a_foreign_or_damaged_file_is_refused_and_changes_nothing(
    exported, fresh, clock, change, expected
):
    damaged(exported, change)
    with StudyStore.open(fresh, clock) as store:
        with pytest.raises(CrmTuiError) as refused:
            merge_work(store, [exported])
        assert str(refused.value).startswith(f"{exported}: ")
        assert expected in str(refused.value)
        assert list_profiles(store) == []
        assert set(work_counts(store, find_study(store, "pilot").id).values()) == {0}


def test_bad_json_names_the_line(exported, fresh, clock):
    lines = exported.read_text().splitlines()
    lines[5] = lines[5] + " oops"
    exported.write_text("\n".join(lines))
    with StudyStore.open(fresh, clock) as store, pytest.raises(CrmTuiError) as refused:
        merge_work(store, [exported])
    assert str(refused.value).startswith(f"{exported}: invalid JSON at line 6")


def test_one_bad_file_merges_none(exported, fresh, clock, tmp_path):
    other = tmp_path / "other.json"
    shutil.copy(exported, other)
    damaged(other, lambda d: d["records"]["ratings"][0].update(target="Nowhere__c"))
    with StudyStore.open(fresh, clock) as store:
        with pytest.raises(CrmTuiError, match=r"records\.ratings\.0\.target: 'Nowhere__c'"):
            merge_work(store, [exported, other])
        assert list_profiles(store) == []


def test_same_name_with_another_role_is_refused(exported, fresh, clock):
    with StudyStore.open(fresh, clock) as store:
        create_profile(store, "Dana", "Sales Manager", 2)
        with pytest.raises(CrmTuiError, match=r"profile\.role: 'Dana' is 'Customer Service"):
            merge_work(store, [exported])
        assert set(work_counts(store, find_study(store, "pilot").id).values()) == {0}


def test_a_different_attempt_at_the_same_query_is_refused(original, exported, fresh, clock):
    """Dana started the same query in both files at different times: two attempts."""
    with StudyStore.open(fresh, clock) as store:
        study_id = find_study(store, "pilot").id
        merge_work(store, [exported])
    data = json.loads(exported.read_text())
    data["records"]["attempts"][1]["started_at"] = "2025-01-06T10:00:00Z"
    exported.write_text(json.dumps(data))
    with StudyStore.open(fresh, clock) as store:
        before = work_counts(store, study_id)
        with pytest.raises(CrmTuiError, match="two different attempts"):
            merge_work(store, [exported])
        assert work_counts(store, study_id) == before


def test_export_refuses_an_unknown_profile_and_an_existing_file(original, exported, clock):
    with StudyStore.open(original[0], clock) as store:
        with pytest.raises(CrmTuiError, match=r"no profile named 'Nobody' \(profiles: 'Dana'\)"):
            export_work(store, "Nobody", exported.with_name("n.json"))
        with pytest.raises(CrmTuiError, match="already exists"):
            export_work(store, "Dana", exported)


def test_merge_works_on_either_store_engine(original, exported, study_store_url, clock):
    """The coordinator's store on SQLite or on PostgreSQL: the same round trip, the same
    idempotence (the merge uses the ORM only)."""
    new_study(study_store_url, clock)
    with StudyStore.open(study_store_url, clock) as store:
        _, counts = merge_work(store, [exported])
        assert (counts.attempts, counts.events, counts.ratings, counts.flags) == (2, 11, 1, 1)
        assert merge_work(store, [exported])[1].nothing_new
        merged, merged_times = work(store), scores_and_times(store)
    with StudyStore.open(original[0], clock) as store:
        assert work(store) == merged
        assert scores_and_times(store) == merged_times
