"""The browser's view of an org, behind one interface (no Textual here).

A local org file and a Salesforce org implement it, the way Harlequin puts database
adapters behind one abstract class: optional abilities (SOQL, search) are declared as
flags on the class, and schema reaches screens only through `describe()`. Everything a
screen needs comes back as plain dataclasses, with lookups already turned into display
names, so screens never touch SQL or SOQL.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.catalogue import Field, FieldType, SObject, get_object
from crm_tui.org.schema.catalogue import object_for_id as object_with_prefix
from crm_tui.org.schema.ids import is_valid_id, to18
from crm_tui.org.schema.sftime import parse_datetime

if TYPE_CHECKING:
    from crm_tui.org.reports.definition import ReportDefinition, ReportResult
    from crm_tui.org.soql.executor import QueryResult

__all__ = [  # schema types too: screens take them from here, with describe()
    "Backend",
    "Cursor",
    "Field",
    "FieldType",
    "FieldValue",
    "Filter",
    "FilterValue",
    "ID_TEXT_FIELDS",
    "ObjectInfo",
    "Operator",
    "Page",
    "Record",
    "RecordView",
    "RelatedList",
    "SObject",
    "SearchHit",
    "Sort",
    "TEXT_TYPES",
    "coerce_value",
    "display_value",
    "field_of",
    "id_text_target",
    "link_of",
    "object_of",
    "record_view",
    "validate_filter",
]

Record = dict[str, Any]
FilterValue = str | float | bool | date | datetime | None
TEXT_TYPES = frozenset(
    {FieldType.TEXT, FieldType.LONG_TEXT, FieldType.PICKLIST, FieldType.EMAIL, FieldType.PHONE}
)
# Text fields that hold a record's Id (CaseHistory__c's Old/New Value hold the User Ids of
# an Owner Assignment): screens and reports show that record's name and link to it, as
# for a lookup, though SOQL cannot follow them (backends look the names up per page).
ID_TEXT_FIELDS: dict[tuple[str, str], str] = {
    ("CaseHistory__c", "OldValue__c"): "User",
    ("CaseHistory__c", "NewValue__c"): "User",
}


# Text fields that hold the Id of a record no object here models (as in CRMArena's data):
# there is no page to link to, so the record page says what that record is beside its Id.
OUTSIDE_RECORD_NAMES: dict[tuple[str, str], str] = {
    ("Account", "RecordTypeId"): "Person Account",  # the only record type the org uses
    ("LiveChatTranscript", "LiveChatVisitorId"): "Anonymous visitor",
}


def id_text_target(object_name: str, field_name: str) -> str | None:
    """The object whose Ids the text field holds, or None for an ordinary field."""
    return ID_TEXT_FIELDS.get((object_name, field_name))


class Operator(StrEnum):
    EQ = "="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    CONTAINS = "contains"
    STARTS_WITH = "starts with"
    IS_EMPTY = "is empty"
    IS_NOT_EMPTY = "is not empty"

    @property
    def takes_value(self) -> bool:
        return self not in (Operator.IS_EMPTY, Operator.IS_NOT_EMPTY)


@dataclass(frozen=True)
class Filter:
    field: str
    operator: Operator | str
    value: Any = None

    def describe(self) -> str:
        op = Operator(self.operator)
        return f"{self.field} {op}" + (f" {self.value!r}" if op.takes_value else "")


@dataclass(frozen=True)
class Sort:
    field: str
    descending: bool = False


@dataclass(frozen=True)
class Cursor:
    """Where the next page starts: just after (sort value, Id). Opaque to screens."""

    sort_value: Any
    record_id: str


@dataclass(frozen=True)
class ObjectInfo:
    name: str
    label: str
    label_plural: str
    count: int


@dataclass(frozen=True)
class Page:
    records: list[Record]
    next_cursor: Cursor | None  # None: this was the last page
    names: dict[str, str] = field(default_factory=dict)  # lookup Id -> display name
    id_text_fields: frozenset[str] = frozenset()  # text fields named like lookups (ID_TEXT_FIELDS)

    def display(self, fld: Field, record: Record) -> str:
        return display_value(fld, record.get(fld.name), self.names, fld.name in self.id_text_fields)


@dataclass(frozen=True)
class FieldValue:
    name: str
    label: str
    type: FieldType
    value: Any
    display: str
    link: str | None = None  # the referenced record's Id, for lookups that are set


@dataclass(frozen=True)
class RecordView:
    object_name: str
    record_id: str
    title: str
    fields: list[FieldValue]


@dataclass(frozen=True)
class RelatedList:
    name: str  # child relationship name, e.g. Cases
    label: str  # its heading: the child's plural label, as the org describes it
    child_object: str
    field: str  # the lookup on the child pointing at the parent
    parent_id: str
    count: int
    count_is_capped: bool  # True: at least `count` (shown as "10,000+", as Salesforce does)
    page: Page  # the first few children

    @property
    def filter(self) -> Filter:
        """The filter that lists exactly these children."""
        return Filter(self.field, Operator.EQ, self.parent_id)

    @property
    def count_label(self) -> str:
        return f"{self.count:,}" + ("+" if self.count_is_capped else "")


@dataclass(frozen=True)
class SearchHit:
    object_name: str
    record_id: str
    title: str
    snippet: str


class Backend(ABC):
    """An org seen by the browser. Implementations must be safe to call from a worker thread.

    Optional abilities are flags on the class: screens check the flag, and calling an
    ability a backend lacks is a CrmTuiError.
    """

    supports_soql: ClassVar[bool] = False  # soql(): run a SOQL query typed by the user
    supports_search: ClassVar[bool] = False  # search(): records matching words
    supports_reports: ClassVar[bool] = False  # run_report(): group and summarise records

    @property
    @abstractmethod
    def name(self) -> str:
        """A short name for the header (e.g. the org file's name)."""

    @property
    @abstractmethod
    def fingerprint(self) -> str:
        """Identifies the org's content (task sets are pinned to it)."""

    @abstractmethod
    def list_objects(self) -> list[ObjectInfo]: ...

    def describe(self, object_name: str) -> SObject:
        """The object's schema as this org has it: the screens' one source of labels and
        fields (a Salesforce org narrows the catalogue to its own). Cached by backends."""
        return object_of(object_name)

    def object_for_id(self, record_id: str) -> SObject | None:
        """The object a record Id belongs to (by its key prefix), or None if none has it."""
        obj = object_with_prefix(record_id.strip())
        return self.describe(obj.name) if obj is not None else None

    @abstractmethod
    def page(
        self,
        object_name: str,
        filters: list[Filter] | tuple[Filter, ...] = (),
        sort: Sort | None = None,
        after: Cursor | None = None,
        limit: int = 100,
    ) -> Page:
        """Records in (sort field, Id) order, starting after `after`."""

    def count(self, object_name: str, filters: list[Filter] | tuple[Filter, ...] = ()) -> int:
        """Records matching `filters`, cached: the browser only reads, so a count of an org
        never goes stale while it is open."""
        obj = self.describe(object_name)
        key = (obj.name, tuple(filters))
        cache: dict[tuple[str, tuple[Filter, ...]], int] = self.__dict__.setdefault(
            "_count_cache", {}
        )
        if key not in cache:
            cache[key] = self._count(obj, tuple(filters))
        return cache[key]

    @abstractmethod
    def _count(self, obj: SObject, filters: tuple[Filter, ...]) -> int:
        """Count records matching `filters` (uncached)."""

    @abstractmethod
    def get_record(self, record_id: str) -> RecordView: ...

    @abstractmethod
    def related(self, record_id: str, preview_rows: int = 5) -> list[RelatedList]: ...

    def search(
        self, text: str, objects: list[str] | None = None, limit: int = 50
    ) -> list[SearchHit]:
        """Records matching every word of `text` (when `supports_search`)."""
        raise CrmTuiError(f"{self.name} offers no search")

    def soql(self, text: str) -> QueryResult:
        """Run one SOQL query typed by the user (when `supports_soql`); bad queries raise
        SalesforceError, worded as Salesforce words them."""
        raise CrmTuiError(f"{self.name} does not run SOQL queries")

    def run_report(self, definition: ReportDefinition, today: date | None = None) -> ReportResult:
        """Run a report (when `supports_reports`): relative date ranges count from `today`,
        else the definition's own today, else the org's. A bad definition raises a one-line
        CrmTuiError naming the part."""
        raise CrmTuiError(f"{self.name} does not run reports")

    def close(self) -> None:  # noqa: B027  (an optional hook, not abstract)
        """Release connections (default: nothing to release)."""


# ----------------------------------------------------------------- shared validation
def object_of(object_name: str) -> SObject:
    try:
        return get_object(object_name)
    except KeyError as exc:
        raise CrmTuiError(exc.args[0]) from None


def field_of(obj: SObject, field_name: str) -> Field:
    try:
        return obj.field(field_name)
    except KeyError as exc:
        raise CrmTuiError(exc.args[0]) from None


_TRUE = {"true", "yes", "1", "y"}
_FALSE = {"false", "no", "0", "n"}


def coerce_value(fld: Field, value: Any) -> FilterValue:
    """The filter value as the field holds it; a CrmTuiError naming the field if it can't be.

    Numbers become floats, booleans bools, Ids their 18-character form, Dates a `date`;
    a DateTime becomes a naive UTC `datetime`, or a `date` when only a day was given
    (which then means that whole day, as in Salesforce).
    """
    if fld.type in (FieldType.NUMBER, FieldType.CURRENCY):
        try:
            return float(value)
        except (TypeError, ValueError):
            raise CrmTuiError(f"{fld.label} ({fld.name}) needs a number, not {value!r}") from None
    if fld.type is FieldType.BOOLEAN:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise CrmTuiError(f"{fld.label} ({fld.name}) needs true or false, not {value!r}")
    if value is None:
        raise CrmTuiError(f"{fld.label} ({fld.name}): the filter needs a value")
    if fld.type is FieldType.DATE:
        try:
            return date.fromisoformat(str(value).strip()[:10])
        except ValueError:
            raise CrmTuiError(
                f"{fld.label} ({fld.name}) needs a date like 2024-01-31, not {value!r}"
            ) from None
    if fld.type is FieldType.DATETIME:
        text = str(value).strip()
        try:
            return date.fromisoformat(text) if len(text) == 10 else parse_datetime(text)
        except ValueError:
            raise CrmTuiError(
                f"{fld.label} ({fld.name}) needs a date or a date and time like "
                f"2024-01-31T09:30:00Z, not {value!r}"
            ) from None
    if fld.type in (FieldType.ID, FieldType.LOOKUP):
        if not is_valid_id(str(value).strip()):
            raise CrmTuiError(f"{fld.label} ({fld.name}) needs a Salesforce Id, not {value!r}")
        return to18(str(value).strip())
    return str(value)


def validate_filter(obj: SObject, flt: Filter) -> tuple[Field, Operator, FilterValue]:
    """Field and operator checked against the schema, value coerced to the field's type."""
    fld = field_of(obj, flt.field)
    try:
        op = Operator(flt.operator)
    except ValueError:
        known = ", ".join(o.value for o in Operator)
        raise CrmTuiError(
            f"Unknown filter operator {flt.operator!r} (use one of: {known})"
        ) from None
    if op in (Operator.CONTAINS, Operator.STARTS_WITH) and fld.type not in TEXT_TYPES:
        raise CrmTuiError(f"{fld.label} ({fld.name}) is not text: '{op}' does not apply")
    if op in (Operator.LT, Operator.LE, Operator.GT, Operator.GE) and (
        fld.type is FieldType.BOOLEAN
    ):
        raise CrmTuiError(f"{fld.label} ({fld.name}) is true or false: '{op}' does not apply")
    value = coerce_value(fld, flt.value) if op.takes_value else None
    return fld, op, value


def display_value(
    fld: Field, value: Any, names: dict[str, str] | None = None, id_text: bool = False
) -> str:
    """How a stored value reads on screen; lookup Ids (and, with `id_text`, the Id a text
    field holds: ID_TEXT_FIELDS) become names when known."""
    if value is None:
        return ""
    if fld.type is FieldType.CURRENCY:
        return f"{value:,.2f}"
    if fld.type is FieldType.NUMBER:
        return f"{value:,.0f}" if value == int(value) else f"{value:,}"
    if fld.type is FieldType.BOOLEAN:
        return "Yes" if value else "No"
    if fld.type is FieldType.DATETIME and len(str(value)) >= 16:
        return f"{str(value)[:10]} {str(value)[11:16]} UTC"  # stored in UTC, to the minute
    if (fld.is_lookup or id_text) and names:
        return names.get(str(value), str(value))
    return str(value)


def record_view(obj: SObject, record: Record, names: dict[str, str]) -> RecordView:
    """A record page's content: every field labelled, lookups named and linked."""
    fields = [
        FieldValue(
            f.name,
            f.label,
            f.type,
            record[f.name],
            _record_page_display(obj, f, record[f.name], names),
            link_of(obj, f, record[f.name]),
        )
        for f in obj.fields
    ]
    title = str(record.get(obj.title_field) or record["Id"])
    return RecordView(obj.name, record["Id"], title, fields)


def _record_page_display(obj: SObject, fld: Field, value: Any, names: dict[str, str]) -> str:
    shown = display_value(fld, value, names, id_text_target(obj.name, fld.name) is not None)
    outside = OUTSIDE_RECORD_NAMES.get((obj.name, fld.name))
    return f"{outside} · {shown}" if outside and shown else shown


def link_of(obj: SObject, fld: Field, value: Any) -> str | None:
    """The Id of the record a value links to: a lookup's, or an Id held in text."""
    if not value:
        return None
    if fld.is_lookup:
        return str(value)
    if id_text_target(obj.name, fld.name) and is_valid_id(str(value)):
        return to18(str(value))
    return None
