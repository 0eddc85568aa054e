"""A small study to audit: CRMArena-style queries of four answer types, three annotators
who answer them, and flags; the adjudication tests and the app's queue read it."""

from __future__ import annotations

from pathlib import Path

from crm_tui.study.service import Profile, StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import Mode
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.studies import create_study, solve_only_preset, with_overrides
from crm_tui.tasks.families import get_family
from crm_tui.tasks.taskset import Instance, TaskSet, imported

GOLD_ID = "005Ws000001xadBIAQ"
OTHER_ID = "005Ws000001xZvdIAE"
ROWS = {  # idx -> (task, gold)
    0: ("case_routing", GOLD_ID),
    1: ("monthly_trend_analysis", "March"),
    2: ("best_region_identification", "GA"),
    3: ("knowledge_qa", "Restart the router and wait two minutes"),
    4: ("case_routing", OTHER_ID),
}
# Every annotator's answers: all agree on 0 (not the gold) and on 1 (the gold), and
# disagree on 2; 3 and 4 are answered as the gold.
ANSWERS = {
    "Ana": {0: OTHER_ID, 1: "March", 2: "GA", 3: "Restart the router", 4: OTHER_ID},
    "Ben": {0: OTHER_ID, 1: "march", 2: "TX", 3: "Restart the router", 4: OTHER_ID},
    "Cleo": {0: OTHER_ID, 1: "March", 2: "CA", 3: "Restart the router", 4: OTHER_ID},
}


def audit_taskset(org_fingerprint: str = "crmarena") -> TaskSet:
    instances = []
    for idx, (task, gold) in ROWS.items():
        family = get_family(task)
        instances.append(
            Instance(
                idx,
                task,
                f"Query {idx} of {task}: which one?",
                gold,
                "- Today's date: 2023-01-15",
                "",
                family.metric,
                {"params": {"case_id": "500Ws000001aaaaIAA"}} if idx == 0 else {},
            )
        )
    return imported(TaskSet(instances, org_fingerprint))


def make_audit_study(
    path: Path, clock: FakeClock, *, two_person: bool = False, org_fingerprint: str = "crmarena"
) -> TaskSet:
    """The study (every annotator answers every query) with an auditor Ari, coordinators
    Cora and Dev, Ari's flag on query 2 suggesting "TX" and Ana's on query 1."""
    taskset = audit_taskset(org_fingerprint)
    preset = with_overrides(solve_only_preset(len(ROWS)), annotators_per_item=len(ANSWERS), seed=3)
    if two_person:
        preset = preset.model_copy(update={"two_person_rule": True})
    with StudyStore.open(path, clock) as store:
        create_study(
            store,
            "audit",
            preset,
            instances=[i.to_row() for i in taskset.instances],
            task_set_hash=taskset.content_hash,
            org_fingerprint=org_fingerprint,
        )
    with StudyService.open(path, clock=clock) as service:
        for name, answers in ANSWERS.items():
            person = service.create_profile(name, "Customer Service Agent", 4)
            while (view := service.open_next(person.id)) is not None:
                service.submit_answer(view.attempt_id, answers[view.item.idx], confidence=3)
        ari = service.create_profile("Ari", "QA Lead", 9, Mode.AUDITOR)
        service.create_profile("Cora", "Service Manager", 12, Mode.COORDINATOR)
        service.create_profile("Dev", "Service Manager", 7, Mode.COORDINATOR)
        item_2 = next(i for i in service.audit_items(ari.id) if i.idx == 2)
        service.flag_item(ari.id, item_2.item_id, "wrong_gold", "Texas leads", "TX")
        item_1 = next(i for i in service.audit_items(ari.id) if i.idx == 1)
        ana = profile(service, "Ana")
        service.flag_item(ana.id, item_1.item_id, "typo_format", "say which year")
    return taskset


def profile(service: StudyService, name: str) -> Profile:
    return next(p for p in service.profiles() if p.name == name)
