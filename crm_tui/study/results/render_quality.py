"""The report's quality-control tables: per person, and the baseline with and without the
exclusions (for coordinators: the report is theirs)."""

from __future__ import annotations

from collections.abc import Iterator

from rich.table import Table

from crm_tui.study.results.quality_report import PersonQuality, QualityReport
from crm_tui.study.results.render import DASH, TableView


def _pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.1f}"


def _flags(person: PersonQuality) -> str:
    """The flags raised, with their counts: "fast 2, repeated 1, straight-lining"."""
    counted = (
        ("fast", person.fast_answers),
        ("repeated", person.repeated_answers),
        ("idle", person.idle_spans),
    )
    raised = [f"{flag} {count}" for flag, count in counted if count]
    return ", ".join(raised + (["straight-lining"] if person.straight_lining else []))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def quality_tables(quality: QualityReport) -> list[TableView]:
    people = TableView(
        "Quality control per person",
        [
            "Person",
            "Consent",
            "Qualification",
            "Check items",
            "Check %",
            "Flags",
            "Excluded",
            "Completion code",
        ],
        [
            [
                p.name,
                p.consent or DASH,
                p.qualification or DASH,
                str(p.check_answers),
                _pct(p.check_accuracy) + (f" ({p.check_verdict})" if p.check_verdict else ""),
                _flags(p) or DASH,
                p.excluded
                or (f"{len(p.excluded_attempts)} attempt(s)" if p.excluded_attempts else DASH),
                p.completion_code or DASH,
            ]
            for p in quality.people
        ],
    )
    baseline = TableView(
        "Baseline with and without exclusions",
        ["Answers counted", "Answers", "Accuracy %"],
        [
            [
                f"without exclusions ({_count(quality.excluded_people, 'person', 'people')}, "
                f"{_count(quality.excluded_attempts, 'attempt', 'attempts')} left out)",
                str(quality.answers_without_excluded),
                _pct(quality.accuracy_without_excluded),
            ],
            [
                "with exclusions kept in",
                str(quality.answers_with_excluded),
                _pct(quality.accuracy_with_excluded),
            ],
        ],
    )
    return [people, baseline]


def rich_quality_tables(quality: QualityReport) -> list[Table]:
    from crm_tui.study.results.render import _rich_table

    return [_rich_table(view) for view in quality_tables(quality)]


def quality_csv_records(quality: QualityReport) -> Iterator[list[object]]:
    """The quality section in the report's long CSV form (section, family, subject,
    measure, value): a row per person and measure, then the baseline with and without."""
    for p in quality.people:
        for measure, value in (
            ("consent", p.consent),
            ("qualification", p.qualification),
            ("check_answers", p.check_answers),
            ("check_accuracy", p.check_accuracy),
            ("check_verdict", p.check_verdict),
            ("answers", p.answers),
            ("fast_answers", p.fast_answers),
            ("repeated_answers", p.repeated_answers),
            ("idle_spans", p.idle_spans),
            ("straight_lining", p.straight_lining),
            ("excluded", p.excluded),
            ("excluded_attempts", len(p.excluded_attempts)),
            ("completion_code", p.completion_code),
        ):
            yield ["quality", "", p.name, measure, value]
    for measure, value in (
        ("excluded_people", quality.excluded_people),
        ("excluded_attempts", quality.excluded_attempts),
        ("accuracy_without_excluded", quality.accuracy_without_excluded),
        ("accuracy_with_excluded", quality.accuracy_with_excluded),
    ):
        yield ["quality", "", "baseline", measure, value]
