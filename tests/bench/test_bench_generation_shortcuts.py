"""Issue 17: the task generator's shortcuts give exactly what they replace.

NED's purchases read by rowid (`org_facts.Purchases`) are the order lines the generator
held in a list before, in the same order, and `ordered_on` answers as that list's days did;
means ranked by integer cross products (`gold.unique_extreme_mean`) pick the winner and
the ties Fractions pick; `periods.add_units` adds calendar units as dateutil does;
`OrgFacts.most_managed`, which stops counting at 4, tells apart what the full count does.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from fractions import Fraction

import pytest
from dateutil.relativedelta import relativedelta

from crm_tui.bench import gold
from crm_tui.bench.org_facts import MANAGED_CAP, OrgFacts
from crm_tui.bench.periods import add_units, named_period, relative_period
from crm_tui.org.schema import latent
from crm_tui.org.schema.sftime import parse_date
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.bench_org import OrgBuilder, random_org


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
    purchases, days = [], {}
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
                assert add_units(day, n, unit) == day + relativedelta(**{unit: n})
                at = datetime(day.year, day.month, day.day, 15, 15)
                assert add_units(at, n, unit) == at + relativedelta(**{unit: n})
        day += timedelta(days=3 if day.day < 26 else 1)
    with pytest.raises(ValueError, match="Unknown unit"):
        add_units(day, 1, "fortnights")


def test_most_managed_counts_up_to_the_cap_as_the_full_count_does(tmp_path):
    store = random_org(tmp_path / "random.sqlite", cases=300)
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
    store.close()
