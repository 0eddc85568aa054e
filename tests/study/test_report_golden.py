"""The report's JSON, byte for byte, for two seeded studies: the hand-made pilot of
test_report.py (events, flags, skipped and expired attempts, agent trajectories) and the
simulated study of the statistics benchmark at its smoke size (every family, several
people and agent trials). Faster code must give the same report.

To write the expected files anew after a deliberate change of the report:
CRM_TUI_WRITE_GOLDEN=1 pytest tests/study/test_report_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from crm_tui.study.results.render import to_csv, to_json
from crm_tui.study.results.summary import ReportOptions, build_report
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.studies import list_studies
from tests.benchmarks import report_stats, smoke
from tests.helpers.paths import DATA, needs_crmarena
from tests.study.test_report import study_file  # noqa: F401  (the pilot study, a fixture)

GOLDEN = DATA / "report_golden"
pytestmark = needs_crmarena


def report_of(path: Path, options: ReportOptions | None = None) -> tuple[str, str]:
    with StudyStore.open(path) as store, store.transaction() as session:
        (study,) = list_studies(store)
        report = build_report(session, study, options)
    return to_json(report), to_csv(report)


def check(name: str, text: str) -> None:
    expected = GOLDEN / name
    if os.environ.get("CRM_TUI_WRITE_GOLDEN"):
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def simulated_study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("simulated")
    path = folder / "study.sqlite"
    taskset = smoke.crmarena_taskset(True)
    report_stats.make_study(path, taskset, 4, 2, 3, np.random.default_rng(0), folder)
    return path


def test_pilot_report_is_unchanged(study_file):  # noqa: F811
    as_json, as_csv = report_of(study_file)
    check("pilot.json", as_json)
    check("pilot.csv", as_csv)


def test_simulated_report_is_unchanged(simulated_study):
    as_json, as_csv = report_of(simulated_study, ReportOptions(resamples=200, seed=0))
    check("simulated.json", as_json)
    check("simulated.csv", as_csv)
