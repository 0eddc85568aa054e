"""The sales families' gold, computed a second way: the analytics from plain rows in
Python (not the families' SQL aggregates), the quote and BANT items from what the
generator recorded (its latent variables), on B2B orgs of seeds 1-4. The larger scale is
in tests/benchmarks/bench_b2b.py."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import defaultdict
from datetime import date
from pathlib import Path

import pytest

from crm_tui.org.generate.build_file import generate
from crm_tui.tasks.pro_scoring import score_list
from crm_tui.tasks.sales_families import SALES_FAMILIES, generate_sales_items

PERIOD = re.compile(r"the past (\d+) (weeks|months|quarters)")


def _period(query: str, today: date) -> tuple[str, str]:
    n, unit = PERIOD.search(query).groups()  # type: ignore[union-attr]
    n = int(n)
    if unit == "weeks":
        return date.fromordinal(today.toordinal() - 7 * n).isoformat(), today.isoformat()
    months = n if unit == "months" else 3 * n
    total = today.year * 12 + today.month - 1 - months
    start = date(total // 12, total % 12 + 1, min(today.day, 28))
    return start.isoformat(), today.isoformat()


def _by_agent_second_way(conn: sqlite3.Connection, task: str, lo: str, hi: str) -> dict:
    opps = {
        r[0]: r
        for r in conn.execute("SELECT Id, OwnerId, CreatedDate, ContractID__c FROM Opportunity")
    }
    signed = dict(conn.execute("SELECT Id, CompanySignedDate FROM Contract"))
    out: dict[str, list[float]] = defaultdict(list)
    if task == "sales_amount_understanding":
        orders = dict(conn.execute('SELECT Id, OpportunityId FROM "Order"'))
        for order, qty, price in conn.execute("SELECT OrderId, Quantity, UnitPrice FROM OrderItem"):
            opp = opps.get(orders.get(order))
            if opp and opp[3] and lo <= signed[opp[3]] <= hi:
                out[opp[1]].append(qty * price)
        return {k: round(sum(v), 2) for k, v in out.items()}
    if task == "sales_cycle_understanding":
        for _, owner, created, contract in opps.values():
            if contract and lo <= signed[contract] <= hi:
                days = date.fromisoformat(signed[contract]) - date.fromisoformat(created[:10])
                out[owner].append(days.days)
        return {k: sum(v) / len(v) for k, v in out.items()}
    for owner, created, converted, day in conn.execute(
        "SELECT OwnerId, CreatedDate, IsConverted, ConvertedDate FROM Lead"
    ):
        if lo <= created[:10] <= hi:
            out[owner].append(1.0 if converted and day and lo <= day <= hi else 0.0)
    return {k: sum(v) / len(v) for k, v in out.items()}


@pytest.fixture(scope="module", params=[1, 2, 3, 4])
def items_and_org(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("sales") / "org.db"
    generate(path, seed=request.param, scale=0.3, kind="b2b")
    conn = sqlite3.connect(path)
    yield generate_sales_items(conn, request.param, 15), conn
    conn.close()


def check_items(items: list[dict], conn: sqlite3.Connection) -> None:
    """Every item's gold equals the second way's answer (shared with the benchmark)."""
    latent = {(o, r, v): json.loads(x) for o, r, v, x in conn.execute("SELECT * FROM _latent")}
    titles = dict(conn.execute("SELECT Id, Title FROM Knowledge__kav"))
    for item in items:
        task, gold, required = item["task"], item["answer"], item["metadata"]["required"]
        if task in ("quote_approval", "invalid_config"):
            quote = required.split("Quote Id to be considered is: ")[1].split()[0]
            assert gold == [latent[("Quote", quote, "violation")]], item
            if gold != [None]:
                is_discount = titles[gold[0]] == "Quote Discount Approval Policy"
                assert is_discount == (task == "quote_approval")
        elif task == "lead_qualification":
            lead = required.split("Lead Id to be considered is: ")[1].split()[0]
            gaps = latent[("Lead", lead, "bant_gaps")]
            assert gold == ([", ".join(gaps)] if gaps else [None]), item
        else:
            today = date.fromisoformat(required.split("Today's date: ")[1].split()[0])
            lo, hi = _period(item["query"], today)
            values = _by_agent_second_way(conn, task, lo, hi)
            if gold == [None]:
                assert not values, item
                continue
            best = max if any(w in item["query"] for w in ("highest", " top ")) else min
            target = best(values.values())
            winners = [k for k, v in values.items() if abs(v - target) < 1e-6]
            assert winners == gold, (item["query"], winners, gold)
        assert score_list(task, ", ".join(str(g) for g in gold), gold) == 1.0


def test_sales_gold_agrees_with_a_second_computation(items_and_org) -> None:
    items, conn = items_and_org
    assert {i["task"] for i in items} == set(SALES_FAMILIES)
    check_items(items, conn)


def test_sales_items_have_pro_form_and_null_shares(items_and_org) -> None:
    items, _ = items_and_org
    for task in SALES_FAMILIES:
        mine = [i for i in items if i["task"] == task]
        assert mine and all(isinstance(i["answer"], list) and i["persona"] for i in mine)
        nulls = sum(i["answer"] == [None] for i in mine)
        assert 0 < nulls <= len(mine) // 2, (task, nulls, len(mine))


def test_generated_sales_file_imports(items_and_org, tmp_path: Path) -> None:
    from crm_tui.tasks.taskset import load_taskset

    items, _ = items_and_org
    path = tmp_path / "sales.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    taskset = load_taskset(path)
    assert len(taskset) == len(items)
