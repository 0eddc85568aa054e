"""Reports: a definition (object, filters, groupings, summaries) run by any Backend.

`definition` holds the frozen data (what a person builds, what a run answers) and its
TOML/JSON form; `resolve` checks a definition against an org's schema; `sql` runs it as
one SQL statement on a local org; `rows` aggregates fetched rows (the Salesforce backend,
where SOQL cannot express a part).
"""

from crm_tui.org.reports.definition import (
    AGE,
    MAX_GROUPINGS,
    Aggregate,
    CrossFilter,
    DateGranularity,
    DateRange,
    Duration,
    DurationUnit,
    Grouping,
    GroupKey,
    GroupRow,
    ReportDefinition,
    ReportFilter,
    ReportResult,
    Summary,
    SummarySort,
    dump_definition,
    load_definition,
    parse_definition,
)

__all__ = [
    "AGE",
    "MAX_GROUPINGS",
    "Aggregate",
    "CrossFilter",
    "DateGranularity",
    "DateRange",
    "Duration",
    "DurationUnit",
    "GroupKey",
    "GroupRow",
    "Grouping",
    "ReportDefinition",
    "ReportFilter",
    "ReportResult",
    "Summary",
    "SummarySort",
    "dump_definition",
    "load_definition",
    "parse_definition",
]
