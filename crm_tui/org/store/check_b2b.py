"""`org check` on a B2B org: the sales objects' invariants, beside the generic checks.

- every quote line's product is priced in its opportunity's price book (and its price
  book entry, when set, is that product's entry in that book);
- a won opportunity's contract is dated on or after the opportunity's creation (start,
  customer-signed and company-signed dates);
- a converted lead names its account, contact and opportunity, the contact and the
  opportunity belong to that account, and only converted leads name them;
- a Closed opportunity has a contract, and an order that fulfils an opportunity follows
  a Closed one.
"""

from __future__ import annotations

from typing import Protocol

from crm_tui.org.store.orgstore import q


class Flagger(Protocol):
    sizes: dict[str, int]

    def flag(
        self, check: str, rows: int, sql: str, message: str, params: tuple[object, ...] = ()
    ) -> None: ...


def check_sales(c: Flagger) -> None:
    """Add the B2B invariants' problems to the checker's report."""
    qli, quote, opp, pbe = q("QuoteLineItem"), q("Quote"), q("Opportunity"), q("PricebookEntry")
    c.flag(
        "b2b:quote-line-price-book",
        c.sizes["QuoteLineItem"],
        f"SELECT l.Id AS bad FROM {qli} l JOIN {quote} qt ON qt.Id = l.QuoteId "
        f"JOIN {opp} o ON o.Id = qt.OpportunityId WHERE NOT EXISTS (SELECT 1 FROM {pbe} e "
        f"WHERE e.Pricebook2Id = o.Pricebook2Id AND e.Product2Id = l.Product2Id "
        f"AND (l.PricebookEntryId IS NULL OR e.Id = l.PricebookEntryId))",
        "QuoteLineItem: product not priced in the opportunity's price book",
    )
    contract = q("Contract")
    c.flag(
        "b2b:contract-after-opportunity",
        c.sizes["Contract"],
        f"SELECT k.Id AS bad FROM {opp} o JOIN {contract} k ON k.Id = o.ContractID__c "
        f"WHERE k.CompanySignedDate < substr(o.CreatedDate, 1, 10) "
        f"OR k.CustomerSignedDate < substr(o.CreatedDate, 1, 10) "
        f"OR k.StartDate < substr(o.CreatedDate, 1, 10) OR k.CompanySignedDate IS NULL",
        "Contract: dated before its opportunity was created",
    )
    lead, contact = q("Lead"), q("Contact")
    c.flag(
        "b2b:converted-leads",
        c.sizes["Lead"],
        f"SELECT l.Id AS bad FROM {lead} l "
        f"LEFT JOIN {contact} k ON k.Id = l.ConvertedContactId "
        f"LEFT JOIN {opp} o ON o.Id = l.ConvertedOpportunityId WHERE "
        f"(l.IsConverted = 1 AND (l.ConvertedAccountId IS NULL OR k.Id IS NULL OR o.Id IS NULL "
        f"OR k.AccountId IS NOT l.ConvertedAccountId OR o.AccountId IS NOT l.ConvertedAccountId "
        f"OR l.ConvertedDate IS NULL OR l.Status != 'Closed - Converted')) "
        f"OR (coalesce(l.IsConverted, 0) = 0 AND (l.ConvertedAccountId IS NOT NULL "
        f"OR l.ConvertedContactId IS NOT NULL OR l.ConvertedOpportunityId IS NOT NULL "
        f"OR l.Status = 'Closed - Converted'))",
        "Lead: conversion not linked to its account, contact and opportunity",
    )
    c.flag(
        "b2b:closed-opportunities",
        c.sizes["Opportunity"],
        f"SELECT Id AS bad FROM {opp} WHERE (StageName = 'Closed') != (ContractID__c IS NOT NULL)",
        "Opportunity: Closed without a contract, or a contract before it closed",
    )
    order = q("Order")
    c.flag(
        "b2b:orders-of-won-opportunities",
        c.sizes["Order"],
        f"SELECT r.Id AS bad FROM {order} r JOIN {opp} o ON o.Id = r.OpportunityId "
        f"WHERE o.StageName != 'Closed' OR r.ContractId IS NOT o.ContractID__c",
        "Order: fulfils an opportunity that is not Closed, or under another contract",
    )
