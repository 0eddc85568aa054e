"""The app factory the CLI and the tests use (Posting's pattern): it decides which app to
build, the record browser alone or the study app with the browser inside."""

from __future__ import annotations

from crm_tui.org.backends.local import LocalBackend
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.launch import Launch

__all__ = ["Launch", "create_app"]


def create_app(launch: Launch) -> CrmApp:
    """The app on a local org file (or on `launch.backend`, e.g. a Salesforce org). With a
    study, the study app: its screens come first (see `Launch`)."""
    backend = launch.backend
    if backend is None:
        if launch.org_path is None:
            raise ValueError("create_app needs an org file or a backend")
        backend = LocalBackend(launch.org_path)
    if launch.study is None:
        return CrmApp(backend, clock=launch.clock, settings=launch.browser)
    from crm_tui.tui.study.study_app import StudyApp  # the study layer: only when asked

    return StudyApp(backend, launch)
