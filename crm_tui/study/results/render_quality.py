"""The report's quality-control tables: per person, and the baseline with and without the
exclusions (for coordinators: the report is theirs)."""

from __future__ import annotations

from collections.abc import Iterator

from rich.table import Table

from crm_tui.study.results.quality_report import QualityReport
from crm_tui.study.results.render import DASH, TableView


def _pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.1f}"


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
                ", ".join(
                    f"{flag} {count}"
                    for flag, count in (
                        ("fast", p.fast_answers),
                        ("repeated", p.repeated_answers),
                        ("idle", p.idle_spans),
                    )
                    if count
                )
                + (", straight-lining" if p.straight_lining else "")
                or DASH,
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
                f"without exclusions ({quality.excluded_people} people, "
                f"{quality.excluded_attempts} attempts left out)",
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
