"""The queries that show a generated task's gold on the org: every family's run on the
small org without an error, and their rows lead to the gold where a ranking decides it;
parameters that are missing or not what they should be give no query."""

from __future__ import annotations

import calendar

import pytest

from crm_tui.org.backends.local import LocalBackend
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.gold_queries import BUILDERS, gold_queries
from crm_tui.tasks.taskset import TaskSet


@pytest.fixture(scope="module")
def small_set(small_org_path) -> TaskSet:
    with OrgStore.open(small_org_path) as store:
        return generate_taskset(store, per_task=4, allow_short=True)


@pytest.fixture(scope="module")
def backend(small_org_path):
    org = LocalBackend(small_org_path)
    yield org
    org.close()


def test_every_family_has_queries_that_run_on_the_org(small_set, backend):
    assert {i.task for i in small_set.instances} == set(BUILDERS)
    for instance in small_set.instances:
        queries = gold_queries(instance.task, instance.params)
        assert queries, instance.task
        for query in queries:
            backend.soql(query.soql)  # raises on a query the org refuses


def test_the_rows_lead_to_the_gold_where_a_ranking_decides(small_set, backend):
    checked = set()
    for instance in small_set.instances:
        if instance.answer is None:
            continue
        queries = gold_queries(instance.task, instance.params)
        first = [dict(r) for r in backend.soql(queries[0].soql).records]
        if instance.task == "top_issue_identification":
            assert first[0]["IssueId__c"] == instance.answer
        elif instance.task == "monthly_trend_analysis":
            assert calendar.month_name[first[0]["expr0"]] == instance.answer
        elif instance.task == "case_routing":
            top = first[0]["expr0"]
            leaders = {r["OwnerId"] for r in first if r["expr0"] == top}
            assert instance.answer in leaders  # the policy's later rules pick among them
            if instance.extra.get("decided_by") == "expertise":
                assert leaders == {instance.answer}
        else:
            continue
        checked.add(instance.task)
    assert checked == {"top_issue_identification", "monthly_trend_analysis", "case_routing"}


@pytest.mark.parametrize(
    ("task", "params"),
    [
        ("case_routing", None),
        ("case_routing", {"case_id": "500Ws000001aaaaIAA"}),  # not this family's
        ("case_routing", {"issue_id": "x' OR Id != '", "product_id": "01tWs000001aaaaIAA"}),
        ("handle_time", {"start": "2023-01-01", "end": "2023-02-01T00:00:00.000+0000"}),
        ("a_family_nobody_knows", {"case_id": "500Ws000001aaaaIAA"}),
    ],
)
def test_missing_or_malformed_parameters_give_no_query(task, params):
    assert gold_queries(task, params) == []
