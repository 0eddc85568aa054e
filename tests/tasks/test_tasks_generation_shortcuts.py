"""The task generator's shortcuts give exactly what they replace.

NED's purchases read by rowid (`org_facts.Purchases`) are the order lines the generator
held in a list before, in the same order, and `ordered_on` answers as that list's days did;
means ranked by integer cross products (`gold.unique_extreme_mean`) pick the winner and
the ties Fractions pick; `periods.add_units` adds calendar units as dateutil does;
`OrgFacts.most_managed`, which stops counting at 4, tells apart what the full count does;
the policy violations SQLite takes out of the hidden values are the ones Python parses;
NCR's counts made in one pass are the GROUP BY counts of the gold's statements; GoldRows
read on another connection, as `tasks generate` hands them in, give the same task set.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from fractions import Fraction

import pytest
from dateutil.relativedelta import relativedelta

from crm_tui.org.schema import latent
from crm_tui.org.schema.sftime import parse_date
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks import gold
from crm_tui.tasks.generate import generate_taskset
from crm_tui.tasks.gold_rows import GoldRows
from crm_tui.tasks.org_facts import MANAGED_CAP, OrgFacts
from crm_tui.tasks.periods import add_units, named_period, relative_period
from tests.helpers.task_org import OrgBuilder, random_org


def listed_purchases(store: OrgStore) -> tuple[list[tuple], dict[str, set[date]]]:
    """The purchases and order days as the generator held them before: every activated
    order line read into Python, in OrderItem Id order."""
    nicknamed = {
        pid for pid, text in store.latent(*latent.PRODUCT_NICKNAMES).items() if latent.loads(text)
    }
    contact_of: dict[str, str] = {}
    for contact, account in store.conn.execute(
        "SELECT Id, AccountId FROM Contact WHERE AccountId IS NOT NULL ORDER BY Id"
    ):
        contact_of.setdefault(account, contact)
    purchases = []
    days: dict[str, set[date]] = {}
    for account, day, product in store.conn.execute(
        'SELECT o.AccountId, o.EffectiveDate, oi.Product2Id FROM "Order" o '
        "JOIN OrderItem oi ON oi.OrderId = o.Id WHERE o.Status = 'Activated' ORDER BY oi.Id"
    ):
        days.setdefault(account, set()).add(parse_date(day))
        if product in nicknamed and account in contact_of:
            purchases.append((contact_of[account], account, parse_date(day), product))
    return purchases, days


FIRST_LINE = "802Lc000000000AAAA"  # before every Id the builder makes (802Lc00001...)
FIRST_PRODUCT = "01tLc0000100001IAA"


@pytest.fixture(scope="module")
def org(tmp_path_factory):
    rng = random.Random(17)
    org = OrgBuilder(tmp_path_factory.mktemp("facts") / "org.sqlite")
    agent = org.user("agent")
    accounts = [org.account("GA") for _ in range(12)]
    for n, account in enumerate(accounts):
        for _ in range(n % 3):  # none, one or two contacts: the first by Id is the buyer
            org.contact(account)
    products = [
        org.product("Trail Shoe", nicknames=["trail shoe"]),
        org.product("Road Shoe"),  # no nicknames: never a purchase
        org.product("Cap", nicknames=[]),  # an empty list is no nicknames either
        org.product("Sock", nicknames=["sock"]),
    ]
    first = date(2022, 1, 1)
    for _ in range(200):
        org.order(
            rng.choice(accounts),
            first + timedelta(days=rng.randrange(90)),
            rng.choice(products),
            status=rng.choice(("Activated", "Activated", "Draft")),
        )
    # An order line whose Id sorts before every other one, written last into the last
    # activated order: the purchases follow OrderItem Ids, not how rows were written.
    (order,) = org.store.conn.execute(
        "SELECT max(Id) FROM \"Order\" WHERE Status = 'Activated' AND AccountId IN "
        "(SELECT AccountId FROM Contact)"
    ).fetchone()
    line = {"Id": FIRST_LINE, "OrderId": order, "Product2Id": products[0], "Quantity": 1}
    org.store.insert("OrderItem", [line])
    # Lines of no order (one naming an order the org does not have, one naming none) are
    # no purchases, whatever their product.
    for n, missing in enumerate(("801Lc0000099999AAA", None)):
        stray = {"Id": f"802Lc00000009{n}AAAA", "OrderId": missing, "Product2Id": products[0]}
        org.store.insert("OrderItem", [stray | {"Quantity": 1}])
    # An activated order without lines: its day is no order day.
    org._add("Order", AccountId=accounts[1], Status="Activated", EffectiveDate="2022-06-01")
    org.case([agent], "2022-02-01 10:00")
    store = org.finish()
    yield store
    store.close()


def test_purchases_read_by_rowid_are_the_listed_order_lines(org):
    purchases, days = listed_purchases(org)
    facts = OrgFacts.read(org)
    assert len(purchases) > 40 and purchases[0][1:] != purchases[1][1:]
    assert len(facts.purchases) == len(purchases)
    assert [facts.purchases[i] for i in range(len(purchases))] == purchases
    assert org.conn.execute("SELECT min(Id) FROM OrderItem").fetchone()[0] == FIRST_LINE
    assert facts.purchases[0] == purchases[0] and purchases[0][3] == FIRST_PRODUCT
    for account, day in {(p[1], p[2]) for p in purchases} | {(a, d) for a in days for d in days[a]}:
        for nearby in (day + timedelta(days=k) for k in range(-3, 4)):
            assert facts.purchases.ordered_on(account, nearby) == (nearby in days[account])
    (lonely,) = org.conn.execute(
        'SELECT AccountId FROM "Order" WHERE EffectiveDate = ?', ("2022-06-01",)
    ).fetchone()
    assert not facts.purchases.ordered_on(lonely, date(2022, 6, 1))
    # The same draw from both, as `random.choice` makes it.
    assert random.Random(5).choice(facts.purchases) == random.Random(5).choice(purchases)


def fraction_winner(totals: dict[str, tuple[int, int]], extreme: str) -> str:
    return gold.unique_extreme({k: Fraction(s, n) for k, (s, n) in totals.items()}, extreme, "x")


def outcome(rank, *args):
    try:
        return rank(*args)
    except gold.Undecidable as error:
        return f"Undecidable: {error}"


def test_means_ranked_by_cross_products_pick_what_fractions_pick():
    rng = random.Random(3)
    for trial in range(3000):
        keys = [f"a{i}" for i in range(rng.randint(1, 8))]
        # Small sums and counts, so that equal means with other counts (2/4, 3/6) are common.
        totals = {k: (rng.randint(0, 12), rng.randint(1, 6)) for k in keys}
        if trial % 3 == 0:  # and large ones, as seconds of handle time are
            totals = {k: (s * 86_400 + rng.randint(0, 1), n) for k, (s, n) in totals.items()}
        for extreme in ("min", "max"):
            assert outcome(gold.unique_extreme_mean, totals, extreme, "x") == outcome(
                fraction_winner, totals, extreme
            ), (totals, extreme)
    with pytest.raises(gold.Undecidable, match="nothing to rank"):
        gold.unique_extreme_mean({}, "min", "x")


def test_calendar_units_add_as_dateutil_adds_them():
    day = date(2019, 12, 1)
    while day < date(2025, 3, 1):  # leap days and month ends included
        for unit in ("days", "weeks", "months", "years"):
            for n in range(-14, 15):
                step = relativedelta(**{unit: n})  # type: ignore[arg-type]  # a keyword, never `dt1`
                assert add_units(day, n, unit) == day + step
                at = datetime(day.year, day.month, day.day, 15, 15)
                assert add_units(at, n, unit) == at + step
        day += timedelta(days=3 if day.day < 26 else 1)
    with pytest.raises(ValueError, match="Unknown unit"):
        add_units(day, 1, "fortnights")


@pytest.fixture(scope="module")
def random_store(tmp_path_factory):
    store = random_org(tmp_path_factory.mktemp("random") / "random.sqlite", cases=300)
    yield store
    store.close()


def test_violations_taken_out_by_sqlite_are_the_parsed_ones(random_store):
    parsed = {
        case: latent.loads(text).get("article")
        for case, text in random_store.latent(*latent.CASE_POLICY_VIOLATION).items()
    }
    assert None in parsed.values() and len(set(parsed.values())) > 10
    assert OrgFacts.read(random_store).violations == parsed


def test_most_managed_counts_up_to_the_cap_as_the_full_count_does(random_store):
    store = random_store
    facts = OrgFacts.read(store)
    periods = [named_period(month, 2021) for month in ("March", "June", "October")]
    first = date(2021, 1, 1)
    periods += [
        relative_period(first + timedelta(days=d), n, unit)
        for d in range(0, 730, 11)
        for n, unit in ((1, "weeks"), (3, "weeks"), (1, "months"), (2, "months"), (1, "years"))
    ]
    seen = set()
    for period in periods:
        (full,) = store.conn.execute(
            "SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM CaseHistory__c "
            "WHERE Field__c = 'Owner Assignment' AND NewValue__c IS NOT NULL "
            "AND CreatedDate >= ? AND CreatedDate <= ? GROUP BY NewValue__c)",
            (period.sf_start, period.sf_end),
        ).fetchone()
        assert facts.most_managed(period) == min(full, MANAGED_CAP), period.label
        seen.add(min(full, MANAGED_CAP + 1))
    assert seen == {0, 1, 2, 3, 4, 5}  # every count the drafts tell apart, and beyond


def grouped(store: OrgStore, sql: str) -> dict:
    nested: dict = {}
    for *keys, count in store.conn.execute(sql):
        if len(keys) == 1:
            nested[keys[0]] = count
        else:
            nested.setdefault(keys[0], {})[keys[1]] = count
    return nested


def test_routing_counts_in_one_pass_are_the_statements_group_by_counts(tmp_path):
    rng = random.Random(4)
    org = OrgBuilder(tmp_path / "routing.sqlite")
    agents = [org.user(f"agent{i}") for i in range(5)]
    account = org.account("GA")
    products = [org.product(f"Shoe {i}") for i in range(3)]
    items = [org.order(account, date(2022, 1, 1), product) for product in products]
    issues = [org.issue(name) for name in ("Late", "Broken")]
    for n in range(120):
        case = org.case(
            [rng.choice(agents)],
            "2022-02-01 10:00",
            "2022-02-03 10:00" if n % 2 else None,
            issue=rng.choice([*issues, None]),
            item=rng.choice([*items, None]),
        )
        status = rng.choice(("Open", "New", "Escalated", None, "Closed"))
        org.store.conn.execute('UPDATE "Case" SET Status = ? WHERE Id = ?', (status, case))
    store = org.finish()
    held = GoldRows.read(store)
    closed_issue = grouped(
        store,
        "SELECT IssueId__c, OwnerId, count(*) FROM \"Case\" WHERE Status = 'Closed' "
        "AND OwnerId IS NOT NULL AND IssueId__c IS NOT NULL GROUP BY 1, 2",
    )
    closed_product = grouped(
        store,
        'SELECT oi.Product2Id, c.OwnerId, count(*) FROM "Case" c JOIN OrderItem oi '
        "ON c.OrderItemId__c = oi.Id WHERE c.Status = 'Closed' AND c.OwnerId IS NOT NULL "
        "AND oi.Product2Id IS NOT NULL GROUP BY 1, 2",
    )
    assert held.closed_by_issue == closed_issue and held.closed_by_product == closed_product
    for counts, condition in ((held.not_closed, "!= 'Closed'"), (held.open, "= 'Open'")):
        assert counts == grouped(
            store,
            f'SELECT OwnerId, count(*) FROM "Case" WHERE Status {condition} '
            "AND OwnerId IS NOT NULL GROUP BY OwnerId",
        )
    assert store.conn.execute('SELECT count(*) FROM "Case" WHERE Status IS NULL').fetchone()[0]
    store.close()


def test_held_rows_read_elsewhere_give_the_same_task_set(random_store):
    """`tasks generate` hands in the GoldRows another thread read on its own connection."""
    other = OrgStore.open(random_store.path)
    calls = []

    def read_elsewhere() -> GoldRows:
        calls.append(1)
        return GoldRows.read(other)

    try:
        expected = generate_taskset(random_store, per_task=6, seed=3, allow_short=True)
        given = generate_taskset(
            random_store, per_task=6, seed=3, allow_short=True, held=read_elsewhere
        )
    finally:
        other.close()
    assert calls == [1]
    assert len(expected.instances) > 20 and given.instances == expected.instances
