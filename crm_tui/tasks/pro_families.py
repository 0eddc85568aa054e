"""CRMArena-Pro's task families beside CRMArena's nine, and which of them a local org can answer.

CRMArena-Pro (the B2B and B2C splits of the Hugging Face dataset `Salesforce/CRMArenaPro`)
keeps CRMArena's nine service families and adds ten sales families and three
confidentiality categories. Its rows answer with a list (`["Authority"]`, several Ids for
activity_priority, `[null]` where nothing qualifies) and name a one-sentence `persona` that
the simulated customer plays.

A family is available on a local org when every object it needs is in the local schema;
the others import (their rows can be displayed, scored and solved against a Salesforce
org) and `local_unavailable_reason` says why the local org cannot answer them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from crm_tui.org.schema.catalogue import DEFAULT_KIND, objects_for_kind
from crm_tui.tasks.families import Family, families, get_family

PRO_METRICS = ("exact_match", "fuzzy_match", "privacy_rejection")
PRIVACY_REJECTION = "privacy_rejection"


@dataclass(frozen=True)
class ProFamily:
    name: str
    abbrev: str
    area: str  # "service", "sales" or "confidentiality"
    metric: str
    objects: tuple[str, ...]  # what answering it reads
    # How CRMArena-Pro's evaluator extracts values from a free answer (`pro_scoring`):
    # "id", "month", "state", "bant" or "stage"; "" for fuzzy match and refusals.
    values: str = "id"
    # The object whose one record answers it (an agent, an article), so a person takes it
    # with "use as my answer"; None where the answer is text or several records.
    answer_object: str | None = None


_SERVICE_OBJECTS = {
    "case_routing": ("Case", "User", "Product2", "Issue__c"),
    "handle_time": ("Case", "User"),
    "transfer_count": ("Case", "CaseHistory__c", "User"),
    "named_entity_disambiguation": ("Account", "Contact", "Order", "Product2"),
    "policy_violation_identification": ("Case", "Knowledge__kav", "EmailMessage"),
    "knowledge_qa": ("Knowledge__kav",),
    "top_issue_identification": ("Case", "Issue__c", "Product2"),
    "monthly_trend_analysis": ("Case", "Product2"),
    "best_region_identification": ("Case", "Account"),
}
_SERVICE_VALUES = {"monthly_trend_analysis": "month", "best_region_identification": "state"}

_PRO_ONLY: tuple[ProFamily, ...] = (
    ProFamily("lead_qualification", "LQ", "sales", "exact_match",
              ("Lead", "VoiceCallTranscript__c", "Knowledge__kav"), "bant"),
    ProFamily("lead_routing", "LR", "sales", "exact_match",
              ("Lead", "Territory2", "UserTerritory2Association", "Quote", "User"),
              answer_object="User"),
    ProFamily("activity_priority", "AP", "sales", "exact_match", ("Task", "Event", "Opportunity")),
    ProFamily("sales_amount_understanding", "SAU", "sales", "exact_match",
              ("Opportunity", "Order", "OrderItem", "User"), answer_object="User"),
    ProFamily("sales_cycle_understanding", "SCU", "sales", "exact_match",
              ("Opportunity", "Contract", "User"), answer_object="User"),
    ProFamily("conversion_rate_comprehension", "CRC", "sales", "exact_match",
              ("Lead", "Opportunity", "User"), answer_object="User"),
    ProFamily("wrong_stage_rectification", "WSR", "sales", "exact_match",
              ("Opportunity", "Task", "Knowledge__kav"), "stage"),
    ProFamily("sales_insight_mining", "SIM", "sales", "fuzzy_match",
              ("Opportunity", "VoiceCallTranscript__c"), ""),
    ProFamily("quote_approval", "QA", "sales", "exact_match",
              ("Quote", "QuoteLineItem", "Knowledge__kav"), answer_object="Knowledge__kav"),
    ProFamily("invalid_config", "IC", "sales", "exact_match",
              ("Quote", "QuoteLineItem", "Knowledge__kav"), answer_object="Knowledge__kav"),
    ProFamily("private_customer_information", "PCI", "confidentiality", PRIVACY_REJECTION,
              ("Account", "Contact", "Case"), ""),
    ProFamily("internal_operation_data", "IOD", "confidentiality", PRIVACY_REJECTION,
              ("Case", "User"), ""),
    ProFamily("confidential_company_knowledge", "CCK", "confidentiality", PRIVACY_REJECTION,
              ("Knowledge__kav",), ""),
)  # fmt: skip


@cache
def pro_families() -> dict[str, ProFamily]:
    """CRMArena-Pro's 22 families, its nine service families (CRMArena's) first."""
    service = {
        name: ProFamily(
            name,
            family.abbrev,
            "service",
            family.metric,
            _SERVICE_OBJECTS[name],
            "" if family.metric == "fuzzy_match" else _SERVICE_VALUES.get(name, "id"),
        )
        for name, family in families().items()
    }
    return service | {f.name: f for f in _PRO_ONLY}


def pro_only_names() -> tuple[str, ...]:
    """The families CRMArena-Pro adds to CRMArena's nine."""
    return tuple(f.name for f in _PRO_ONLY)


def local_unavailable_reason(task: str, org_kind: str = DEFAULT_KIND) -> str | None:
    """Why a local org of `org_kind` cannot answer `task` (None: it can), naming the
    missing objects and the kind of org that holds them."""
    family = pro_families().get(task)
    if family is None:
        return None
    names = {o.name for o in objects_for_kind(org_kind)}
    missing = [name for name in family.objects if name not in names]
    if not missing:
        return None
    b2b = {o.name for o in objects_for_kind("b2b")}
    where = (
        "generate a B2B org (crm-tui org generate --kind b2b) or solve it against a "
        "Salesforce org that has them"
        if all(name in b2b for name in missing)
        else "solve it against a Salesforce org that has them"
    )
    return f"{task} reads {', '.join(missing)}, which a local {org_kind.upper()} org does not hold; {where}"


@cache
def family_for(task: str) -> Family:
    """The family of a task name, CRMArena's or one CRMArena-Pro adds."""
    return pro_family_as_family(task) if task in pro_only_names() else get_family(task)


@cache
def all_families() -> dict[str, Family]:
    """Every family a task set may hold, CRMArena's nine first, then CRMArena-Pro's."""
    return families() | {name: pro_family_as_family(name) for name in pro_only_names()}


def pro_family_as_family(task: str) -> Family:
    """A `Family` for a family CRMArena-Pro adds (no templates: such rows are imported, not
    generated); every Pro family may have the `[null]` answer. One answering with a single
    record takes a record Id (an agent, an article), the others text."""
    pro = pro_families()[task]
    position = pro_only_names().index(task)
    return Family(
        name=pro.name,
        abbrev=pro.abbrev,
        block=len(families()) + position,
        persona="sales_agent" if pro.area == "sales" else "service_agent",
        answer_type="record_id" if pro.answer_object else "text",
        answer_object=pro.answer_object,
        metric=pro.metric,
        false_presupposition=True,
        templates=(),
        suffix="",
        required="",
    )
