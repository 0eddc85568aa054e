"""The report's quality tables: each person's flags and the baseline's counts as text."""

from __future__ import annotations

from crm_tui.study.results.quality_report import PersonQuality, QualityReport
from crm_tui.study.results.render_quality import quality_tables


def person(name: str, fast: int = 0, repeated: int = 0, straight: bool = False) -> PersonQuality:
    return PersonQuality(
        profile_id=1,
        name=name,
        consent="agreed",
        consent_sha256=None,
        consent_at=None,
        qualification="passed",
        practice_right=[5],
        retries_allowed=0,
        check_answers=2,
        check_accuracy=1.0,
        check_verdict=None,
        answers=18,
        fast_answers=fast,
        repeated_answers=repeated,
        idle_spans=0,
        straight_lining=straight,
        flags=[],
        excluded=None,
    )


def report(*people: PersonQuality, excluded_people: int = 1) -> QualityReport:
    return QualityReport(
        practice_items=10,
        check_items=20,
        checks_per_person=2,
        fast_floor_s={},
        people=list(people),
        excluded_people=excluded_people,
        excluded_attempts=2,
        accuracy_without_excluded=0.5,
        accuracy_with_excluded=0.6,
        answers_without_excluded=10,
        answers_with_excluded=12,
    )


def test_each_persons_flags_read_as_a_list():
    people, _ = quality_tables(
        report(person("Ana", straight=True), person("Ben", 2, 1, True), person("Cy"))
    )
    flags = {row[0]: row[5] for row in people.rows}
    assert flags == {
        "Ana": "straight-lining",
        "Ben": "fast 2, repeated 1, straight-lining",
        "Cy": "—",
    }


def test_the_baseline_counts_what_it_leaves_out_in_words():
    for excluded, words in ((1, "1 person, 2 attempts"), (2, "2 people, 2 attempts")):
        _, baseline = quality_tables(report(excluded_people=excluded))
        assert baseline.rows[0][0] == f"without exclusions ({words} left out)"
