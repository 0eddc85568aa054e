"""A study with quality control, served and used in a real browser: an annotator agrees to
the consent text, fails the qualification, is let try again by the coordinator (in a tab
of their own, on the quality-control screen), passes, answers a measured query and a check
item, and is stopped by the check-item threshold. The study file holds each step."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.store.db import StudyStore
from crm_tui.study.work.clock import FakeClock
from crm_tui.study.work.protocol import Preset, validated
from crm_tui.study.work.studies import with_overrides
from crm_tui.tasks.families import get_family
from tests.helpers.study_pilot import FAMILIES, create_crafted_study
from tests.tui.web.served_study import CHROMIUM, BrowserTab, Served, chromium, cli, serve

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: `.ci/run` installs Debian's chromium (as root)",
)
PRACTICE, CHECKS = (0, 1), (2,)
QUERY = re.compile(r"Crafted (\w+) query (\d+)")


@pytest.fixture
def study_db(tmp_path: Path, small_org_path: Path) -> Path:
    """Consent; a one-query qualification with one try; one check item in the queue of
    two, and a person stopped once one check answer is wrong."""
    (tmp_path / "consent.md").write_text("# Taking part\n\nYou agree to take part.\n")

    def controlled(preset: Preset) -> Preset:
        preset = with_overrides(preset, items=3, annotators_per_item=1, distinct_families=False)
        data = preset.model_dump()
        data["consent"] = {"file": str(tmp_path / "consent.md")}
        data["qualification"] = {"items": 1, "pass_correct": 1, "tries": 1, "pool": PRACTICE}
        data["checks"] = {
            "share": 0.5,
            "pool": CHECKS,
            "min_answered": 1,
            "warn_below": 0.9,
            "stop_below": 0.5,
        }
        return validated(Preset, data, "test preset")

    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org, StudyStore.open(path, FakeClock()) as store:
        create_crafted_study(store, org, name="controlled", change=controlled)
    return path


@pytest.fixture
def served(tmp_path: Path, small_org_path: Path, study_db: Path) -> Iterator[Served]:
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(study_db), "--study", "controlled")
    running = serve(*options, folder=tmp_path, env=env)
    yield running
    running.stop()


def invite(study_db: Path, name: str, role: str) -> str:
    printed = cli(
        "study", "invite", name, "--role", role, "--study", "controlled", "--db", study_db
    )
    found = re.search(r"^code: (\S+)$", printed, re.M)
    assert found, printed
    return found[1]


def sign_in(tab: BrowserTab, url: str, code: str, then: str) -> None:
    """Open the page and type the code; `then` is what the first screen after it shows."""
    tab.open(url)
    tab.wait_for_text("invitation code", timeout=30)
    mark = tab.mark()
    tab.type(code)
    tab.wait_for_text(code, since=mark)  # all of it in the field before Enter
    tab.press("Enter")
    tab.wait_for_text(then, since=mark)


def answer(org_path: Path, abbrev: str, right: bool) -> str:
    """The crafted query's gold (the second record of its answer object) or a wrong
    answer of the same object (the first)."""
    family = next(get_family(name) for name in FAMILIES if get_family(name).abbrev == abbrev)
    assert family.answer_object is not None
    with OrgStore.open(org_path) as org:
        records = org.rows(family.answer_object, "1 ORDER BY Id LIMIT 2")
    return records[1 if right else 0]["Id"]


def solve(tab: BrowserTab, org_path: Path, shows: str, right: bool, then: str) -> int:
    """`s` on home opens the next query (`shows`: "Practice query 1 of 1", say); the
    answer typed, Enter, confidence 3; `then` is what the app says after, back on home.
    Its idx."""
    mark = tab.mark()
    tab.press("s")
    tab.wait_for_text("Your answer", since=mark)  # the answer field has the focus
    tab.wait_for_text(shows, since=mark)
    found = tab.wait_until(lambda: QUERY.search(tab.text(mark)), "the query's text")
    given = answer(org_path, found[1], right)
    mark = tab.mark()
    tab.type(given)
    tab.wait_for_text(given, since=mark)
    tab.press("Enter")
    tab.wait_for_text("How confident", since=mark)
    mark = tab.mark()
    tab.press("3")
    tab.wait_for_text(then, since=mark)
    # Home again (its footer's key for the next query): the next key goes to it, never
    # to the answer field of the screen on its way out.
    tab.wait_for_text("Next query", since=mark)
    return int(found[2])


def test_consent_gate_retry_checks_and_a_stop_in_the_browser(
    served, study_db, small_org_path, tmp_path
):
    ana_code = invite(study_db, "Ana", "annotator")
    cleo_code = invite(study_db, "Cleo", "coordinator")
    with chromium(tmp_path / "chromium-profile") as context:
        ana = BrowserTab(context.new_page())
        sign_in(ana, served.url, ana_code, then="You agree to take part")
        mark = ana.mark()
        ana.press("Enter")  # "I agree" has the focus
        ana.wait_for_text("Qualification (try 1 of 1)", since=mark)

        first = solve(ana, small_org_path, "Practice query 1 of 1", False, "Not correct")
        ana.wait_for_text("You did not pass the qualification")

        cleo = BrowserTab(context.new_page())
        sign_in(cleo, served.url, cleo_code, then="Live progress")
        mark = cleo.mark()
        cleo.press("l")
        cleo.wait_for_text("Quality (checks, flags)", since=mark)
        cleo.wait_for_text("failed the gate", since=mark)
        mark = cleo.mark()
        cleo.press("q")  # Ana, the one annotator, is highlighted
        cleo.wait_for_text("Allow another try", since=mark)
        mark = cleo.mark()
        cleo.press("t")
        cleo.wait_for_text("may now try the qualification 2 times", since=mark)

        second = solve(ana, small_org_path, "Practice query 2 of 2", True, "Correct!")
        measured = solve(ana, small_org_path, "Query 1 of 2", True, "Submitted")
        check = solve(ana, small_org_path, "Query 2 of 2", False, "Submitted")
        mark = ana.mark()
        ana.press("s")
        ana.wait_for_text("Your part in this study has ended", since=mark)
    assert {first, second} == set(PRACTICE) and (measured, check) == (4, 2)
    with StudyService.open(study_db, clock=FakeClock()) as service:
        overview = service.quality_overview()
        who = {p.name: p.id for p in service.profiles()}
        stage = service.standing(who["Ana"]).stage
    assert overview is not None
    person = next(p for p in overview.people if p.name == "Ana")
    assert (person.consent, person.qualification, person.practice_right) == (
        "agreed",
        "passed",
        [0, 1],
    )
    assert (person.retries_allowed, person.check_answers, person.check_accuracy) == (1, 1, 0.0)
    assert (person.check_verdict, stage) == ("stop", "stopped")
