"""The app with the study loop on top of the record browser.

It opens the study file, starts on the profile screen, and routes to the open solve
screen what only the app receives: "use as my answer" from a record page, the terminal's
focus lost/regained, and the places visited in the browser (as study events).
"""

from __future__ import annotations

from pathlib import Path

from textual import events

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Backend
from crm_tui.study.clock import Clock
from crm_tui.study.db import StudyStore
from crm_tui.study.events import record_study_event
from crm_tui.study.studies import list_studies, study_fits_org
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.browser.history import (
    ListLocation,
    Location,
    RecordLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.messages import QueryRun, UseAsAnswer
from crm_tui.tui.study.context import StudyContext
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.solve import SolveScreen
from crm_tui.tui.study.study_screen import StudyScreen


def browsing_event(place: Location, before: Location | None) -> tuple[str, dict] | None:
    """The study event a visit to `place` stands for (None: nothing worth recording)."""
    if isinstance(before, SearchLocation) and before.text.strip():
        return "search_run", {"text": before.text}
    match place:
        case RecordLocation(record_id=record_id):
            return "record_viewed", {"record_id": record_id}
        case ListLocation(object_name=name, filters=filters) if filters:
            return "filter_set", {"object": name, "filters": [f.describe() for f in filters]}
    return None


# The browser's own app keys: hidden and off on study screens.
BROWSER_ONLY = ("back", "forward", "objects")


class StudyApp(CrmApp):
    # The browser's styles (next to CrmApp's module) and the study screens' own.
    CSS_PATH = [Path(__file__).parent.parent / "browser" / CrmApp.CSS_PATH, "study.tcss"]
    # F2 "Back to study" is a key of every browser screen (`BrowserScreen`), listed first.

    def __init__(
        self,
        backend: Backend,
        study_path: Path,
        study_clock: Clock | None = None,
        study_name: str | None = None,
        **kwargs,
    ) -> None:
        super().__init__(backend, study_path=study_path, **kwargs)
        self.study_clock = study_clock
        self.study_name = study_name  # None: the latest study made for this org
        self.study: StudyContext | None = None

    def on_mount(self) -> None:
        self.call_later(self._start_study)  # after CrmApp.on_mount has opened the browser

    def _start_study(self) -> None:
        try:
            store = StudyStore.open(self.study_path, self.study_clock)
        except CrmTuiError as exc:
            self.notify(str(exc), title="No study", severity="error")
            return
        # Only a study made for this very org: its queries' Ids and golds belong to it.
        studies = [
            s
            for s in list_studies(store)
            if study_fits_org(s, self.backend.fingerprint) and self.study_name in (None, s.name)
        ]
        if not studies:
            store.close()
            which = f"no study {self.study_name!r}" if self.study_name else "no study"
            self.notify(
                f"{self.study_path} holds {which} for this org "
                f"({self.backend.fingerprint}); create one with `crm-tui study "
                "create`. Meanwhile, browse the org.",
                title="No study",
            )
            return
        self.study = StudyContext(store, studies[-1])
        self.push_screen(ProfileScreen(self.study))

    def on_unmount(self) -> None:
        if self.study is not None:
            self.study.close()

    async def wait_for_background_writes(self) -> None:
        if self.study is not None:
            await self.study.drain()

    # ----------------------------------------------------------------- routing
    def solving(self) -> SolveScreen | None:
        return next(
            (
                s
                for s in reversed(self.screen_stack)
                if isinstance(s, SolveScreen) and not s.finished
            ),
            None,
        )

    async def _record(self, kind: str, payload: dict | None = None) -> None:
        """An attempt event while solving, else a study event for the person working."""
        solve = self.solving()
        if solve is not None:
            await solve.event(kind, payload)
        elif self.study is not None and self.study.annotator is not None:
            await self.study.call(
                record_study_event, self.study.study.id, self.study.annotator_id, kind, payload
            )

    def navigate(self, place: Location) -> None:
        recorded = browsing_event(place, self.history.current)
        super().navigate(place)
        if recorded is not None:
            self.call_later(self._record, *recorded)

    async def on_query_run(self, message: QueryRun) -> None:
        await self._record(
            "soql_run", {"query": message.text, "rows": message.rows, "error": message.error}
        )

    async def on_app_blur(self, event: events.AppBlur) -> None:
        await self._record("focus_lost")

    async def on_app_focus(self, event: events.AppFocus) -> None:
        await self._record("focus_regained")

    async def on_use_as_answer(self, message: UseAsAnswer) -> None:
        message.prevent_default()  # not CrmApp's "no study" answer as well
        solve = self.solving()
        if solve is None:
            self.notify(
                "No query is open: start one on the study home screen (s).", severity="warning"
            )
        elif await solve.use_as_answer(message.record_id, message.object_name):
            self.action_to_study()

    # ----------------------------------------------------------------- back to the study
    def _study_below(self) -> bool:
        return isinstance(self.screen, BrowserScreen) and any(
            isinstance(s, StudyScreen) for s in self.screen_stack
        )

    def action_to_study(self) -> None:
        while self._study_below():
            self.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "to_study":
            return self._study_below()
        if action in BROWSER_ONLY and isinstance(self.screen, StudyScreen):
            # On a study screen these single keys would open the browser on top of it
            # (typing "Looks good" with no field focused jumped to Objects); each study
            # screen has its own key for the browser, and the footer keeps room for them.
            return False
        return super().check_action(action, parameters)
