"""The B2B org's objects: the service org's, plus Salesforce's sales objects.

A B2B org holds everything a B2C (service) org holds, with business accounts beside the
person accounts and orders that come from won opportunities, plus the sales cloud:
Lead, Opportunity (stages Qualification, Discovery, Quote, Negotiation, Closed) and its
line items, Quote and QuoteLineItem, Contract (with the company-signed date), sales
territories (Territory2) and their users (UserTerritory2Association), recorded sales calls
(VoiceCallTranscript__c), and the activities on opportunities (Task, Event). Field names and
types are those of Salesforce's standard objects; `Opportunity.ContractID__c` links an
opportunity to its contract, as in CRMArena-Pro's B2B org.
"""

from __future__ import annotations

from dataclasses import replace

from crm_tui.org.schema.catalogue import (
    Field,
    FieldType,
    SObject,
    _dt,
    _id,
    _long,
    _lookup,
    _pick,
    _text,
)

STAGES = ("Qualification", "Discovery", "Quote", "Negotiation", "Closed")
LEAD_STATUSES = (
    "Open - Not Contacted",
    "Working - Contacted",
    "Closed - Converted",
    "Closed - Not Converted",
)
LEAD_SOURCES = ("Web", "Phone Inquiry", "Partner Referral", "Trade Show", "Word of mouth")
QUOTE_STATUSES = (
    "Draft",
    "Needs Review",
    "In Review",
    "Approved",
    "Rejected",
    "Presented",
    "Accepted",
    "Denied",
)
CONTRACT_STATUSES = ("Draft", "In Approval Process", "Activated")
TASK_STATUSES = ("Not Started", "In Progress", "Completed")
TASK_PRIORITIES = ("High", "Normal", "Low")
INDUSTRIES = (
    "Technology",
    "Finance",
    "Healthcare",
    "Manufacturing",
    "Retail",
    "Education",
    "Energy",
    "Media",
)


def _date(name: str, label: str, desc: str, indexed: bool = False) -> Field:
    return Field(name, FieldType.DATE, label, desc, indexed=indexed)


def _num(name: str, label: str, desc: str) -> Field:
    return Field(name, FieldType.NUMBER, label, desc)


def _money(name: str, label: str, desc: str, indexed: bool = False) -> Field:
    return Field(name, FieldType.CURRENCY, label, desc, indexed=indexed)


def _name(label: str) -> Field:
    return _text(
        "Name", "Name", f"Name of the {label}.", indexed=True, searchable=True, name_field=True
    )


def _owner(child: str, what: str) -> Field:
    return _lookup("OwnerId", "Owner", f"The sales agent who owns the {what}.", "User", "Owner",
                   child)  # fmt: skip


def _number(name: str, label: str, what: str) -> Field:
    return _text(name, label, f"Sequential number of the {what}.", unique=True, indexed=True,
                 searchable=True, name_field=True)  # fmt: skip


def _account_b2b(account: SObject) -> SObject:
    fields = tuple(
        replace(f, required=False) if f.name == "LastName" else f for f in account.fields
    )
    return replace(
        account,
        description="A customer: a business account (a company the sales team sells to) "
        "or a person account (a consumer the service team supports).",
        fields=(
            *fields,
            _pick(
                "Industry", "Industry", "The business account's industry.", INDUSTRIES, indexed=True
            ),
            _num("NumberOfEmployees", "Employees", "Head count of the business account."),
        ),  # fmt: skip
        _by_name={},
    )


def _order_b2b(order: SObject) -> SObject:
    return replace(
        order,
        fields=(
            *order.fields,
            _lookup(
                "OpportunityId",
                "Opportunity",
                "The won opportunity the order fulfils.",
                "Opportunity",
                "Opportunity",
                "Orders",
            ),
            _lookup(
                "ContractId",
                "Contract",
                "The contract the order is placed under.",
                "Contract",
                "Contract",
                "Orders",
            ),
        ),  # fmt: skip
        _by_name={},
    )


def _order_item_b2b(item: SObject) -> SObject:
    """Salesforce's read-only TotalPrice on an order line, so a report sums sales amounts."""
    return replace(
        item,
        fields=(
            *item.fields,
            _money("TotalPrice", "Total Price", "Quantity times the unit price, in USD."),
        ),
        _by_name={},
    )


SALES_OBJECTS: tuple[SObject, ...] = (
    SObject(
        "Territory2", "Territory", "Territories", "0MI",
        "A sales territory: the states it covers are listed in its description.",
        (
            _id(),
            _name("territory"),
            _text("DeveloperName", "API Name", "Unique API name of the territory.", unique=True),
            _long("Description", "Description",
                  "The states the territory covers, as a comma-separated list of codes."),
        ),
        "Name", ("Name", "Description"), "Name",
    ),
    SObject(
        "UserTerritory2Association", "User Territory Association",
        "User Territory Associations", "0R0",
        "Places a sales agent in a territory.",
        (
            _id(),
            _lookup("UserId", "User", "The sales agent.", "User", "User",
                    "UserTerritory2Associations", required=True),
            _lookup("Territory2Id", "Territory", "The territory.", "Territory2", "Territory2",
                    "UserTerritory2Associations", required=True),
            _text("RoleInTerritory2", "Role in Territory", "The agent's role there."),
        ),
        "Id", ("UserId", "Territory2Id", "RoleInTerritory2"), "Id",
    ),
    SObject(
        "Lead", "Lead", "Leads", "00Q",
        "A prospect: a person at a company who may buy, until converted to an account, a "
        "contact and an opportunity.",
        (
            _id(),
            _text("Name", "Full Name", "Full name of the prospect, first then last.",
                  indexed=True, searchable=True, name_field=True),
            _text("FirstName", "First Name", "Given name of the prospect."),
            _text("LastName", "Last Name", "Family name of the prospect.", required=True),
            _text("Company", "Company", "The prospect's company.", required=True,
                  searchable=True, indexed=True),
            _text("Title", "Title", "The prospect's job title.", searchable=True),
            Field("Email", FieldType.EMAIL, "Email", "E-mail address of the prospect.",
                  searchable=True, indexed=True),
            Field("Phone", FieldType.PHONE, "Phone", "Phone number of the prospect."),
            _text("State", "State/Province", "Two-letter US state of the prospect's company.",
                  indexed=True),
            _pick("Status", "Lead Status", "Where the lead stands.", LEAD_STATUSES,
                  indexed=True, required=True),
            _pick("LeadSource", "Lead Source", "Where the lead came from.", LEAD_SOURCES),
            _owner("Leads", "lead"),
            Field("IsConverted", FieldType.BOOLEAN, "Converted",
                  "Whether the lead was converted."),
            _date("ConvertedDate", "Converted Date", "The day the lead was converted.",
                  indexed=True),
            _lookup("ConvertedAccountId", "Converted Account",
                    "The account the lead was converted to.", "Account", "ConvertedAccount",
                    None),
            _lookup("ConvertedContactId", "Converted Contact",
                    "The contact the lead was converted to.", "Contact", "ConvertedContact",
                    None),
            _lookup("ConvertedOpportunityId", "Converted Opportunity",
                    "The opportunity the lead was converted to.", "Opportunity",
                    "ConvertedOpportunity", None),
            _dt("CreatedDate", "Created Date", "When the lead was created.", indexed=True),
        ),
        "Name", ("Name", "Company", "State", "Status", "OwnerId", "CreatedDate"), "CreatedDate",
    ),
    SObject(
        "Contract", "Contract", "Contracts", "800",
        "The agreement signed when an opportunity is won.",
        (
            _id(),
            _number("ContractNumber", "Contract Number", "contract"),
            _lookup("AccountId", "Account", "The customer's account.", "Account", "Account",
                    "Contracts", required=True),
            _owner("Contracts", "contract"),
            _pick("Status", "Status", "Where the contract stands.", CONTRACT_STATUSES,
                  indexed=True),
            _date("StartDate", "Contract Start Date", "First day of the contract."),
            _num("ContractTerm", "Contract Term (months)", "Length of the contract in months."),
            _date("CustomerSignedDate", "Customer Signed Date",
                  "The day the customer signed."),
            _date("CompanySignedDate", "Company Signed Date",
                  "The day the company signed: the end of the sales cycle.", indexed=True),
            _dt("CreatedDate", "Created Date", "When the contract was created.", indexed=True),
        ),
        "ContractNumber", ("ContractNumber", "AccountId", "Status", "CompanySignedDate"),
        "CompanySignedDate",
    ),
    SObject(
        "Opportunity", "Opportunity", "Opportunities", "006",
        "A potential deal with a business account, moving through the sales stages.",
        (
            _id(),
            _name("opportunity"),
            _lookup("AccountId", "Account", "The business account.", "Account", "Account",
                    "Opportunities"),
            _lookup("ContactId", "Contact", "The buyer's contact.", "Contact", "Contact",
                    "Opportunities"),
            _owner("Opportunities", "opportunity"),
            _pick("StageName", "Stage", "Where the deal stands.", STAGES, indexed=True,
                  required=True),
            _money("Amount", "Amount", "Total of the deal's line items in USD.", indexed=True),
            _num("Probability", "Probability (%)", "Likelihood of closing, by stage."),
            _date("CloseDate", "Close Date", "Expected or actual closing day.", indexed=True),
            _pick("LeadSource", "Lead Source", "Where the deal's lead came from.",
                  LEAD_SOURCES),
            _lookup("Pricebook2Id", "Price Book", "The price book the deal is priced from.",
                    "Pricebook2", "Pricebook2", "Opportunities"),
            _lookup("ContractID__c", "Contract", "The contract signed for the won deal.",
                    "Contract", "ContractID__r", "Opportunities__r"),
            _dt("CreatedDate", "Created Date", "When the opportunity was created.",
                indexed=True),
        ),
        "Name", ("Name", "AccountId", "StageName", "Amount", "CloseDate", "OwnerId"),
        "CreatedDate",
    ),
    SObject(
        "OpportunityLineItem", "Opportunity Product", "Opportunity Products", "00k",
        "One product of an opportunity, with a quantity and a price.",
        (
            _id(),
            _text("Name", "Opportunity Product Name", "Opportunity and product names.",
                  indexed=True),
            _lookup("OpportunityId", "Opportunity", "The opportunity.", "Opportunity",
                    "Opportunity", "OpportunityLineItems", required=True),
            _lookup("Product2Id", "Product", "The product.", "Product2", "Product2",
                    "OpportunityLineItems", required=True),
            _lookup("PricebookEntryId", "Price Book Entry", "The price book entry used.",
                    "PricebookEntry", "PricebookEntry", "OpportunityLineItems"),
            _num("Quantity", "Quantity", "Units."),
            _money("UnitPrice", "Sales Price", "Price per unit in USD."),
            _money("TotalPrice", "Total Price", "Quantity times the sales price."),
        ),
        "Name", ("Name", "OpportunityId", "Quantity", "UnitPrice"), "Name",
    ),
    SObject(
        "Quote", "Quote", "Quotes", "0Q0",
        "A priced offer made on an opportunity.",
        (
            _id(),
            _name("quote"),
            _number("QuoteNumber", "Quote Number", "quote"),
            _lookup("OpportunityId", "Opportunity", "The opportunity quoted.", "Opportunity",
                    "Opportunity", "Quotes", required=True),
            _lookup("AccountId", "Account", "The customer's account.", "Account", "Account",
                    "Quotes"),
            _pick("Status", "Status", "Where the quote stands.", QUOTE_STATUSES, indexed=True),
            _lookup("Pricebook2Id", "Price Book", "The price book of the quote.", "Pricebook2",
                    "Pricebook2", "Quotes"),
            _date("ExpirationDate", "Expiration Date", "Last day the offer stands."),
            _long("Description", "Description", "Notes on the offer."),
            _dt("CreatedDate", "Created Date", "When the quote was created.", indexed=True),
        ),
        "QuoteNumber", ("QuoteNumber", "Name", "Status", "OpportunityId", "CreatedDate"),
        "CreatedDate",
    ),
    SObject(
        "QuoteLineItem", "Quote Line Item", "Quote Line Items", "0QL",
        "One product of a quote: quantity, price and discount.",
        (
            _id(),
            _number("LineNumber", "Line Item Number", "line"),
            _lookup("QuoteId", "Quote", "The quote.", "Quote", "Quote", "QuoteLineItems",
                    required=True),
            _lookup("Product2Id", "Product", "The product.", "Product2", "Product2",
                    "QuoteLineItems", required=True),
            _lookup("PricebookEntryId", "Price Book Entry", "The price book entry used.",
                    "PricebookEntry", "PricebookEntry", "QuoteLineItems"),
            _num("Quantity", "Quantity", "Units."),
            _money("UnitPrice", "Sales Price", "Price per unit in USD before the discount."),
            _num("Discount", "Discount (%)", "Discount on the line, in percent."),
            _money("TotalPrice", "Total Price", "Quantity times price, less the discount."),
        ),
        "LineNumber", ("LineNumber", "QuoteId", "Product2Id", "Quantity", "Discount"),
        "LineNumber",
    ),
    SObject(
        "VoiceCallTranscript__c", "Voice Call Transcript", "Voice Call Transcripts", "a1V",
        "The transcript of a recorded sales call with a lead or on an opportunity.",
        (
            _id(),
            _number("Name", "Transcript Name", "transcript"),
            _lookup("LeadId__c", "Lead", "The lead called.", "Lead", "LeadId__r",
                    "VoiceCallTranscripts__r"),
            _lookup("OpportunityId__c", "Opportunity", "The opportunity discussed.",
                    "Opportunity", "OpportunityId__r", "VoiceCallTranscripts__r"),
            _long("Body__c", "Transcript", "The conversation, one line per turn."),
            _dt("CreatedDate", "Created Date", "When the call took place.", indexed=True),
        ),
        "Name", ("Name", "LeadId__c", "OpportunityId__c", "CreatedDate"), "CreatedDate",
        custom=True,
    ),
    SObject(
        "Task", "Task", "Tasks", "00T",
        "A to-do of a sales agent on an opportunity.",
        (
            _id(),
            _text("Subject", "Subject", "What is to be done.", searchable=True,
                  name_field=True, indexed=True),
            _pick("Status", "Status", "Whether it is done.", TASK_STATUSES, indexed=True),
            _pick("Priority", "Priority", "How urgent it is.", TASK_PRIORITIES),
            _date("ActivityDate", "Due Date", "When it is due.", indexed=True),
            _lookup("WhatId", "Related To", "The opportunity it is about.", "Opportunity",
                    "What", "Tasks"),
            _owner("Tasks", "task"),
            _dt("CreatedDate", "Created Date", "When the task was created.", indexed=True),
        ),
        "Subject", ("Subject", "Status", "ActivityDate", "WhatId", "OwnerId"), "ActivityDate",
    ),
    SObject(
        "Event", "Event", "Events", "00U",
        "A meeting or call on the calendar of a sales agent, about an opportunity.",
        (
            _id(),
            _text("Subject", "Subject", "What the meeting is for.", searchable=True,
                  name_field=True, indexed=True),
            _dt("StartDateTime", "Start", "When it starts.", indexed=True),
            _dt("EndDateTime", "End", "When it ends."),
            _lookup("WhatId", "Related To", "The opportunity it is about.", "Opportunity",
                    "What", "Events"),
            _owner("Events", "event"),
            _long("Description", "Description", "Notes on the meeting."),
        ),
        "Subject", ("Subject", "StartDateTime", "WhatId", "OwnerId"), "StartDateTime",
    ),
)  # fmt: skip


def b2b_objects(service: tuple[SObject, ...]) -> tuple[SObject, ...]:
    """The B2B org's objects: the service org's (`service`, with the business variants of
    Account, Order and OrderItem) followed by the sales objects."""
    variants = {"Account": _account_b2b, "Order": _order_b2b, "OrderItem": _order_item_b2b}
    return (
        *(variants[o.name](o) if o.name in variants else o for o in service),
        *SALES_OBJECTS,
    )
