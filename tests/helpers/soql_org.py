"""A tiny hand-written org for SOQL/SOSL tests: every value is known, so answers are exact."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from crm_tui.org.schema.catalogue import get_object
from crm_tui.org.schema.ids import make_id
from crm_tui.org.store.orgstore import OrgStore

TODAY = date(2024, 5, 15)  # a Wednesday


def rid(obj: str, n: int) -> str:
    return make_id(get_object(obj).key_prefix, n)


USERS = [rid("User", i) for i in range(2)]
ACCOUNTS = [rid("Account", i) for i in range(3)]
CASES = [rid("Case", i) for i in range(6)]
ISSUES = [rid("Issue__c", i) for i in range(2)]
PRODUCTS = [rid("Product2", i) for i in range(2)]
ORDERS = [rid("Order", i) for i in range(2)]
ORDER_ITEMS = [rid("OrderItem", i) for i in range(2)]


def _case(n, status, account, owner, created, closed=None, issue=0, item=0, subject=""):
    return {
        "Id": CASES[n],
        "CaseNumber": f"{n + 1:08d}",
        "Subject": subject or f"Case {n}",
        "Status": status,
        "Priority": "High" if n % 2 else "Low",
        "AccountId": ACCOUNTS[account] if account is not None else None,
        "OwnerId": USERS[owner],
        "CreatedDate": created,
        "ClosedDate": closed,
        "IssueId__c": ISSUES[issue],
        "OrderItemId__c": ORDER_ITEMS[item],
    }


def build_tiny_org(path: Path) -> Path:
    with OrgStore.create(path) as store:
        store.insert(
            "User",
            [
                {
                    "Id": USERS[0],
                    "Name": "Ada Lovelace",
                    "LastName": "Lovelace",
                    "Email": "ada@example.com",
                    "Username": "ada@example.com",
                    "Alias": "alove",
                },
                {
                    "Id": USERS[1],
                    "Name": "Grace Hopper",
                    "LastName": "Hopper",
                    "Email": "grace@example.com",
                    "Username": "grace@example.com",
                    "Alias": "ghopp",
                },
            ],
        )
        store.insert(
            "Account",
            [
                {
                    "Id": ACCOUNTS[0],
                    "Name": "Ann O'Brien",
                    "LastName": "O'Brien",
                    "ShippingState": "CA",
                    "PersonEmail": "ann@example.com",
                },
                {
                    "Id": ACCOUNTS[1],
                    "Name": "bob smith",
                    "LastName": "smith",
                    "ShippingState": "GA",
                },
                {"Id": ACCOUNTS[2], "Name": "Cy 50% Off", "LastName": "Off", "ShippingState": None},
            ],
        )
        store.insert(
            "Issue__c",
            [
                {"Id": ISSUES[0], "Name": "Shipping Delay"},
                {"Id": ISSUES[1], "Name": "Size Mismatch"},
            ],
        )
        store.insert(
            "Product2",
            [
                {
                    "Id": PRODUCTS[0],
                    "Name": "Speed Jump Rope",
                    "IsActive": 1,
                    "Description": "A light rope for speed training.",
                },
                {
                    "Id": PRODUCTS[1],
                    "Name": "Trail Jacket",
                    "IsActive": 0,
                    "Description": "Warm jacket with synthetic insulation.",
                },
            ],
        )
        store.insert(
            "Order",
            [
                {
                    "Id": ORDERS[0],
                    "OrderNumber": "00000100",
                    "AccountId": ACCOUNTS[0],
                    "Status": "Activated",
                    "EffectiveDate": "2024-05-01",
                },
                {
                    "Id": ORDERS[1],
                    "OrderNumber": "00000101",
                    "AccountId": ACCOUNTS[1],
                    "Status": "Draft",
                    "EffectiveDate": "2024-03-10",
                },
            ],
        )
        store.insert(
            "OrderItem",
            [
                {
                    "Id": ORDER_ITEMS[0],
                    "OrderItemNumber": "0000000200",
                    "OrderId": ORDERS[0],
                    "Product2Id": PRODUCTS[0],
                    "Quantity": 2.0,
                    "UnitPrice": 10.0,
                },
                {
                    "Id": ORDER_ITEMS[1],
                    "OrderItemNumber": "0000000201",
                    "OrderId": ORDERS[1],
                    "Product2Id": PRODUCTS[1],
                    "Quantity": 1.0,
                    "UnitPrice": 99.5,
                },
            ],
        )
        store.insert(
            "Case",
            [
                _case(
                    0,
                    "Closed",
                    0,
                    0,
                    "2024-05-15T09:00:00.000+0000",
                    "2024-05-15T11:00:00.000+0000",
                    subject="Rope arrived late",
                ),
                _case(
                    1,
                    "Closed",
                    0,
                    1,
                    "2024-05-14T23:59:59.000+0000",
                    "2024-05-16T00:00:00.000+0000",
                    issue=1,
                ),
                _case(2, "New", 1, 0, "2024-04-30T12:00:00.000+0000", item=1),
                _case(3, "Working", 1, 1, "2024-02-01T00:00:00.000+0000", issue=1, item=1),
                _case(
                    4,
                    "Closed",
                    2,
                    0,
                    "2023-12-31T23:00:00.000+0000",
                    "2024-01-02T00:00:00.000+0000",
                ),
                _case(5, "Escalated", None, 0, "2024-05-12T08:00:00.000+0000"),
            ],
        )
        store.insert(
            "CaseHistory__c",
            [
                {
                    "Id": rid("CaseHistory__c", i),
                    "Name": f"H{i}",
                    "CaseId__c": CASES[case],
                    "Field__c": "Owner Assignment",
                    "OldValue__c": old,
                    "NewValue__c": new,
                    "CreatedDate": "2024-05-01T00:00:00.000+0000",
                }
                for i, (case, old, new) in enumerate(
                    [
                        (0, None, USERS[0]),
                        (1, None, USERS[0]),
                        (1, USERS[0], USERS[1]),
                        (2, None, USERS[0]),
                    ]
                )
            ],
        )
        store.finish()
    return path
