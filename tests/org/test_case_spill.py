"""The generator's memory savings give what the held-in-memory versions gave:
the case texts set aside in temporary tables, the k-largest weighted sample, and order
lines derived from their order."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from crm_tui.org.generate import orders, people, products
from crm_tui.org.generate.case_spill import TextSpill
from crm_tui.org.generate.common import Sizes, weighted_sample
from crm_tui.org.store.orgstore import OrgStore

T = datetime(2024, 3, 1, 9, 0)


def test_spilled_mails_come_back_as_a_stable_sort_by_time_and_case(tmp_path):
    # (draft, place in its thread, time): ties at the same second across cases, and times
    # a fraction of a second apart (which the formatted MessageDate cannot tell apart).
    mails = [
        (0, 0, T + timedelta(seconds=0.5)),
        (0, 1, T + timedelta(seconds=2)),
        (1, 0, T),
        (1, 1, T + timedelta(seconds=2)),
        (2, 0, T + timedelta(seconds=2)),
        (2, 1, T + timedelta(seconds=0.25)),
    ]
    ranked = [2, 0, 1]  # draft 2 is the first case written, then 0, then 1
    with OrgStore.create(tmp_path / "org.sqlite") as store:
        spill = TextSpill(store.conn)
        for j in range(3):
            spill.case(j, f"subject {j}", f"description {j}")
            spill.chat(j, f"chat {j}")
        for j, i, t in mails:
            spill.mail(j, i, t, f"s{j}", f"body {j}.{i}", "from", "to", "to id", "date")
        spill.rank(ranked)
        # what the drafts held in memory gave: listed case by case, then sorted by time and case
        listed = [(t, k, i, j) for k, j in enumerate(ranked) for jj, i, t in mails if jj == j]
        expected = [(k, f"body {j}.{i}") for t, k, i, j in sorted(listed, key=lambda m: m[:2])]
        assert [(k, body) for k, _, body, *_ in spill.mails()] == expected
        assert list(spill.cases()) == [(f"subject {j}", f"description {j}") for j in ranked]
        assert spill.chat_body(1) == "chat 1"
        spill.close()
        tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_temp_master")}
        assert not tables
        assert not {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")} & {
            "spill_case",
            "spill_mail",
        }


def _sample_as_first_written(
    r: random.Random, items: list[int], weights: list[float], k: int
) -> list[int]:
    keyed: list[tuple[float, int, int]] = []
    for item, w in zip(items, weights):
        if w > 0:
            keyed.append((r.random() ** (1.0 / w), len(keyed), item))
    keyed.sort(reverse=True)
    return [item for _, _, item in keyed[:k]]


def test_the_weighted_sample_draws_as_the_full_sort_did():
    source = random.Random(3)
    for k in (0, 1, 5, 40, 60):
        items = list(range(50))
        weights = [source.choice((0.0, 0.5, 1.0, 3.0)) for _ in items]
        a, b = random.Random(k), random.Random(k)
        assert weighted_sample(a, items, weights, k) == _sample_as_first_written(
            b, items, weights, k
        )
        assert a.random() == b.random()  # the stream goes on from the same state


def test_order_lines_derived_from_their_order_are_the_rows_written(tmp_path):
    sizes = Sizes.for_scale(0.05)
    with OrgStore.create(tmp_path / "org.sqlite") as store:
        crowd = people.build(store, 5, sizes)
        cat = products.build(store, 5, sizes)
        book = orders.build(store, 5, sizes, crowd, cat)
        rows = store.conn.execute(
            "SELECT i.Id, o.OrderNumber, p.Id, i.Quantity, i.UnitPrice FROM OrderItem i "
            'JOIN "Order" o ON o.Id = i.OrderId JOIN Product2 p ON p.Id = i.Product2Id '
            "ORDER BY i.Id"
        ).fetchall()
    derived = [
        (line.id, order.number, cat.products[line.product].id, line.quantity, line.price)
        for oi, order in enumerate(book.orders)
        for line in (book.line(oi, li) for li in range(len(order.items)))
    ]
    assert len(rows) > 50
    assert sorted(derived) == [tuple(row) for row in rows]
