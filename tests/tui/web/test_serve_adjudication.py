"""The adjudication queue in a served study, in a real browser: a coordinator signs in
with their code, opens the queue, reads the evidence and keeps a query's gold; the decision
is in the study file."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from crm_tui.org.store.orgstore import OrgStore
from crm_tui.study.service import StudyService
from crm_tui.study.work.clock import FakeClock
from tests.helpers.audit_study import make_audit_study
from tests.tui.web.served_study import (
    CHROMIUM,
    CHROMIUM_ARGS,
    BrowserTab,
    invitation_code,
    serve,
    sign_in,
)

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: `.ci/run` installs Debian's chromium (as root)",
)


@pytest.fixture
def audit_db(tmp_path, small_org_path):
    path = tmp_path / "study.sqlite"
    with OrgStore.open(small_org_path) as org:
        make_audit_study(path, FakeClock(), org_fingerprint=org.fingerprint)
    return path


@pytest.fixture
def served(tmp_path, small_org_path, audit_db) -> Iterator[object]:
    env = os.environ | {"CRM_TUI_HOME": str(tmp_path / "home")}
    options = ("--org", str(small_org_path), "--db", str(audit_db), "--study", "audit")
    running = serve(*options, folder=tmp_path, env=env)
    yield running
    running.stop()


def test_a_coordinator_keeps_a_gold_from_the_queue_in_the_browser(served, audit_db, tmp_path):
    code = invitation_code(audit_db, "audit", "Vera", "coordinator")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "chromium-profile",
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 800},
        )
        try:
            tab = BrowserTab(context.new_page())
            sign_in(tab, served.url, code, "Adjudicate")  # the home screen's key for Vera
            mark = tab.mark()
            tab.press("j")
            tab.wait_for_text("3 queries", since=mark)
            tab.wait_for_text("people agree on", since=mark)
            mark = tab.mark()
            tab.press("k")  # keep query 0's gold
            tab.wait_for_text("Keep the gold", since=mark)
            mark = tab.mark()
            tab.press("Enter")  # open the categories
            tab.wait_for_text("Needs information not in the org", since=mark)
            tab.press("ArrowDown")
            mark = tab.mark()
            tab.press("Enter")  # the first: wrong gold
            tab.wait_for_text("Wrong gold answer", since=mark)  # now the chosen one
            tab.press("Tab")  # to the note; the keys right behind it go there too
            mark = tab.mark()
            tab.type("checked in the org")
            tab.wait_for_text("checked in the org", since=mark)
            mark = tab.mark()
            tab.press("Enter")
            tab.wait_for_text("kept", since=mark)
        finally:
            context.close()
    with StudyService.open(audit_db, clock=FakeClock()) as service:
        vera = next(p for p in service.profiles() if p.name == "Vera")
        kept = [q for q in service.adjudication_queue(vera.id) if q.status == "kept"]
    assert [(q.idx, q.decisions[0].adjudicator, q.decisions[0].note) for q in kept] == [
        (0, "Vera", "checked in the org")
    ]
