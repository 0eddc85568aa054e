"""The coordinator's live view through the study service: progress, who is at work, median
active time, stale queries; reassigning one keeps its history; coordinators only."""

from __future__ import annotations

import pytest
from sqlmodel import select

from crm_tui.errors import CrmTuiError
from crm_tui.study.service import LIVE_IS_FOR_COORDINATORS, StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.events import attempt_events
from crm_tui.study.store.models import Attempt
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.profiles import create_profile
from crm_tui.study.work.studies import create_study, solve_only_preset
from tests.helpers.routing_items import ORG, instances


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(tmp_path, clock):
    """Two queries each, one annotator per query: Ana gets two of the three, Ben one."""
    path = tmp_path / "study.sqlite"
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "live",
            solve_only_preset(2),
            instances=instances(),
            task_set_hash="sha256:live",
            org_fingerprint=ORG,
        )
        for name in ("Ana", "Ben"):
            create_profile(store, name, "Customer Service Agent", 3)
        create_profile(store, "Cleo", "Study lead", 9, mode="coordinator")
    with StudyService.open(path, clock=clock) as service:
        yield service


def ids(service: StudyService) -> dict[str, int]:
    return {p.name: p.id for p in service.profiles()}


def test_progress_activity_and_stale_queries(service, clock):
    who = ids(service)
    first = service.open_next(who["Ana"])
    clock.advance(90)
    service.submit_answer(first.attempt_id, "None")
    left = service.open_next(who["Ana"])  # then Ana walks away
    ben = service.open_next(who["Ben"])
    clock.advance(20 * 60)
    service.record_event(ben.attempt_id, "heartbeat")  # Ben is still at it

    live = service.live_progress(who["Cleo"])
    rows = {p.name: p for p in live.annotators}
    assert list(rows) == ["Ana", "Ben"]  # annotators only, by name
    ana, bo = rows["Ana"], rows["Ben"]
    assert (ana.done, ana.assigned, ana.active_now, ana.median_active_ms) == (1, 2, False, 90_000)
    assert (bo.done, bo.assigned, bo.active_now, bo.median_active_ms) == (0, 1, True, None)
    assert (ana.stale, bo.stale) == (1, 0)
    (stale,) = live.stale
    assert (stale.attempt_id, stale.annotator, stale.idle_s) == (left.attempt_id, "Ana", 1200)
    assert stale.item_idx == left.item.idx

    moved = service.reassign(who["Cleo"], left.attempt_id, who["Ben"])
    assert (moved.item_idx, moved.from_name, moved.to_name) == (left.item.idx, "Ana", "Ben")
    live = service.live_progress(who["Cleo"])
    rows = {p.name: p for p in live.annotators}
    assert live.stale == ()
    assert (rows["Ana"].done, rows["Ana"].assigned) == (2, 2)
    assert (rows["Ben"].done, rows["Ben"].assigned) == (0, 2)
    with service._store.transaction() as session:  # the history of Ana's attempt stays
        kept = session.exec(select(Attempt).where(Attempt.id == left.attempt_id)).one()
        kinds = [e.kind for e in attempt_events(session, left.attempt_id)]
    assert kept.status == "skipped" and kept.note == "reassigned to Ben by Cleo"
    assert kinds == ["opened", "skipped"]
    service.submit_answer(ben.attempt_id, "None")
    assert service.open_next(who["Ben"]).item.idx == left.item.idx  # next in Ben's queue


def test_reassigning_needs_an_open_query_and_another_annotator(service, clock):
    who = ids(service)
    view = service.open_next(who["Ana"])
    with pytest.raises(CrmTuiError, match="another annotator only, not Cleo"):
        service.reassign(who["Cleo"], view.attempt_id, who["Cleo"])
    with pytest.raises(CrmTuiError, match="another annotator only, not Ana"):
        service.reassign(who["Cleo"], view.attempt_id, who["Ana"])
    service.submit_answer(view.attempt_id, "None")
    with pytest.raises(CrmTuiError, match="is submitted already"):
        service.reassign(who["Cleo"], view.attempt_id, who["Ben"])


def test_only_coordinators_watch_or_reassign(service):
    who = ids(service)
    view = service.open_next(who["Ana"])
    for call in (
        lambda: service.live_progress(who["Ana"]),
        lambda: service.live_progress(None),
        lambda: service.reassign(who["Ben"], view.attempt_id, who["Ben"]),
    ):
        with pytest.raises(CrmTuiError) as refused:
            call()
        assert str(refused.value) == LIVE_IS_FOR_COORDINATORS
