"""The study app: the record browser with the study loop on top.

It opens its study through the study service (off the UI loop) and starts on the profile
screen, shown before the study has opened where a first look at the file can tell what it
lists (`study.first_look`); else it waits on the opening screen, which shows nothing of the
org until the study says whether a code is needed. Screens not on show yet are imported
when pushed: the app's start loads neither the study store nor the results' statistics.
To the browser it adds what only a study has: F2 back to the study, `u` on a record page
to take the record as the answer, F9 results for coordinators, and the places visited,
the queries run and the terminal's focus written as study events.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import CSSPathType
from textual.binding import Binding

from crm_tui import paths
from crm_tui.org.backends.interface import Backend
from crm_tui.paths import StudyLocation
from crm_tui.study.first_look import first_look
from crm_tui.study.work.modes import Mode
from crm_tui.tui.browser import browser_app, report_files
from crm_tui.tui.browser.browser_app import CrmApp
from crm_tui.tui.browser.history import (
    ListLocation,
    Location,
    RecordLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.launch import Launch
from crm_tui.tui.messages import QueryRun, ReportRun, RowsShown
from crm_tui.tui.notices import explain, notify_error
from crm_tui.tui.study.profile import ProfileScreen
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

if TYPE_CHECKING:  # loaded with the study, off the UI loop, or when their screen opens
    from crm_tui.study.service import Profile, StudyService
    from crm_tui.tui.study.solve import SolveScreen

SOLVE_MODULE = "crm_tui.tui.study.solve"  # imported with the first solve screen


def browsing_events(place: Location, before: Location | None) -> list[tuple[str, dict[str, Any]]]:
    """The study events a visit to `place` stands for: leaving a search ran it, and the
    record opened from its results is viewed too (the process report reads both)."""
    recorded: list[tuple[str, dict[str, Any]]] = []
    if isinstance(before, SearchLocation) and before.text.strip():
        recorded.append(("search_run", {"text": before.text}))
    match place:
        case RecordLocation(record_id=record_id):
            recorded.append(("record_viewed", {"record_id": record_id}))
        case ListLocation(object_name=name, filters=filters) if filters:
            filter_set = {"object": name, "filters": [f.describe() for f in filters]}
            recorded.append(("filter_set", filter_set))
    return recorded


# The browser's own app keys: hidden and off on study screens.
BROWSER_ONLY = ("back", "forward", "objects", "report", "saved_reports")
# What a session that needs a code cannot do before a code has opened a profile.
BEFORE_THE_CODE = (
    *BROWSER_ONLY,
    "search",
    "soql_console",
    "results",
    "adjudicate",
    "quality",
    "leave_browser",
)


class StudyApp(CrmApp):
    """The browser of `CrmApp` with a study's screens on top of it."""

    # The browser's shared styles, and those several study screens share.
    CSS_PATH: ClassVar[CSSPathType | None] = [
        *css_next_to(browser_app.__file__),
        *css_next_to(__file__),
    ]
    # F2 "Back to study" is a key of every browser screen (`BrowserScreen`), listed first.
    BINDINGS = [
        Binding("f9", "results", "Results (coordinators)", id="results", show=False),
        Binding("f10", "live", "Live progress (coordinators)", id="live", show=False),
        Binding("f11", "adjudicate", "Adjudication queue (coordinators, auditors)", show=False),
    ]
    SCREEN_COMMANDS = CrmApp.SCREEN_COMMANDS + (
        ("Results", "results", "Humans next to agents, realism, audit (f9, coordinators)"),
        (
            "Process and replay",
            "process",
            "How humans and agents solve; replay an attempt beside agents (coordinators)",
        ),
        (
            "Adjudication queue",
            "adjudicate",
            "Flagged and disputed queries: keep, correct or drop the gold (f11, coordinators, auditors)",
        ),
        (
            "Live progress",
            "live",
            "Who is at work, progress, stale queries, reassign (f10, coordinators)",
        ),
        (
            "Quality control",
            "quality",
            "Allow another qualification try; exclude or count a person again (coordinators)",
        ),
    )

    def __init__(self, backend: Backend, launch: Launch) -> None:
        if launch.study is None:
            raise ValueError("the study app needs a study location")
        super().__init__(backend, clock=launch.clock, settings=launch.browser)
        self.study_path: StudyLocation = launch.study
        self.study_clock = launch.study_clock
        self.study_name = launch.study_name  # None: the newest study made for this org
        self.service: StudyService | None = None
        self.study_opening = False  # its worker runs: "no study" would not be true yet
        # The opening screen is up (no first look): nothing of the org until the study
        # says whether a code is needed.
        self.awaiting_study = False
        # A code first: asked for (--require-code, as `crm-tui web` runs each browser
        # session), or the study file has invitations (see `_study_opened`).
        self.codes_required = launch.require_code
        # Who tries codes, for the lock-out after wrong ones.
        self.code_source = launch.code_source

    def on_mount(self) -> None:
        self.call_later(self._open_study)  # after CrmApp.on_mount has opened the browser

    def _open_study(self) -> None:
        path, name, clock = self.study_path, self.study_name, self.study_clock
        org = self.backend.fingerprint  # only a study of this org: its Ids belong to it
        required = self.codes_required
        # The profile screen at once, where a first look at the file tells what it lists;
        # else (a code first, a server, no study) the first screen waits for the study.
        looked = None if required else first_look(path, name, org)
        early = None if looked is None else ProfileScreen(first_look=looked)
        if early is not None:
            self.push_screen(early)
        else:  # not the org's object list meanwhile: a code may be needed to see it
            from crm_tui.tui.study.opening import StudyOpeningScreen

            self.awaiting_study = True
            self.push_screen(StudyOpeningScreen())

        def open_service() -> StudyService:
            from crm_tui.study.service import StudyService  # SQLAlchemy: off the UI loop

            service = StudyService.open(
                path, name=name, org_fingerprint=org, clock=clock, person_session=True
            )
            service.codes_required(required)  # also true when the file has invitations
            return service

        def start_opening() -> None:
            fetch_then_show(
                self,
                open_service,
                lambda service: self._study_opened(service, early),
                group="study",
                failed=lambda error: self._no_study(error, early),
            )

        self.study_opening = True
        if early is None:
            start_opening()
        else:  # once the screen is painted: the worker's imports would hold the GIL before
            self.call_after_refresh(start_opening)

    def _waiting_screen(self, early: ProfileScreen | None) -> bool:
        """Whether the screen on show is where the app waited for its study (the first
        look's profile screen, or the opening screen): the study's first screen takes
        its place."""
        from crm_tui.tui.study.opening import StudyOpeningScreen

        return self.screen is early or isinstance(self.screen, StudyOpeningScreen)

    def _no_study(self, error: Exception, early: ProfileScreen | None = None) -> None:
        self.study_opening = self.awaiting_study = False
        if early is not None:  # the first look was wrong after all
            early.study_failed()
        waiting = self._waiting_screen(early)
        if self.codes_required:  # nothing to see without a code, not even the org
            from crm_tui.tui.study.invitation_code import NoStudyScreen

            stop = NoStudyScreen(explain(self, error))
            if waiting:
                self.switch_screen(stop)
            else:
                self.push_screen(stop)
            return
        if waiting:
            self.pop_screen()  # to the org's object list: browse it meanwhile
        notify_error(
            self, error, title="No study", severity="warning", note="Meanwhile, browse the org."
        )

    async def _study_opened(self, service: StudyService, early: ProfileScreen | None) -> None:
        from crm_tui.tui.study.invitation_code import InvitationCodeScreen

        self.service, self.study_opening = service, False
        self.codes_required = await service.run(service.codes_required)
        self.awaiting_study = False
        if early is not None and not self.codes_required:
            await early.study_opened(service)
        else:
            first = InvitationCodeScreen(service) if self.codes_required else ProfileScreen(service)
            if early is not None:  # invited since the first look: its list opens nothing
                early.study_failed()
            if self._waiting_screen(early):
                await self.switch_screen(first)
            else:
                await self.push_screen(first)  # mounted before the worker ends
        # The answer field and "use as my answer" read object labels while a person types;
        # describing every object now, in a worker, keeps those reads off a live org.
        backend = self.backend
        fetch_then_show(
            self,
            lambda: [backend.describe(info.name) for info in backend.list_objects()],
            lambda _described: None,
            group="describe",
            failed=lambda _error: None,  # each screen says so itself if the org is out of reach
        )

    def on_unmount(self) -> None:
        if self.service is not None:
            self.service.close()

    async def wait_for_background_writes(self) -> None:
        if self.service is not None:
            await asyncio.wrap_future(self.service.flush())

    # ----------------------------------------------------------------- routing
    def solving(self) -> SolveScreen | None:
        if SOLVE_MODULE not in sys.modules:  # no solve screen was ever made: none to find
            return None
        from crm_tui.tui.study.solve import SolveScreen

        return next(
            (
                s
                for s in reversed(self.screen_stack)
                if isinstance(s, SolveScreen) and not s.finished
            ),
            None,
        )

    def report_today(self) -> tuple[date, str] | None:
        """While a query is solved: the day it is set on (its "Today's date")."""
        solve = self.solving()
        today = solve.view.item.today if solve is not None else None
        return (today, "the query's date") if today is not None else None

    def working_profile(self) -> Profile | None:
        """Who is working: the profile of the topmost study screen (None while back on
        the profile screen, which is where it is chosen)."""
        screen = next((s for s in reversed(self.screen_stack) if isinstance(s, StudyScreen)), None)
        return None if screen is None else screen.profile

    async def _record(self, kind: str, payload: dict[str, Any] | None = None) -> None:
        """An attempt event while solving, else a study event for the person working."""
        solve = self.solving()
        profile = self.working_profile()
        if solve is not None:
            await solve.event(kind, payload)
        elif self.service is not None and profile is not None:
            try:
                await self.service.run(self.service.record_study_event, profile.id, kind, payload)
            except Exception as error:
                notify_error(self, error, title="Not recorded")

    def _before_the_code(self) -> bool:
        """A session that needs a code, or may (its study still opening on the opening
        screen: invitations are known once it is open), and no code has opened a
        profile on it yet."""
        return (self.codes_required or self.awaiting_study) and self.working_profile() is None

    def navigate(self, place: Location) -> None:
        if self._before_the_code():  # the palette navigates without asking check_action
            return
        recorded = browsing_events(place, self.history.current)
        super().navigate(place)
        for kind, payload in recorded:
            self.call_later(self._record, kind, payload)

    async def on_query_run(self, message: QueryRun) -> None:
        await self._record(
            "soql_run",
            {
                "query": message.text,
                "rows": message.rows,
                "error": message.error,
                "shown": message.shown,
            },
        )

    async def on_rows_shown(self, message: RowsShown) -> None:
        payload: dict[str, Any] = {"via": message.via, "ids": message.ids}
        if message.object_name:
            payload["object"] = message.object_name
        if message.text:
            payload["text"] = message.text
        await self._record("rows_shown", payload)

    async def on_report_run(self, message: ReportRun) -> None:
        await self._record(
            "report_run",
            {
                "definition": message.definition,
                "rows": message.rows,
                "groups": message.groups,
                "error": message.error,
                "shown": message.shown,
                "ms": message.ms,
            },
        )

    def soql_history_file(self) -> Path | None:
        """The SOQL console's history: one per profile; none kept (this session only)
        while a study is open and nobody is working, so nobody reads another's queries."""
        profile = self.working_profile()
        if profile is not None:
            folder = paths.data_home() / "profiles"
            mine = folder / self._own_folder(profile) / "soql_history.jsonl"
            return _carried_over(folder / f"profile-{profile.id}" / "soql_history.jsonl", mine)
        if self.service is not None or self.codes_required:
            return None
        return super().soql_history_file()

    def reports_folder(self) -> Path:
        """Saved reports per person: `reports/<store>-profile-<id>/` in the data folder."""
        profile = self.working_profile()
        if profile is None:
            return super().reports_folder()
        home = report_files.reports_home()
        return _carried_over(home / f"profile-{profile.id}", home / self._own_folder(profile))

    def _own_folder(self, profile: Profile) -> str:
        """A person's own files: by study store and profile (ids restart in every store)."""
        return f"{paths.store_key(self.study_path)}-profile-{profile.id}"

    async def on_app_blur(self, event: events.AppBlur) -> None:
        await self._record("focus_lost")

    async def on_app_focus(self, event: events.AppFocus) -> None:
        await self._record("focus_regained")

    # ----------------------------------------------------------------- keys added to the browser
    async def action_use_as_answer(self) -> None:
        """`u` on a record page (the record on show) or a report (the group's value or
        record under the cursor): it becomes the open query's answer."""
        screen = self.screen
        candidate = screen.answer_candidate() if isinstance(screen, BrowserScreen) else None
        if candidate is None:
            return
        solve = self.solving()
        if solve is None:
            self.notify(
                "No query is open: start one on the study home screen (s).", severity="warning"
            )
            return
        if candidate.record_id is not None:
            object_name = candidate.object_name
            if object_name is None:
                obj = self.backend.object_for_id(candidate.record_id)
                object_name = obj.name if obj is not None else ""
            taken = await solve.use_as_answer(candidate.record_id, object_name)
        else:
            taken = await solve.use_value_as_answer(candidate.value)
        if taken:
            self.action_leave_browser()

    def _study_below(self) -> bool:
        return isinstance(self.screen, BrowserScreen) and any(
            isinstance(s, StudyScreen) for s in self.screen_stack
        )

    def action_leave_browser(self) -> None:
        """F2: back to the study screen the browser was opened from."""
        while self._study_below():
            self.pop_screen()

    def action_process(self) -> None:
        """The palette's "Process and replay": the results on their Process tab."""
        self.action_results(start_tab="process")

    def action_results(self, start_tab: str | None = None) -> None:
        """F9: only for a coordinator or auditor at work (whom only a code brings here);
        the study service checks again before it builds anything."""
        profile = self.working_profile()
        if self.study_opening:
            self.notify("The study is still opening; press F9 again in a moment.", title="Results")
            return
        if self.service is None:
            self.notify(
                "No study is open here; `crm-tui results` shows any study of the file.",
                title="Results",
            )
            return
        from crm_tui.study.service import RESULTS_ARE_FOR_COORDINATORS
        from crm_tui.tui.study.results import ResultsScreen

        if profile is None or not profile.sees_gold:
            self.notify(RESULTS_ARE_FOR_COORDINATORS, title="Results", severity="warning")
        elif not isinstance(self.screen, ResultsScreen):
            self.push_screen(ResultsScreen(self.service, profile, start_tab))

    def _coordinator_at_work(self) -> Profile | None:
        profile = self.working_profile()
        return profile if profile is not None and profile.mode == Mode.COORDINATOR else None

    def action_live(self) -> None:
        """F10: live progress, for a coordinator at work (as F9; the service checks too)."""
        from crm_tui.study.service import LIVE_IS_FOR_COORDINATORS
        from crm_tui.tui.study.live_progress import LiveProgressScreen

        profile = self._coordinator_at_work()
        if self.service is None or profile is None:
            self.notify(LIVE_IS_FOR_COORDINATORS, title="Live progress", severity="warning")
        elif not isinstance(self.screen, LiveProgressScreen):
            self.push_screen(LiveProgressScreen(self.service, profile))

    def action_adjudicate(self) -> None:
        """F11: the adjudication queue, for a coordinator or auditor at work (the service
        checks again)."""
        from crm_tui.tui.study.adjudication_screen import AdjudicationScreen

        profile = self.working_profile()
        if self.service is None or profile is None or not profile.sees_gold:
            self.notify(
                "The adjudication queue is for coordinators and auditors.",
                title="Adjudication",
                severity="warning",
            )
        elif not isinstance(self.screen, AdjudicationScreen):
            self.push_screen(AdjudicationScreen(self.service, profile))

    def _quality_controller(self) -> Profile | None:
        """A coordinator at work on a study with quality controls."""
        profile = self._coordinator_at_work()
        if self.service is None or self.service.study.protocol.quality is None:
            return None
        return profile

    def action_quality(self) -> None:
        """The palette's "Quality control": retries and exclusions, for a coordinator at
        work on a study with quality controls (the service checks again)."""
        from crm_tui.tui.study.people_quality import PeopleQualityScreen

        profile = self._quality_controller()
        if profile is None:
            self.notify(
                "Quality control is for coordinators of a study with quality controls.",
                title="Quality control",
                severity="warning",
            )
        elif self.service is not None and not isinstance(self.screen, PeopleQualityScreen):
            self.push_screen(PeopleQualityScreen(self.service, profile))

    @property
    def palette_offers_org(self) -> bool:
        return not self._before_the_code()

    def palette_offers(self, action: str) -> bool:
        """Before a code nothing but Quit; Results and Process only to whom they would
        open (F9 still tells anyone else why not)."""
        if self._before_the_code():
            return False
        if action in ("results", "process", "adjudicate") and self.service is not None:
            profile = self.working_profile()
            return profile is not None and profile.sees_gold
        return super().palette_offers(action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "results" and self.study_opening:
            return True  # F9 says the study is still opening, and shows nothing
        if action in BEFORE_THE_CODE and self._before_the_code():
            return False
        if action == "live":
            return self._coordinator_at_work() is not None
        if action == "quality":
            return self._quality_controller() is not None
        if action == "leave_browser":
            return self._study_below()
        if action in BROWSER_ONLY and isinstance(self.screen, StudyScreen):
            # On a study screen these single keys would open the browser on top of it
            # (typing "Looks good" with no field focused jumped to Objects); each study
            # screen has its own key for the browser, and the footer keeps room for them.
            return False
        return super().check_action(action, parameters)


def _carried_over(old: Path, new: Path) -> Path:
    """`new`, started from a copy of `old` (where a person's files were kept by profile id
    alone) the first time it is asked for, so nothing saved before is lost."""
    if old.exists() and not new.exists():
        new.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if old.is_dir():
            shutil.copytree(old, new)
        else:
            shutil.copy2(old, new)
    return new
