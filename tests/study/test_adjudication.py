"""The adjudication queue, decisions, task-set versions and scores under both golds."""

from __future__ import annotations

import pytest

from crm_tui.errors import CrmTuiError
from crm_tui.study.service import StudyService
from crm_tui.study.work.clock import FakeClock
from tests.helpers.audit_study import GOLD_ID, OTHER_ID, make_audit_study, profile


@pytest.fixture
def audit_path(tmp_path):
    clock = FakeClock()
    path = tmp_path / "study.sqlite"
    taskset = make_audit_study(path, clock)
    return path, clock, taskset


def test_the_queue_orders_by_evidence_and_shows_everything(audit_path):
    path, clock, _ = audit_path
    with StudyService.open(path, clock=clock) as service:
        ari = profile(service, "Ari")
        queue = service.adjudication_queue(ari.id)
        # 3 people against gold (3), a flag suggesting an answer (2), a flag (1)
        assert [q.idx for q in queue] == [0, 2, 1]
        first, second, _ = queue
        assert first.weight == 3 and "3 people agree on" in first.reasons[0]
        assert first.gold == GOLD_ID
        assert [(g.answer, g.humans, g.agrees_with_gold) for g in first.answers] == [
            (OTHER_ID, 3, False)
        ]
        assert first.derivation["params"] == {"case_id": "500Ws000001aaaaIAA"}
        assert first.derivation["required"].startswith("- Today's date")
        assert second.flags[0].suggested_answer == "TX" and second.weight == 2
        assert first.status == "open"


def test_annotators_never_reach_the_queue(audit_path):
    path, clock, _ = audit_path
    with StudyService.open(path, clock=clock) as service:
        ana = profile(service, "Ana")
        with pytest.raises(CrmTuiError, match="coordinators and auditors"):
            service.adjudication_queue(ana.id)
        with pytest.raises(CrmTuiError, match="coordinators and auditors"):
            service.decide(ana.id, 0, "keep", "other")


def test_decisions_make_a_version_whose_changes_are_the_decisions(audit_path):
    path, clock, taskset = audit_path
    with StudyService.open(path, clock=clock) as service:
        cora = profile(service, "Cora").id
        service.decide(cora, 0, "correct", "wrong_gold", "all three agree", OTHER_ID)
        service.decide(cora, 2, "drop", "ambiguous_query", "region of what?")
        service.decide(cora, 1, "keep", "other")
        version = service.make_version(cora)
        assert version.number == 1 and version.parent_hash == taskset.content_hash
        assert [(c.idx, c.decision, c.new_gold) for c in version.changes] == [
            (0, "correct", OTHER_ID),
            (1, "keep", None),
            (2, "drop", None),
        ]
        assert version.changes[0].decided_by == ("Cora",) and version.changes[0].old_gold == GOLD_ID
        corrected, info = service.audited_task_set()
        assert info == version and corrected.content_hash == version.content_hash
        rows = {i.idx: i for i in corrected.instances}
        assert sorted(rows) == [0, 1, 3, 4] and rows[0].answer == OTHER_ID
        assert rows[0].extra["audit"]["original_answer"] == GOLD_ID
        assert {i.extra["parent_taskset"] for i in corrected.instances} == {taskset.content_hash}
        with pytest.raises(CrmTuiError, match="nothing was decided since version 1"):
            service.make_version(cora)
        queue = {q.idx: q for q in service.adjudication_queue(cora)}
        assert [queue[0].status, queue[1].status, queue[2].status] == [
            "corrected",
            "kept",
            "dropped",
        ]

        comparison = service.gold_comparison()
        assert comparison is not None and comparison.version == 1
        rows_by_family = {r.family: r for r in comparison.rows}
        assert rows_by_family["NCR"].humans == (0.5, 1.0)  # query 0 right only once corrected
        assert rows_by_family["BRI"].dropped == 1 and rows_by_family["BRI"].humans[1] is None


@pytest.mark.parametrize(
    ("idx", "decision", "gold", "task_set", "message"),
    [
        (1, "correct", GOLD_ID, None, "is not a month name"),
        (0, "correct", "March", None, "is not a record Id"),
        (2, "correct", "Georgia", None, "is not a state code"),
        (0, "correct", None, None, "always has an answer"),
        (9, "keep", None, None, "query 9 is not in study 'audit'"),
        (0, "keep", None, "f" * 64, "is not study 'audit'"),
        (0, "maybe", None, None, "use keep, correct, drop"),
        (0, "correct", GOLD_ID, None, "equals the gold"),
    ],
)
def test_bad_decisions_are_one_line_and_change_nothing(
    audit_path, idx, decision, gold, task_set, message
):
    path, clock, _ = audit_path
    with StudyService.open(path, clock=clock) as service:
        cora = profile(service, "Cora").id
        with pytest.raises(CrmTuiError, match=message) as error:
            service.decide(cora, idx, decision, "wrong_gold", None, gold, task_set)
        assert "\n" not in str(error.value)
        assert all(not q.decisions for q in service.adjudication_queue(cora))


def test_two_person_rule(tmp_path):
    clock = FakeClock()
    path = tmp_path / "study.sqlite"
    make_audit_study(path, clock, two_person=True)
    with StudyService.open(path, clock=clock) as service:
        cora, dev = profile(service, "Cora").id, profile(service, "Dev").id
        service.decide(cora, 0, "correct", "wrong_gold", None, OTHER_ID)
        assert service.adjudication_queue(cora)[-1].status == "awaiting a second adjudicator"
        with pytest.raises(CrmTuiError, match="no decisions in force"):
            service.make_version(cora)
        service.decide(dev, 0, "correct", "wrong_gold", "agreed", OTHER_ID)
        version = service.make_version(dev)
        assert version.changes[0].decided_by == ("Cora", "Dev")
