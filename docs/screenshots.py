"""The documentation's screenshots: the app's screens as the test suite's snapshots show them.

The SVG snapshot tests (pytest-textual-snapshot, e.g. tests/tui/study/test_study_snapshots.py)
drive the real app with Textual's `run_test()` on a seeded org and keep an approved SVG of
each screen; CI fails when a screen no longer matches its SVG. This script copies those
SVGs under docs/site-src/img/ with the names the pages use, so every screenshot in the
documentation is a picture the tests have checked, never one made by hand.

Run (from the repository's root): python docs/screenshots.py
       python docs/screenshots.py --check   (exit 1 when a copy differs from its snapshot)
After a snapshot changes (`pytest TEST --snapshot-update`), run it again and commit both.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "site-src" / "img"

# image name in the docs -> the snapshot test's SVG under tests/
SCREENSHOTS = {
    "browser-object-list.svg": "tui/browser/__snapshots__/test_browser_snapshots/test_object_list.svg",
    "browser-case-list.svg": "tui/browser/__snapshots__/test_browser_snapshots/test_case_list_view.svg",
    "browser-case-record.svg": "tui/browser/__snapshots__/test_browser_snapshots/test_case_record_page.svg",
    "browser-search.svg": "tui/browser/__snapshots__/test_browser_snapshots/test_search_results.svg",
    "report-builder.svg": "tui/browser/__snapshots__/test_reports_snapshots/test_report_builder.svg",
    "report-grouped-result.svg": "tui/browser/__snapshots__/test_reports_snapshots/test_grouped_report_result.svg",
    "report-matrix-result.svg": "tui/browser/__snapshots__/test_reports_snapshots/test_matrix_report_result.svg",
    "study-home.svg": "tui/study/__snapshots__/test_study_snapshots/test_home.svg",
    "study-solve.svg": "tui/study/__snapshots__/test_study_snapshots/test_solve.svg",
    "study-realism.svg": "tui/study/__snapshots__/test_study_snapshots/test_realism.svg",
    "study-invitation-code.svg": "tui/study/__snapshots__/test_blinding_snapshots/test_invitation_code_screen.svg",
    "study-live-progress.svg": "tui/study/__snapshots__/test_live_progress/test_live_progress_snapshot.svg",
    "study-quality-control.svg": "tui/study/__snapshots__/test_people_quality/test_people_quality_snapshot.svg",
    "results-side-by-side.svg": "tui/results/__snapshots__/test_results_snapshots/test_results_side_by_side.svg",
    "results-realism.svg": "tui/results/__snapshots__/test_results_snapshots/test_results_realism.svg",
    "soql-console.svg": "tui/results/__snapshots__/test_results_snapshots/test_soql_console.svg",
}


def stale() -> list[str]:
    """The images that are missing or differ from their snapshot."""
    return [
        name
        for name, snapshot in SCREENSHOTS.items()
        if not (IMAGES / name).is_file()
        or (IMAGES / name).read_bytes() != (ROOT / "tests" / snapshot).read_bytes()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say which images are stale")
    args = parser.parse_args(argv)
    names = stale()
    if args.check:
        for name in names:
            print(f"stale: docs/site-src/img/{name} (run python docs/screenshots.py)")
        return 1 if names else 0
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name in names:
        (IMAGES / name).write_bytes((ROOT / "tests" / SCREENSHOTS[name]).read_bytes())
        print(f"written: docs/site-src/img/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
