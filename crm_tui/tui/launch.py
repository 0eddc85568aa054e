"""How the app starts, in one frozen value: which org, which study, who is at the keyboard.
The command line (or a test, or a browser tab's process) builds it once; the app reads it
and nothing else from outside (no environment variables, no loose keyword arguments)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from crm_tui.paths import StudyLocation, study_location
from crm_tui.tui.browser.settings import BrowserSettings

if TYPE_CHECKING:
    from crm_tui.org.backends.interface import Backend
    from crm_tui.study.service import Clock


@dataclass(frozen=True)
class Launch:
    """Everything the app is started with. `org_path` or `backend` names the org; with a
    `study`, the study app opens on study `study_name` (None: the newest made for the org).
    `require_code`: an invitation code first, showing nothing of the org before it.
    `code_source`: who tries codes, for the lock-out after wrong ones (a server sets one
    per browser tab; else every try from this terminal counts together)."""

    org_path: Path | None = None
    backend: Backend | None = None
    study: StudyLocation | None = None
    study_name: str | None = None
    require_code: bool = False
    code_source: str = "terminal"
    browser: BrowserSettings | None = None
    clock: Callable[[], float] = time.monotonic
    study_clock: Clock | None = None

    def __post_init__(self) -> None:
        # Built from text (a command line, a test): a URL stays text, a file becomes a Path.
        if self.study is not None:
            object.__setattr__(self, "study", study_location(self.study))
        if self.org_path is not None:
            object.__setattr__(self, "org_path", Path(self.org_path))
