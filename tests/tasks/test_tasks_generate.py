"""Task-set generation: counts, None share, uniqueness, determinism, golds that recompute."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from crm_tui.cli import main
from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.sftime import parse_datetime
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks import gold
from crm_tui.tasks.families import families
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.periods import Period
from crm_tui.tasks.scoring import score
from crm_tui.tasks.taskset import check_taskset_matches, load_taskset, write_taskset
from tests.helpers.paths import CRMARENA_TASKS, needs_crmarena
from tests.helpers.task_org import random_org

PER_TASK = 20
FALSE_PRESUPPOSITION = {
    "handle_time",
    "transfer_count",
    "top_issue_identification",
    "named_entity_disambiguation",
    "policy_violation_identification",
}


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    store = random_org(tmp_path_factory.mktemp("bench") / "random.sqlite")
    yield store
    store.close()


@pytest.fixture(scope="module")
def taskset(org):
    return generate_taskset(org, per_task=PER_TASK, seed=5)


def recompute(store: OrgStore, inst) -> str | None:
    """The gold again, from the instance's hidden parameters only."""
    p = inst.params
    period = None
    if "start" in p:
        period = Period(
            parse_datetime(p["start"]),
            parse_datetime(p["end"]),
            p["period"],
            named=not p["period"].startswith("past"),
        )
    match inst.task:
        case "handle_time":
            assert period is not None
            return gold.handle_time(store, period, p["threshold"], p["extreme"])
        case "transfer_count":
            assert period is not None
            return gold.transfer_count(store, period, p["threshold"], p["extreme"])
        case "case_routing":
            return gold.case_routing(store, p["issue_id"], p["product_id"])
        case "named_entity_disambiguation":
            n, unit = p["ago"].split()
            return gold.named_entity_disambiguation(
                store, p["contact_id"], date.fromisoformat(p["today"]), int(n), unit, p["nickname"]
            )
        case "policy_violation_identification":
            return gold.policy_violation_identification(store, p["case_id"])
        case "knowledge_qa":
            return gold.knowledge_qa(store, p["article_id"], p["question"])
        case "top_issue_identification":
            assert period is not None
            return gold.top_issue_identification(store, p["product_id"], period)
        case "monthly_trend_analysis":
            assert period is not None
            return gold.monthly_trend_analysis(store, p["product_id"], period)
        case "best_region_identification":
            assert period is not None
            return gold.best_region_identification(store, period)
    return None


def test_counts_none_share_and_blocks(taskset):
    counts = Counter(inst.task for inst in taskset.instances)
    assert counts == {name: PER_TASK for name in families()}
    nones = Counter(inst.task for inst in taskset.instances if inst.answer is None)
    assert nones == {name: round(PER_TASK * 0.3) for name in FALSE_PRESUPPOSITION}
    for inst in taskset.instances:
        assert inst.idx // PER_TASK == inst.family.block
        assert (inst.answer is None) == ("none_reason" in inst.extra)
    assert sorted(i.idx for i in taskset.instances) == list(range(9 * PER_TASK))


def test_queries_and_parameters_are_unique(taskset):
    # What a solver reads is the query and the metadata: PVI names its case only there.
    asked = [(inst.query, inst.required) for inst in taskset.instances]
    assert len(set(asked)) == len(asked)
    for inst in taskset.instances:
        if inst.family.suffix:
            assert inst.family.suffix.split()[-1] in inst.query
        assert "{" not in inst.query and "{" not in inst.required


def test_every_gold_recomputes_from_its_hidden_parameters(org, taskset):
    for inst in taskset.instances:
        assert recompute(org, inst) == inst.answer, inst.query


def test_gold_scores_full_marks_against_itself(taskset):
    for inst in taskset.instances:
        answer = "None" if inst.answer is None else inst.answer  # None is answered "None"
        assert score(inst.task, answer, inst.answer) == 1.0


def test_generation_is_deterministic_per_seed(org, taskset):
    again = generate_taskset(org, per_task=PER_TASK, seed=5)
    assert again.content_hash == taskset.content_hash
    other = generate_taskset(org, per_task=PER_TASK, seed=6)
    assert other.content_hash != taskset.content_hash


def test_written_set_is_pinned_to_its_org(org, taskset, tmp_path):
    path = tmp_path / "set.json"
    write_taskset(taskset, path)
    loaded = load_taskset(path)
    assert loaded.fingerprint == org.fingerprint
    assert loaded.content_hash == taskset.content_hash
    check_taskset_matches(loaded, org)
    other = random_org(tmp_path / "other.sqlite", seed=4)
    with pytest.raises(CrmTuiError, match="generated from org"):
        check_taskset_matches(loaded, other)


def test_an_org_too_small_is_refused_with_the_families_named(tmp_path):
    store = random_org(tmp_path / "tiny.sqlite", cases=30)
    with pytest.raises(CrmTuiError, match="cannot fill"):
        generate_taskset(store, per_task=130)
    short = generate_taskset(store, per_task=130, allow_short=True)
    assert 0 < len(short) < 9 * 130


def test_default_org_gives_crmarenas_shape(default_set):
    taskset = default_set
    assert len(taskset) == 1170
    assert Counter(i.task for i in taskset.instances) == {name: 130 for name in families()}
    nones = Counter(i.task for i in taskset.instances if i.answer is None)
    assert nones == {name: 39 for name in FALSE_PRESUPPOSITION}
    assert len({(i.query, i.required) for i in taskset.instances}) == 1170


def test_every_routing_rule_decides_a_fair_share_at_seed_1(default_org_path, default_set):
    routing = default_set.by_task()["case_routing"]
    shares = Counter(i.extra["decided_by"] for i in routing)
    assert set(shares) == set(gold.ROUTING_RULES)
    assert all(n >= 0.15 * len(routing) for n in shares.values()), shares
    assert len({i.answer for i in routing}) >= 15
    with OrgStore.open(default_org_path) as store:
        for inst in routing:  # the rule recorded is the rule that decides
            p = inst.params
            decision = gold.case_routing_decision(store, p["issue_id"], p["product_id"])
            assert decision == (inst.answer, inst.extra["decided_by"])


def test_tasks_stats_shows_the_share_each_routing_rule_decides(
    default_set, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "tasks.json"
    write_taskset(default_set, path)
    main(["tasks", "stats", str(path)])
    printed = capsys.readouterr().out
    routing = default_set.by_task()["case_routing"]
    shares = Counter(i.extra["decided_by"] for i in routing)
    line = next(row for row in printed.splitlines() if "case_routing" in row)
    for rule in gold.ROUTING_RULES:
        assert f"{rule} {100 * shares[rule] / len(routing):.0f}%" in line, line
    assert f" {len({i.answer for i in routing})} " in line
    pvi = next(row for row in printed.splitlines() if "policy_violation" in row)
    assert "%" not in pvi.split("│")[-2]  # one rule: no "decided by" shares


def _stats_line(task: str, *argv: str, capsys) -> list[str]:
    """The cells of `task`'s row in `crm-tui tasks stats ARGV`."""
    main(["tasks", "stats", *argv])
    printed = capsys.readouterr().out
    row = next(row for row in printed.splitlines() if task in row)
    return [cell.strip() for cell in row.split("│")[1:-1]]


@needs_crmarena
def test_tasks_stats_shows_distinct_queries_next_to_crmarenas(
    default_set, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "220")
    monkeypatch.chdir(tmp_path)  # no crmarena.json here
    path = tmp_path / "tasks.json"
    write_taskset(default_set, path)
    pvi = default_set.by_task()["policy_violation_identification"]
    theirs = load_taskset(CRMARENA_TASKS).by_task()["policy_violation_identification"]
    ours_n, theirs_n = len({i.query for i in pvi}), len({i.query for i in theirs})
    alone = _stats_line("policy_violation", str(path), capsys=capsys)
    assert str(ours_n) in alone and str(theirs_n) not in alone
    both = _stats_line(
        "policy_violation", str(path), "--crmarena", str(CRMARENA_TASKS), capsys=capsys
    )
    assert both[both.index(str(ours_n)) + 1] == str(theirs_n), both
    # where `tasks fetch-crmarena` writes it by default, it is found without the option
    (tmp_path / "crmarena.json").write_bytes(CRMARENA_TASKS.read_bytes())
    assert _stats_line("policy_violation", str(path), capsys=capsys) == both


def test_routing_cases_are_new_not_copied_from_the_org(default_org_path, default_set):
    with OrgStore.open(default_org_path) as store:
        existing = {r[0] for r in store.conn.execute('SELECT Description FROM "Case"')}
        numbers = {r[0] for r in store.conn.execute('SELECT OrderNumber FROM "Order"')}
    for inst in default_set.by_task()["case_routing"]:
        description = inst.query.split("- Case Description: ", 1)[1]
        assert description not in existing
        assert inst.params["order_number"] not in numbers
        assert "template_case_id" not in inst.params


def test_policy_violation_gives_its_case_in_the_metadata_only(default_set):
    for inst in default_set.by_task()["policy_violation_identification"]:
        case_id = inst.params["case_id"]
        assert case_id not in inst.query
        assert inst.required.startswith(f"- Case Id to be considered is: {case_id}")


@needs_crmarena
def test_distinct_answers_reach_70_percent_of_crmarenas(default_set):
    crmarena = load_taskset(CRMARENA_TASKS)
    theirs = {t: len({i.answer for i in insts}) for t, insts in crmarena.by_task().items()}
    ours = {t: len({i.answer for i in insts}) for t, insts in default_set.by_task().items()}
    assert set(ours) == set(theirs)
    short = {t: (ours[t], theirs[t]) for t in ours if ours[t] < 0.7 * theirs[t]}
    assert not short, short


@needs_crmarena
def test_distinct_queries_reach_90_percent_of_crmarenas(default_set):
    crmarena = load_taskset(CRMARENA_TASKS)
    theirs = {t: len({i.query for i in insts}) for t, insts in crmarena.by_task().items()}
    ours = {t: len({i.query for i in insts}) for t, insts in default_set.by_task().items()}
    assert set(ours) == set(theirs)
    short = {t: (ours[t], theirs[t]) for t in ours if ours[t] < 0.9 * theirs[t]}
    assert not short, short
