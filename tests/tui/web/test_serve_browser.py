"""`crm-tui web` in a real browser: headless Chromium opens the page, types an
invitation code into the terminal, solves one query and submits it; the attempt is then in
the study file with its answer and active time. A tab closed mid-query resumes like a
killed app: same attempt, draft kept, the closed span counted as wall time only."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import col, select

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.store.db import StudyStore
from crm_tui.study.store.models import (
    Annotator,
    Attempt,
    Event,
    InvitationFailure,
    StudyItem,
    row_id,
)
from tests.helpers.processes import child_pids
from tests.helpers.waiting import wait_until
from tests.tui.web.served_study import (
    CHROMIUM,
    CHROMIUM_ARGS,
    BrowserTab,
    Served,
    cli,
    serve,
)

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: `.ci/run` installs Debian's chromium (as root)",
)


def invite(study_db: Path, name: str) -> str:
    printed = cli(
        "study", "invite", name, "--role", "annotator", "--study", "web", "--db", study_db
    )
    found = re.search(r"^code: (\S+)$", printed, re.M)
    assert found, printed
    return found[1]


@pytest.fixture(scope="module")
def served(tmp_path_factory, small_org_path, study_db) -> Iterator[Served]:
    """One server for the module's tests (each test has its own annotator)."""
    folder = tmp_path_factory.mktemp("server")
    env = os.environ | {"CRM_TUI_HOME": str(folder / "home")}
    options = ("--org", str(small_org_path), "--db", str(study_db), "--study", "web")
    running = serve(*options, folder=folder, env=env)
    yield running
    running.stop()
    assert child_pids(running.process.pid) == []  # no tab's app outlives the server


@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Iterator[object]:
    """Debian's Chromium (never Playwright's download), on a fresh profile folder."""
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tmp_path_factory.mktemp("chromium-profile"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
        )
        yield context
        context.close()


def attempts(study_db: Path, who: str) -> list[Attempt]:
    """`who`'s attempts, as the study file holds them now."""
    with StudyStore.open_existing(study_db) as store, store.transaction() as db:
        mine = select(Attempt).join(Annotator, col(Attempt.annotator_id) == Annotator.id)
        return list(db.exec(mine.where(Annotator.name == who).order_by(col(Attempt.id))))


def failure_sources(study_db: Path) -> list[str]:
    with StudyStore.open_existing(study_db) as store, store.transaction() as db:
        wrong = InvitationFailure.reason != "opened"  # "opened": a right code after them
        return list(db.exec(select(InvitationFailure.source).where(wrong)))


def opened_count(study_db: Path, attempt_id: int) -> int:
    with StudyStore.open_existing(study_db) as store, store.transaction() as db:
        kinds = db.exec(select(Event.kind).where(Event.attempt_id == attempt_id))
        return sum(kind == "opened" for kind in kinds)


def answer_for(study_db: Path, org_path: Path, attempt: Attempt) -> str:
    """An answer of the right kind to type for the attempt's query (any record of the
    asked object for an Id; free text else). Right or wrong does not matter here."""
    with StudyStore.open_existing(study_db) as store, store.transaction() as db:
        item = db.get(StudyItem, attempt.item_id)
        assert item is not None
        extra = json.loads(item.extra_json or "{}")
    kind = extra.get("answer_type")
    if kind == "record_id":
        with OrgStore.open(org_path) as org:
            return org.rows(extra["answer_object"], "1 ORDER BY Id LIMIT 1")[0]["Id"]
    assert kind == "text", f"the test types answers; this query wants a {kind}"
    return "Thirty days"


def sign_in(tab: BrowserTab, url: str, code: str, wrong_first: str | None = None) -> None:
    """Open the page, type the code into the app's first screen; on the home screen."""
    tab.open(url)
    tab.wait_for_text("invitation code", timeout=30)
    if wrong_first:
        mark = tab.mark()
        tab.type(wrong_first)
        tab.press("Enter")
        tab.wait_for_text("That code opens no profile", since=mark)
        # The refused code is selected: typing replaces it (no key chords whose order
        # against typed characters the terminal in the page does not promise).
    mark = tab.mark()
    tab.type(code)
    tab.wait_for_text(code, since=mark)  # all of it in the field before Enter
    tab.press("Enter")
    tab.wait_for_text("Next query", since=mark)


def start_query(tab: BrowserTab, study_db: Path, org_path: Path, who: str) -> tuple[Attempt, str]:
    """`s` on the home screen, then the answer typed; returns the attempt and the answer
    once the app has saved it as the draft."""
    mark = tab.mark()
    tab.press("s")
    tab.wait_for_text("Your answer", since=mark)  # the solve screen, its answer field focused
    attempt = tab.wait_until(
        lambda: next(iter(attempts(study_db, who)), None), "the attempt in the study file"
    )
    answer = answer_for(study_db, org_path, attempt)
    tab.type(answer)
    tab.wait_until(
        lambda: attempts(study_db, who)[0].draft_answer == answer,
        "the typed answer saved as a draft",
    )
    return attempt, answer


def submit(tab: BrowserTab, study_db: Path, who: str) -> Attempt:
    """Enter submits from the answer field; 4 is the confidence asked next."""
    tab.press("Enter")
    tab.wait_for_text("How confident")
    tab.press("4")
    return tab.wait_until(
        lambda: next((a for a in attempts(study_db, who) if a.status == "submitted"), None),
        "the submitted attempt in the study file",
    )


def test_an_annotator_solves_a_query_in_the_browser(served, browser, study_db, small_org_path):
    code = invite(study_db, "Ana Web")
    assert served.lines[0].startswith(f"Serving study 'web' at {served.url} ")
    tab = BrowserTab(browser.new_page())
    sign_in(tab, served.url, code, wrong_first="AAAA-BBBB-CCCC-DDDD")
    # The wrong try counts against this browser's address, not against every tab.
    assert failure_sources(study_db) == ["browser 127.0.0.1"]
    opened, answer = start_query(tab, study_db, small_org_path, "Ana Web")

    done = submit(tab, study_db, "Ana Web")

    assert (done.id, done.answer_raw, done.confidence) == (opened.id, answer, 4)
    assert done.active_ms is not None and done.active_ms > 0
    tab.page.close()


def test_a_tab_closed_mid_query_resumes_like_a_crash(served, browser, study_db, small_org_path):
    code = invite(study_db, "Ben Web")
    others = set(child_pids(served.process.pid))
    tab = BrowserTab(browser.new_page())
    sign_in(tab, served.url, code)
    opened, answer = start_query(tab, study_db, small_org_path, "Ben Web")
    app = set(child_pids(served.process.pid)) - others
    assert len(app) == 1  # the tab's own app process

    tab.page.close()  # closed mid-query: the server ends that tab's app
    wait_until(lambda: not app & set(child_pids(served.process.pid)), "the tab's app to end")
    closed_for = 1.0
    time.sleep(closed_for)

    again = BrowserTab(browser.new_page())
    sign_in(again, served.url, code)  # the same code reopens the profile
    mark = again.mark()
    again.press("r")
    again.wait_until(lambda: opened_count(study_db, row_id(opened)) == 2, "the attempt reopened")
    again.wait_for_text(answer, since=mark)  # the draft is back in the answer field
    done = submit(again, study_db, "Ben Web")

    resumed_not_new = [a.id for a in attempts(study_db, "Ben Web")] == [opened.id]
    assert resumed_not_new
    assert done.answer_raw == answer
    assert done.active_ms is not None and done.wall_ms is not None
    assert done.wall_ms - done.active_ms >= closed_for * 1000  # the closed span: wall only
    again.page.close()
