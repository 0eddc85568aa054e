"""Build tiny orgs by hand for the task-layer tests: a few records whose gold answers are known."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from crm_tui.org.schema import latent
from crm_tui.org.schema.catalogue import get_object
from crm_tui.org.schema.ids import make_id
from crm_tui.org.schema.sftime import format_date, format_datetime
from crm_tui.org.store.orgstore import OrgStore


def ts(text: str) -> str:
    """'2022-03-16 15:15' -> Salesforce DateTime text."""
    return format_datetime(datetime.fromisoformat(text))


class OrgBuilder:
    """Adds records with generated Ids; `finish()` indexes the org and returns the store."""

    def __init__(self, path: Path):
        self.store = OrgStore.create(path)
        self.numbers: dict[str, int] = {}

    def _add(self, object_name: str, **fields) -> str:
        prefix = get_object(object_name).key_prefix
        self.numbers[prefix] = self.numbers.get(prefix, 0) + 1
        record_id = make_id(prefix, self.numbers[prefix])
        self.store.insert(object_name, [{"Id": record_id, **fields}])
        return record_id

    def user(self, name: str) -> str:
        return self._add(
            "User",
            Name=name,
            LastName=name,
            Email=f"{name}@x.example",
            Username=f"{name}@x.example",
        )

    def account(self, state: str | None = None) -> str:
        return self._add("Account", Name="Customer", LastName="Customer", ShippingState=state)

    def contact(self, account: str) -> str:
        return self._add("Contact", Name="Contact", LastName="Contact", AccountId=account)

    def product(self, name: str, description: str = "", nicknames=()) -> str:
        product = self._add("Product2", Name=name, Description=description, IsActive=1)
        if nicknames:
            self.store.set_latent(
                [("Product2", product, latent.PRODUCT_NICKNAMES[1], latent.dumps(list(nicknames)))]
            )
        return product

    def order(self, account: str, day: date, product: str, status: str = "Activated") -> str:
        """An order of one product; returns the order item's Id."""
        order = self._add("Order", AccountId=account, Status=status, EffectiveDate=format_date(day))
        return self._add("OrderItem", OrderId=order, Product2Id=product, Quantity=1)

    def issue(self, name: str) -> str:
        return self._add("Issue__c", Name=name)

    def case(
        self,
        owners: list[str],
        created: str,
        closed: str | None = None,
        issue: str | None = None,
        item: str | None = None,
        account: str | None = None,
        status: str | None = None,
        transfers_at: list[str] | None = None,
        subject: str = "Help",
        description: str = "Please help",
    ) -> str:
        """A case assigned to owners[0] when created, then transferred along `owners`
        at the `transfers_at` times; its OwnerId is the last owner."""
        status = status or ("Closed" if closed else "New")
        case = self._add(
            "Case",
            Subject=subject,
            Description=description,
            Status=status,
            OwnerId=owners[-1],
            CreatedDate=ts(created),
            ClosedDate=ts(closed) if closed else None,
            IssueId__c=issue,
            OrderItemId__c=item,
            AccountId=account,
        )
        times = [created, *(transfers_at or [])]
        assert len(times) == len(owners), "one time per owner"
        previous = None
        for owner, when in zip(owners, times):
            self._add(
                "CaseHistory__c",
                CaseId__c=case,
                Field__c="Owner Assignment",
                OldValue__c=previous,
                NewValue__c=owner,
                CreatedDate=ts(when),
            )
            previous = owner
        return case

    def article(self, title: str, body: str, qa=()) -> str:
        article = self._add(
            "Knowledge__kav", Title=title, FAQ_Answer__c=body, UrlName=title.replace(" ", "-")
        )
        if qa:
            self.store.set_latent(
                [
                    (
                        "Knowledge__kav",
                        article,
                        latent.ARTICLE_QA[1],
                        latent.dumps([{"question": q, "answer": a} for q, a in qa]),
                    )
                ]
            )
        return article

    def email(self, case: str, body: str) -> str:
        return self._add("EmailMessage", ParentId=case, TextBody=body, Subject="Re: Help")

    def violation(self, case: str, article: str | None, offered: str = "Refund") -> None:
        self.store.set_latent(
            [
                (
                    "Case",
                    case,
                    latent.CASE_POLICY_VIOLATION[1],
                    latent.dumps({"article": article, "offered": offered}),
                )
            ]
        )

    def finish(self) -> OrgStore:
        self.store.finish()
        return self.store


def random_org(path: Path, seed: int = 3, cases: int = 400) -> OrgStore:
    """A small random org with every ingredient the nine families need, for generation tests
    that must not depend on the real generator."""
    import random
    from datetime import timedelta

    rng = random.Random(seed)
    org = OrgBuilder(path)
    agents = [org.user(f"agent{i}") for i in range(12)]
    states = ["GA", "CA", "OR", "MA", "KY"]
    accounts = [org.account(rng.choice(states)) for _ in range(40)]
    for account in accounts:
        org.contact(account)
    kinds = ["jacket", "shoe", "tank", "bra", "rope", "glove", "sock", "cap"]
    products = [
        org.product(
            f"Trail {kind.title()} {i}",
            f"A {kind} for runners number{i}.",
            nicknames=[f"runners {kind} number{i}"],
        )
        for i, kind in enumerate(kinds * 3)
    ]
    issues = [org.issue(name) for name in ("Late", "Broken", "Size", "Billing")]
    items = []
    start = date(2021, 1, 1)
    for _ in range(300):
        day = start + timedelta(days=rng.randrange(700))
        account = rng.choice(accounts)
        items.append((org.order(account, day, rng.choice(products)), account))
    for n in range(cases):
        created = datetime(2021, 1, 1) + timedelta(minutes=rng.randrange(700 * 24 * 60), seconds=30)
        owners = [rng.choice(agents) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
        moves = [created + timedelta(hours=h + 1) for h in range(len(owners) - 1)]
        closed = created + timedelta(minutes=rng.randrange(60, 9000))
        item, account = rng.choice(items)
        org.case(
            owners,
            created.isoformat(" ", "seconds"),
            closed.isoformat(" ", "seconds") if rng.random() < 0.85 else None,
            issue=rng.choice(issues),
            item=item,
            account=account,
            transfers_at=[m.isoformat(" ", "seconds") for m in moves],
            subject=f"Problem {n}",
            description=f"My order {n} went wrong.",
        )
    policies = [
        org.article(
            f"Policy {i}",
            f"Refunds within {10 + i} days of delivery.",
            qa=[(f"How long are refunds open under policy {i}?", f"{10 + i} days")],
        )
        for i in range(30)
    ]
    for n, (case,) in enumerate(org.store.conn.execute('SELECT Id FROM "Case" ORDER BY Id')):
        org.violation(case, policies[n % len(policies)] if n % 3 else None)
    return org.finish()
