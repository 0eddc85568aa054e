"""The schema catalogue: the 16 CRMArena objects with Salesforce API names.

One catalogue drives the store's tables, the browser's labels and the Salesforce
describe answers. Field sets follow the schema "as loaded today", plus the
standard name/number fields every real org has (Name, CaseNumber, OrderNumber, ...), so
records have a human-readable title.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import TypedDict, Unpack


class FieldType(StrEnum):
    ID = "Id"
    TEXT = "Text"
    LONG_TEXT = "Long text"
    PICKLIST = "Picklist"
    DATE = "Date"
    DATETIME = "DateTime"
    CURRENCY = "Currency"
    NUMBER = "Number"
    BOOLEAN = "Boolean"
    EMAIL = "Email"
    PHONE = "Phone"
    LOOKUP = "Lookup"


# The SQLite storage class per field type. Dates and DateTimes stay TEXT in Salesforce's
# own format, whose lexical order is chronological, so range filters use the index.
SQL_TYPES = {
    FieldType.CURRENCY: "REAL",
    FieldType.NUMBER: "REAL",
    FieldType.BOOLEAN: "INTEGER",
}


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    label: str
    description: str
    picklist: tuple[str, ...] = ()
    reference_to: str | None = None
    relationship_name: str | None = None  # parent side: Case.Account
    child_relationship: str | None = None  # child side: Account.Cases
    unique: bool = False
    required: bool = False
    indexed: bool = False  # sorted or filtered by tasks and list views
    searchable: bool = False  # goes into the full-text index
    name_field: bool = False  # searched under SOSL "IN NAME FIELDS"

    @property
    def sql_type(self) -> str:
        return SQL_TYPES.get(self.type, "TEXT")

    @property
    def is_lookup(self) -> bool:
        return self.type is FieldType.LOOKUP

    @property
    def target(self) -> str:
        """The object a lookup references; ValueError on a field that references none."""
        if self.reference_to is None:
            raise ValueError(f"{self.name} is not a lookup field")
        return self.reference_to

    @property
    def relationship(self) -> str:
        """The parent relationship name of a lookup (Case.Account); ValueError if none."""
        if self.relationship_name is None:
            raise ValueError(f"{self.name} has no parent relationship")
        return self.relationship_name


@dataclass(frozen=True)
class SObject:
    name: str
    label: str
    label_plural: str
    key_prefix: str
    description: str
    fields: tuple[Field, ...]
    title_field: str  # the field shown as the record's name
    list_columns: tuple[str, ...]  # key columns of the list view
    default_sort: str
    custom: bool = False
    _by_name: dict[str, Field] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_name.update({f.name.lower(): f for f in self.fields})

    def field(self, name: str) -> Field:
        """The field called `name` (case-insensitive, as in SOQL); KeyError if none."""
        try:
            return self._by_name[name.lower()]
        except KeyError:
            raise KeyError(f"No field {name!r} on {self.name}") from None

    def has_field(self, name: str) -> bool:
        return name.lower() in self._by_name

    @property
    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    @property
    def lookups(self) -> list[Field]:
        return [f for f in self.fields if f.is_lookup]

    @property
    def parent_relationship_fields(self) -> dict[str, Field]:
        """Relationship name (lower-case) -> lookup field, for paths like Case.Account.Name."""
        return {f.relationship_name.lower(): f for f in self.lookups if f.relationship_name}


@dataclass(frozen=True)
class ChildRelationship:
    """Account.Cases: the children of `parent` whose `field` on `child` points at it."""

    name: str
    parent: str
    child: str
    field: str


# ----------------------------------------------------------------- field helpers
class _Flags(TypedDict, total=False):
    """The optional flags of a Field that the helpers below pass through."""

    unique: bool
    required: bool
    indexed: bool
    searchable: bool
    name_field: bool


def _id() -> Field:
    return Field(
        "Id",
        FieldType.ID,
        "Record ID",
        "The 18-character Salesforce Id of the record.",
        unique=True,
        required=True,
        indexed=True,
    )


def _text(name: str, label: str, desc: str, **kw: Unpack[_Flags]) -> Field:
    return Field(name, FieldType.TEXT, label, desc, **kw)


def _long(name: str, label: str, desc: str, **kw: Unpack[_Flags]) -> Field:
    return Field(name, FieldType.LONG_TEXT, label, desc, **(_Flags(searchable=True) | kw))


def _pick(name: str, label: str, desc: str, values: Iterable[str], **kw: Unpack[_Flags]) -> Field:
    return Field(name, FieldType.PICKLIST, label, desc, picklist=tuple(values), **kw)


def _lookup(
    name: str,
    label: str,
    desc: str,
    to: str,
    rel: str,
    child: str | None,
    **kw: Unpack[_Flags],
) -> Field:
    return Field(
        name,
        FieldType.LOOKUP,
        label,
        desc,
        reference_to=to,
        relationship_name=rel,
        child_relationship=child,
        **(_Flags(indexed=True) | kw),
    )


def _dt(name: str, label: str, desc: str, **kw: Unpack[_Flags]) -> Field:
    return Field(name, FieldType.DATETIME, label, desc, **kw)


LOCALES = ("en_US",)
TIME_ZONES = (
    "America/Los_Angeles",
    "America/Denver",
    "America/Chicago",
    "America/New_York",
    "America/Phoenix",
    "Pacific/Honolulu",
    "America/Anchorage",
)
CASE_STATUSES = ("New", "Open", "Working", "Escalated", "Closed")
CASE_PRIORITIES = ("Low", "Medium", "High")
ORDER_STATUSES = ("Draft", "Activated")
HISTORY_FIELDS = ("Case Creation", "Owner Assignment", "Case Closed")
PUBLISH_STATUSES = ("Online", "Draft", "Archived")


def _person_name(label: str) -> tuple[Field, ...]:
    return (
        _text(
            "Name",
            "Full Name",
            f"Full name of the {label}, first then last.",
            indexed=True,
            searchable=True,
            name_field=True,
        ),
        _text("FirstName", "First Name", f"Given name of the {label}."),
        _text("LastName", "Last Name", f"Family name of the {label}.", required=True),
    )


OBJECTS: tuple[SObject, ...] = (
    SObject(
        "User",
        "User",
        "Users",
        "005",
        "A service agent who owns cases, contacts and chats.",
        (
            _id(),
            *_person_name("agent"),
            Field(
                "Email",
                FieldType.EMAIL,
                "Email",
                "Work e-mail address of the agent.",
                required=True,
                searchable=True,
                indexed=True,
            ),
            Field("Phone", FieldType.PHONE, "Phone", "Direct phone line of the agent."),
            _text(
                "Username",
                "Username",
                "Login name, unique across all Salesforce orgs.",
                unique=True,
                required=True,
                searchable=True,
            ),
            _text("Alias", "Alias", "Short alias, usually initials plus part of the surname."),
            _pick("LanguageLocaleKey", "Language", "Language of the user interface.", LOCALES),
            _pick(
                "EmailEncodingKey",
                "Email Encoding",
                "Character set of outgoing e-mail.",
                ("UTF-8",),
            ),
            _pick("TimeZoneSidKey", "Time Zone", "Time zone the agent works in.", TIME_ZONES),
            _pick("LocaleSidKey", "Locale", "Locale for dates and numbers.", LOCALES),
        ),
        "Name",
        ("Name", "Alias", "Email", "TimeZoneSidKey"),
        "Name",
    ),
    SObject(
        "Account",
        "Account",
        "Accounts",
        "001",
        "A customer, modelled as a person account.",
        (
            _id(),
            *_person_name("customer"),
            Field(
                "PersonEmail",
                FieldType.EMAIL,
                "Email",
                "Personal e-mail of the customer.",
                searchable=True,
                indexed=True,
            ),
            Field("Phone", FieldType.PHONE, "Phone", "Phone number of the customer."),
            _text("RecordTypeId", "Record Type", "Record type; always the Person Account type."),
            _text("ShippingCity", "Shipping City", "City orders are shipped to."),
            _text(
                "ShippingState",
                "Shipping State",
                "Two-letter US state orders ship to.",
                indexed=True,
            ),
        ),
        "Name",
        ("Name", "PersonEmail", "ShippingCity", "ShippingState"),
        "Name",
    ),
    SObject(
        "Contact",
        "Contact",
        "Contacts",
        "003",
        "The person behind a customer account, who contacts support.",
        (
            _id(),
            *_person_name("contact"),
            Field(
                "Email",
                FieldType.EMAIL,
                "Email",
                "E-mail address of the contact.",
                searchable=True,
                indexed=True,
            ),
            _lookup(
                "AccountId",
                "Account",
                "The customer account this contact belongs to.",
                "Account",
                "Account",
                "Contacts",
            ),
            _lookup(
                "OwnerId", "Owner", "The agent who owns this contact.", "User", "Owner", "Contacts"
            ),
        ),
        "Name",
        ("Name", "Email", "AccountId", "OwnerId"),
        "Name",
    ),
    SObject(
        "Case",
        "Case",
        "Cases",
        "500",
        "A customer's support request about one order item and one issue.",
        (
            _id(),
            _text(
                "CaseNumber",
                "Case Number",
                "Sequential number shown to customers.",
                unique=True,
                indexed=True,
                searchable=True,
                name_field=True,
            ),
            _text(
                "Subject",
                "Subject",
                "One-line summary written when the case was opened.",
                searchable=True,
                name_field=True,
            ),
            _long("Description", "Description", "The customer's account of the problem."),
            _pick(
                "Status",
                "Status",
                "Where the case stands in its life cycle.",
                CASE_STATUSES,
                indexed=True,
            ),
            _pick(
                "Priority",
                "Priority",
                "How urgently the case must be handled.",
                CASE_PRIORITIES,
                indexed=True,
            ),
            _lookup(
                "ContactId",
                "Contact",
                "The contact who raised the case.",
                "Contact",
                "Contact",
                "Cases",
            ),
            _lookup(
                "AccountId",
                "Account",
                "The customer account of the case.",
                "Account",
                "Account",
                "Cases",
            ),
            _lookup(
                "OwnerId",
                "Owner",
                "The agent who owns the case now (its latest owner).",
                "User",
                "Owner",
                "Cases",
            ),
            _dt("CreatedDate", "Date/Time Opened", "When the case was opened.", indexed=True),
            _dt(
                "ClosedDate",
                "Date/Time Closed",
                "When the case was closed; empty while open.",
                indexed=True,
            ),
            _lookup(
                "OrderItemId__c",
                "Order Item",
                "The order line the case is about.",
                "OrderItem",
                "OrderItemId__r",
                "Cases__r",
            ),
            _lookup(
                "IssueId__c",
                "Issue",
                "The kind of problem the case reports.",
                "Issue__c",
                "IssueId__r",
                "Cases__r",
            ),
        ),
        "CaseNumber",
        ("CaseNumber", "Subject", "Status", "Priority", "CreatedDate", "OwnerId"),
        "CreatedDate",
    ),
    SObject(
        "Knowledge__kav",
        "Knowledge",
        "Knowledge",
        "ka0",
        "A published knowledge article: a policy or a product guide.",
        (
            _id(),
            _text(
                "Title",
                "Title",
                "Headline of the article.",
                searchable=True,
                name_field=True,
                indexed=True,
            ),
            _text("Summary", "Summary", "Two-sentence abstract of the article.", searchable=True),
            _long("FAQ_Answer__c", "Answer", "Body of the article."),
            _text("UrlName", "URL Name", "Unique slug of the article's address.", unique=True),
            _pick(
                "PublishStatus",
                "Publication Status",
                "Whether agents can see the article.",
                PUBLISH_STATUSES,
            ),
            _pick("Language", "Language", "Language of this article version.", LOCALES),
            Field(
                "IsVisibleInCsp",
                FieldType.BOOLEAN,
                "Visible to Customers",
                "Whether customers may read the article; an internal-only article is for "
                "the company's staff alone.",
            ),
        ),
        "Title",
        ("Title", "Summary", "UrlName"),
        "Title",
    ),
    SObject(
        "ProductCategory",
        "Product Category",
        "Product Categories",
        "0ZG",
        "A browsing category of the product catalogue.",
        (
            _id(),
            _text(
                "Name",
                "Name",
                "Name of the category.",
                searchable=True,
                name_field=True,
                indexed=True,
            ),
            _text("CatalogId", "Catalog", "The catalogue the category belongs to (not modelled)."),
        ),
        "Name",
        ("Name", "CatalogId"),
        "Name",
    ),
    SObject(
        "Product2",
        "Product",
        "Products",
        "01t",
        "An item the retailer sells.",
        (
            _id(),
            _text(
                "Name",
                "Product Name",
                "Name of the product.",
                searchable=True,
                name_field=True,
                indexed=True,
            ),
            _long("Description", "Description", "Catalogue description of the product."),
            Field("IsActive", FieldType.BOOLEAN, "Active", "Whether the product can be sold."),
            _text(
                "External_ID__c",
                # As in CRMArena's data, the key is made of category names (and a number):
                # the label says so, or a person reads it as a code and not as categories.
                "External ID (category names)",
                "Key of the product in the merchandising system: its category names and a number.",
                unique=True,
            ),
        ),
        "Name",
        ("Name", "External_ID__c", "IsActive"),
        "Name",
    ),
    SObject(
        "ProductCategoryProduct",
        "Product Category Product",
        "Product Category Products",
        "0ZH",
        "Places a product in a category.",
        (
            _id(),
            _lookup(
                "ProductCategoryId",
                "Category",
                "The category.",
                "ProductCategory",
                "ProductCategory",
                "ProductCategoryProducts",
                required=True,
            ),
            _lookup(
                "ProductId",
                "Product",
                "The product in the category.",
                "Product2",
                "Product",
                "ProductCategoryProducts",
                required=True,
            ),
        ),
        "Id",
        ("ProductCategoryId", "ProductId"),
        "Id",
    ),
    SObject(
        "Pricebook2",
        "Price Book",
        "Price Books",
        "01s",
        "A list of prices valid for a period or a channel.",
        (
            _id(),
            _text(
                "Name",
                "Price Book Name",
                "Name of the price book.",
                searchable=True,
                name_field=True,
                indexed=True,
            ),
            _long("Description", "Description", "What the price book is for."),
            Field("IsActive", FieldType.BOOLEAN, "Active", "Whether orders can use it."),
            _dt("ValidFrom", "Valid From", "First moment its prices apply."),
            _dt("ValidTo", "Valid To", "Last moment its prices apply."),
        ),
        "Name",
        ("Name", "IsActive", "ValidFrom", "ValidTo"),
        "Name",
    ),
    SObject(
        "PricebookEntry",
        "Price Book Entry",
        "Price Book Entries",
        "01u",
        "The price of one product in one price book.",
        (
            _id(),
            _text(
                "Name", "Product Name", "Name of the product priced (read-only copy).", indexed=True
            ),
            _lookup(
                "Pricebook2Id",
                "Price Book",
                "The price book.",
                "Pricebook2",
                "Pricebook2",
                "PricebookEntries",
                required=True,
            ),
            _lookup(
                "Product2Id",
                "Product",
                "The product priced.",
                "Product2",
                "Product2",
                "PricebookEntries",
                required=True,
            ),
            Field(
                "UnitPrice",
                FieldType.CURRENCY,
                "List Price",
                "Price per unit in USD.",
                indexed=True,
            ),
        ),
        "Name",
        ("Name", "Pricebook2Id", "UnitPrice"),
        "Name",
    ),
    SObject(
        "Order",
        "Order",
        "Orders",
        "801",
        "A customer's purchase.",
        (
            _id(),
            _text(
                "OrderNumber",
                "Order Number",
                "Sequential number of the order.",
                unique=True,
                indexed=True,
                searchable=True,
                name_field=True,
            ),
            _lookup(
                "AccountId",
                "Account",
                "The customer who ordered.",
                "Account",
                "Account",
                "Orders",
                required=True,
            ),
            _pick("Status", "Status", "Draft or Activated.", ORDER_STATUSES, indexed=True),
            Field(
                "EffectiveDate",
                FieldType.DATE,
                "Order Start Date",
                "The day the order was placed.",
                indexed=True,
            ),
            _lookup(
                "Pricebook2Id",
                "Price Book",
                "The price book the order was priced from.",
                "Pricebook2",
                "Pricebook2",
                "Orders",
            ),
        ),
        "OrderNumber",
        ("OrderNumber", "AccountId", "Status", "EffectiveDate"),
        "EffectiveDate",
    ),
    SObject(
        "OrderItem",
        "Order Product",
        "Order Products",
        "802",
        "One line of an order: a product, a quantity and a price.",
        (
            _id(),
            _text(
                "OrderItemNumber",
                "Order Product Number",
                "Sequential number of the line.",
                unique=True,
                indexed=True,
            ),
            _lookup(
                "OrderId",
                "Order",
                "The order the line belongs to.",
                "Order",
                "Order",
                "OrderItems",
                required=True,
            ),
            _lookup(
                "Product2Id",
                "Product",
                "The product ordered.",
                "Product2",
                "Product2",
                "OrderItems",
                required=True,
            ),
            Field("Quantity", FieldType.NUMBER, "Quantity", "Units ordered."),
            Field("UnitPrice", FieldType.CURRENCY, "Unit Price", "Price paid per unit in USD."),
            # CRMArena's data spells it PriceBookEntryId; SOQL names are case-insensitive,
            # so both spellings reach this field.
            _lookup(
                "PricebookEntryId",
                "Price Book Entry",
                "The price book entry used.",
                "PricebookEntry",
                "PricebookEntry",
                "OrderItems",
            ),
        ),
        "OrderItemNumber",
        ("OrderItemNumber", "OrderId", "Product2Id", "Quantity", "UnitPrice"),
        "OrderItemNumber",
    ),
    SObject(
        "EmailMessage",
        "Email Message",
        "Email Messages",
        "02s",
        "An e-mail exchanged about a case.",
        (
            _id(),
            _text("Subject", "Subject", "Subject line.", searchable=True, name_field=True),
            _long("TextBody", "Text Body", "Plain-text body of the e-mail."),
            _lookup(
                "ParentId",
                "Case",
                "The case the e-mail belongs to.",
                "Case",
                "Parent",
                "EmailMessages",
            ),
            Field(
                "FromAddress", FieldType.EMAIL, "From Address", "Sender's address.", searchable=True
            ),
            Field("ToAddress", FieldType.EMAIL, "To Address", "Recipient's address."),
            _text("ToIds", "To IDs", "Record Ids of the recipients."),
            _dt("MessageDate", "Message Date", "When the e-mail was sent.", indexed=True),
        ),
        "Subject",
        ("Subject", "FromAddress", "MessageDate", "ParentId"),
        "MessageDate",
    ),
    SObject(
        "LiveChatTranscript",
        "Live Chat Transcript",
        "Live Chat Transcripts",
        "570",
        "The transcript of a web chat between a customer and an agent.",
        (
            _id(),
            _text(
                "Name",
                "Transcript Name",
                "Sequential number of the transcript.",
                unique=True,
                indexed=True,
                name_field=True,
            ),
            _lookup(
                "CaseId",
                "Case",
                "The case the chat is about.",
                "Case",
                "Case",
                "LiveChatTranscripts",
            ),
            _lookup(
                "AccountId",
                "Account",
                "The customer's account.",
                "Account",
                "Account",
                "LiveChatTranscripts",
            ),
            _lookup(
                "ContactId",
                "Contact",
                "The customer's contact.",
                "Contact",
                "Contact",
                "LiveChatTranscripts",
            ),
            _lookup(
                "OwnerId",
                "Owner",
                "The agent who took the chat.",
                "User",
                "Owner",
                "LiveChatTranscripts",
            ),
            _long("Body", "Body", "The conversation, one timestamped line per message."),
            _dt("EndTime", "End Time", "When the chat ended.", indexed=True),
            _text(
                "LiveChatVisitorId", "Chat Visitor", "The anonymous visitor record (not modelled)."
            ),
        ),
        "Name",
        ("Name", "CaseId", "OwnerId", "EndTime"),
        "EndTime",
    ),
    SObject(
        "Issue__c",
        "Issue",
        "Issues",
        "a1M",
        "A kind of problem customers report, such as a shipping delay.",
        (
            _id(),
            _text(
                "Name",
                "Issue Name",
                "Short name of the issue.",
                searchable=True,
                name_field=True,
                indexed=True,
            ),
        ),
        "Name",
        ("Name",),
        "Name",
        custom=True,
    ),
    SObject(
        "CaseHistory__c",
        "Case History",
        "Case Histories",
        "a1N",
        "An audit row: a case was created, assigned to an agent, or closed.",
        (
            _id(),
            _text(
                "Name",
                "Case History Name",
                "Sequential number of the row.",
                unique=True,
                indexed=True,
            ),
            _lookup(
                "CaseId__c",
                "Case",
                "The case the row is about.",
                "Case",
                "CaseId__r",
                "CaseHistories__r",
                required=True,
            ),
            _pick(
                "Field__c",
                "Change",
                "What happened to the case.",
                HISTORY_FIELDS,
                indexed=True,
                required=True,
            ),
            _text(
                "OldValue__c",
                "Old Value",
                "Previous owner's User Id for an Owner Assignment; empty otherwise.",
                indexed=True,
            ),
            _text(
                "NewValue__c",
                "New Value",
                "New owner's User Id for an Owner Assignment; empty otherwise.",
                indexed=True,
            ),
            _dt("CreatedDate", "Created Date", "When the change happened.", indexed=True),
        ),
        "Name",
        ("Name", "CaseId__c", "Field__c", "NewValue__c", "CreatedDate"),
        "CreatedDate",
        custom=True,
    ),
)

OBJECT_NAMES: tuple[str, ...] = tuple(o.name for o in OBJECTS)

# The kinds of org: "b2c" (the service org, `OBJECTS`) and "b2b" (the service objects plus
# the sales ones, `crm_tui.org.schema.b2b`). An org file records its kind; opening or
# creating one makes its kind's catalogue the one that every lookup below answers from, so
# SOQL, describe, the server and the browser follow the org's schema with no special cases.
ORG_KINDS: tuple[str, ...] = ("b2c", "b2b")
DEFAULT_KIND = "b2c"
_active_kind = [DEFAULT_KIND]
# Within `kind_of`: the kind lookups answer from in this thread or task, whatever org was
# opened last (one process may hold a B2C and a B2B org at once).
_kind_here: ContextVar[str | None] = ContextVar("org_kind", default=None)


def _kind() -> str:
    return _kind_here.get() or _active_kind[0]


@contextmanager
def kind_of(kind: str) -> Iterator[None]:
    """Answer catalogue lookups from the objects of an org of `kind` within the block."""
    token = _kind_here.set(kind)
    try:
        yield
    finally:
        _kind_here.reset(token)


@cache
def objects_for_kind(kind: str) -> tuple[SObject, ...]:
    """The objects of an org of `kind`; ValueError naming the kinds if unknown."""
    if kind == "b2c":
        return OBJECTS
    if kind == "b2b":
        from crm_tui.org.schema.b2b import b2b_objects

        return b2b_objects(OBJECTS)
    raise ValueError(f"No org kind {kind!r}; the kinds are {', '.join(ORG_KINDS)}")


def use_kind(kind: str) -> None:
    """Answer every catalogue lookup from the objects of an org of `kind`."""
    objects_for_kind(kind)  # validates
    _active_kind[0] = kind


def active_kind() -> str:
    return _kind()


def active_objects() -> tuple[SObject, ...]:
    """The objects of the kind of org in use (the B2C org's unless one of another kind
    was opened or created)."""
    return objects_for_kind(_kind())


@cache
def _by_name(kind: str) -> dict[str, SObject]:
    return {o.name.lower(): o for o in objects_for_kind(kind)}


@cache
def _by_prefix(kind: str) -> dict[str, SObject]:
    return {o.key_prefix: o for o in objects_for_kind(kind)}


def get_object(name: str) -> SObject:
    """The object called `name` (case-insensitive); KeyError naming it if unknown."""
    try:
        return _by_name(_kind())[name.lower()]
    except KeyError:
        raise KeyError(f"No object {name!r} in the catalogue") from None


def has_object(name: str) -> bool:
    return name.lower() in _by_name(_kind())


def object_for_id(record_id: str) -> SObject | None:
    """The object whose key prefix starts `record_id`, or None."""
    return _by_prefix(_kind()).get(record_id[:3])


def child_relationships(parent: str) -> tuple[ChildRelationship, ...]:
    """Every relationship whose lookups point at `parent`, e.g. Account -> Cases."""
    return _child_relationships(get_object(parent).name, _kind())


@cache
def _child_relationships(parent: str, kind: str) -> tuple[ChildRelationship, ...]:
    return tuple(
        ChildRelationship(f.child_relationship, parent, o.name, f.name)
        for o in objects_for_kind(kind)
        for f in o.lookups
        if f.reference_to == parent and f.child_relationship
    )


def lookup_edges() -> list[tuple[str, str, str]]:
    """The lookup graph as (object, field, referenced object)."""
    return [
        (o.name, f.name, f.reference_to)
        for o in active_objects()
        for f in o.lookups
        if f.reference_to
    ]
