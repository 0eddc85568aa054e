"""The app factory the CLI and the tests use (Posting's pattern): it decides which app to
build, the record browser alone or the study app with the browser inside."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from crm_tui.org.backends.interface import Backend
from crm_tui.org.backends.local import LocalBackend
from crm_tui.paths import study_location
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.browser.settings import BrowserSettings

if TYPE_CHECKING:
    from crm_tui.study.service import Clock


def create_app(
    org_path: Path | str | None = None,
    study_path: Path | str | None = None,
    clock: Callable[[], float] = time.monotonic,
    settings: BrowserSettings | None = None,
    backend: Backend | None = None,
    study_name: str | None = None,
    study_clock: Clock | None = None,
    require_code: bool = False,
) -> CrmApp:
    """The app on a local org file (or on `backend`, e.g. a Salesforce org). With a study
    file, the study app: its screens come first, on study `study_name`, else the newest
    study made for the org. `require_code`: the study app asks for an invitation code
    first (and without a study open, shows nothing of the org)."""
    if backend is None:
        if org_path is None:
            raise ValueError("create_app needs an org file or a backend")
        backend = LocalBackend(org_path)
    if study_path is None:
        return CrmApp(backend, clock=clock, settings=settings)
    from crm_tui.tui.study.study_app import StudyApp  # the study layer: only when asked

    return StudyApp(
        backend,
        study_path=study_location(study_path),  # a URL stays text
        study_clock=study_clock,
        study_name=study_name,
        require_code=require_code,
        clock=clock,
        settings=settings,
    )
