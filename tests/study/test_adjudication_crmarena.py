"""A full audit of CRMArena's own task file: imported into a study, crafted flags,
decisions on them, a version whose changes are exactly the decisions, and its release
imported back identical."""

from __future__ import annotations

from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Mode
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.studies import create_study, solve_only_preset
from crm_tui.tasks.release import export_taskset, load_released
from crm_tui.tasks.taskset import CRMARENA, imported, load_taskset
from tests.helpers.paths import CRMARENA_TASKS, needs_crmarena

# (task, decision, category, new gold): a correction of each answer type, drops and keeps
PLAN = [
    ("monthly_trend_analysis", "correct", "wrong_gold", "December"),
    ("best_region_identification", "correct", "wrong_gold", "WY"),
    ("case_routing", "correct", "wrong_gold", "005Ws000001xZvdIAE"),
    ("knowledge_qa", "correct", "wrong_gold", "Restart the device first"),
    ("top_issue_identification", "drop", "ambiguous_query", None),
    ("handle_time", "drop", "unanswerable", None),
    ("transfer_count", "keep", "other", None),
    ("named_entity_disambiguation", "keep", "typo_format", None),
]


@needs_crmarena
def test_a_full_audit_of_crmarena_changes_exactly_what_was_decided(tmp_path):
    clock = FakeClock()
    taskset = imported(load_taskset(CRMARENA_TASKS))
    path = tmp_path / "study.sqlite"
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "crmarena-audit",
            solve_only_preset(5),
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=CRMARENA,
        )
    first_of = {}
    for inst in sorted(taskset.instances, key=lambda i: i.idx):
        first_of.setdefault(inst.task, inst)
    with StudyService.open(path, clock=clock) as service:
        ari = service.create_profile("Ari", "QA Lead", 9, Mode.AUDITOR)
        cora = service.create_profile("Cora", "Service Manager", 12, Mode.COORDINATOR)
        items = {item.idx: item for item in service.audit_items(ari.id)}
        assert len(items) == len(taskset) == 1170
        for task, _, category, gold in PLAN:
            item = items[first_of[task].idx]
            service.flag_item(ari.id, item.item_id, category, "crafted", gold)
        queue = service.adjudication_queue(cora.id)
        assert {q.idx for q in queue} == {first_of[task].idx for task, *_ in PLAN}
        assert all(q.derivation.get("required") is not None for q in queue)
        decided = []
        for task, decision, category, gold in PLAN:
            idx = first_of[task].idx
            service.decide(cora.id, idx, decision, category, "crafted", gold)
            decided.append((idx, task, decision, category, gold))
        version = service.make_version(cora.id)
        corrected, info = service.audited_task_set()

    assert version.parent_hash == taskset.content_hash
    assert sorted(
        (c.idx, c.task, c.decision, c.category, c.new_gold) for c in info.changes
    ) == sorted(decided)
    assert all(c.decided_by == ("Cora",) for c in info.changes)
    dropped = {idx for idx, _, decision, *_ in decided if decision == "drop"}
    new_gold = {idx: gold for idx, _, decision, _, gold in decided if decision == "correct"}
    assert len(corrected) == 1170 - len(dropped)
    originals = {inst.idx: inst for inst in taskset.instances}
    for inst in corrected.instances:
        before = originals[inst.idx]
        assert inst.answer == new_gold.get(inst.idx, before.answer)
        assert (inst.query, inst.task, inst.required) == (
            before.query,
            before.task,
            before.required,
        )
    assert not dropped & {inst.idx for inst in corrected.instances}

    release = export_taskset(
        corrected, tmp_path / "release", changes=info.changes, parent_hash=info.parent_hash
    )
    assert release.rows == len(corrected)
    for back in (
        load_released(tmp_path / "release"),
        load_taskset(tmp_path / "release" / "tasks.json"),
    ):
        assert back.content_hash == corrected.content_hash
