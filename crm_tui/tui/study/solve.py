"""The solve screen: persona, query, required context, a ticking timer, the answer entry,
and one key each for the browser, domain details, flag, pause, "None", skip and submit.

Every event goes to the study service as it happens; the timer shows the service's
active time, counted on from the last event on the service's clock between events.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.notifications import SeverityLevel
from textual.widgets import Input, Markdown, Static

from crm_tui.study.service import (
    HEARTBEAT_S,
    AttemptStatus,
    AttemptView,
    Profile,
    StudyService,
    SubmitResult,
)
from crm_tui.tasks.families import PERSONAS
from crm_tui.tasks.pro_families import family_for
from crm_tui.tasks.pro_scoring import REFUSED_PREFIX
from crm_tui.tasks.scoring import RIGHT_FROM
from crm_tui.tui.notices import notify_error
from crm_tui.tui.study.answer import AnswerEntry
from crm_tui.tui.study.dialogs import (
    DetailsDialog,
    FlagDialog,
    FlagInput,
    PauseDialog,
    RefuseDialog,
    SkipDialog,
    SubmitDialog,
)
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to

# Warnings before the time limit ends: (time left, how it is said).
LIMIT_WARNINGS = ((60_000, "1 minute"), (10_000, "10 seconds"))
EDIT_SETTLED_MS = 2_000  # typing paused this long: the answer's text is logged as an edit


def clock_text(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02}:{rest % 60:02}" if hours else f"{rest // 60:02}:{rest % 60:02}"


def training_feedback(result: SubmitResult) -> str:
    """What the feedback after a practice (or training) answer adds; "" where there is none.
    A late answer is kept but never right, and the feedback says why."""
    if result.correct is None:
        return ""
    if result.status == AttemptStatus.EXPIRED:
        return " Not counted as right: it came after the time limit."
    text = " Correct!" if result.correct else " Not correct."
    if result.score is not None and 0 < result.score < 1:  # knowledge QA's F1
        text += f" (F1 {result.score:.2f}; right from {RIGHT_FROM})"
    return text


def query_place(view: AttemptView) -> str:
    """Where the query sits: among the practice queries of the qualification, or the rest."""
    kind = "Practice query" if view.practice else "Query"
    return f"{kind} {view.position} of {view.queue_length}"


class SolveScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Solve a query"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Submit", id="submit", priority=True),
        Binding("f2,ctrl+o", "browse", "Browser", id="browser"),
        Binding("f3", "details", "Details", id="details"),
        Binding("f4", "flag", "Flag query", id="flag"),
        Binding("f5", "pause", "Pause", id="pause"),
        Binding("f6", "answer_none", "Answer None", id="answer-none"),
        Binding("f7", "skip", "Skip", id="skip"),
        Binding(
            "ctrl+r",
            "refuse",
            "Refuse",
            id="refuse",
            tooltip="Refuse the request, with a reason (what must not be disclosed)",
        ),
        Binding("ctrl+g", "guidelines", "Guidelines", id="guidelines"),
        Binding(
            "escape",
            "leave",
            "Home",
            id="leave",
            tooltip="Back to the home screen; the query stays open (r resumes it)",
        ),
    ]

    def __init__(self, service: StudyService, profile: Profile, view: AttemptView) -> None:
        super().__init__(service, profile)
        self.view = view
        self.family = family_for(view.item.task)
        self.answer_type = view.item.answer_type or self.family.answer_type
        self.finished = False
        self.saved_draft = view.draft_answer  # the answer as last written to the study
        # The answer as edited, for the replay: a text is logged once typing has paused
        # on it for EDIT_SETTLED_MS (not each keystroke), or when the answer is submitted.
        self.unlogged_edit: str | None = None
        self.last_edit_ms = 0
        self.taken_answer: str | None = None  # logged as answer_used: no edit of its own
        self.base_active_ms = view.active_ms
        self.base_monotonic_ms = service.monotonic_ms()
        self.last_write_ms = self.base_monotonic_ms
        self.running = True
        # From the moment the submit is queued on the study's writer: writes of this
        # attempt after it (a draft, an event) would be refused as already submitted.
        self.submitting = False
        self.refusal: str | None = None  # a refusal on its way to be submitted as the answer
        self.remaining_at_base: int | None = view.time_limit_ms
        self.warned: set[int] = set()  # the LIMIT_WARNINGS given

    # ----------------------------------------------------------------- layout
    def compose_body(self) -> ComposeResult:
        item = self.view.item
        persona = PERSONAS.get(item.persona or "", item.persona) or self.family.persona_label
        with Horizontal(id="solve-head"):
            yield Static(
                Text.assemble(
                    (query_place(self.view), "bold"),
                    f" · {self.family.abbrev} · you are a ",
                    (persona, "bold"),
                ),
                id="solve-where",
            )
            yield Static("", id="timer")
        with VerticalScroll(id="solve-body"):
            yield Static("Query", classes="section-title")
            # Queries and policies are Markdown ("## Given Case", "- Case Id ..."), as CRMArena
            # writes them for agents; shown rendered, not as raw marks.
            yield Markdown(item.query, id="query-text")
            yield Static("Context", classes="section-title")
            yield Markdown(item.required_context or "—", id="required-context")
            if item.optional_context:
                yield Static("Domain details: press F3.", classes="hint")
        yield AnswerEntry(self.answer_type, self.family.answer_object, id="answer")

    def on_mount(self) -> None:
        self.title = f"Solve · {self.family.abbrev}"
        self.sub_title = self.person.name
        self.query_one(AnswerEntry).focus_entry()
        self._show_timer()
        self.set_interval(1, self._tick)
        if self.view.draft_answer:
            self.query_one(AnswerEntry).restore(self.view.draft_answer)
        if self.view.resumed:
            self.notify(
                f"Resumed with {clock_text(self.view.active_ms)} of active time.",
                title="Welcome back",
            )

    # ----------------------------------------------------------------- timer
    def active_ms(self) -> int:
        """The service's active time at the last event, counted on while running."""
        extra = self.service.monotonic_ms() - self.base_monotonic_ms
        return self.base_active_ms + (max(0, extra) if self.running else 0)

    def _show_timer(self) -> None:
        active = self.active_ms()
        text = Text.assemble(("⏱ ", ""), (clock_text(active), "bold"), " active")
        if self.view.time_limit_ms is not None:
            left = max(0, self.view.time_limit_ms - active)
            text.append(f" · {clock_text(left)} left", style="bold" if left < 60_000 else "")
        if not self.running:
            text.append(" · stopped", style="dim")
        self.query_one("#timer", Static).update(text)

    async def _tick(self) -> None:
        if self.finished or self.submitting:
            return
        if self._edit_settled():
            await self._save_draft(self.unlogged_edit or "", log=True)
        self._show_timer()
        now = self.service.monotonic_ms()
        if self.running and now - self.last_write_ms >= HEARTBEAT_S * 1000:
            await self._heartbeat()
        limit = self.view.time_limit_ms
        if limit is None:
            return
        self._warn_before_the_limit(limit - self.active_ms())
        if self.active_ms() >= limit:
            if await self.study(self.service.expire_if_over_limit, self.view.attempt_id):
                self._leave(
                    "The time for this query is up; it is closed. What you typed is kept "
                    "with it for the study's coordinators (it is not scored).",
                    severity="warning",
                )

    async def _heartbeat(self) -> None:
        """Still here: written every HEARTBEAT_S of running time, so a kill loses at most
        that much active time. No read back after it: a heartbeat changes no state."""
        if self.finished or self.submitting:
            return
        try:
            await self.service.run(self.service.record_event, self.view.attempt_id, "heartbeat")
        except Exception as error:  # e.g. closed by another window
            notify_error(self, error, title="Not recorded")
            return
        self.last_write_ms = self.service.monotonic_ms()

    def _warn_before_the_limit(self, left_ms: int) -> None:
        """Once per warning, the last one crossed (a query resumed with 30 s left hears
        of the minute, not of every warning at once)."""
        crossed = [ms for ms, _ in LIMIT_WARNINGS if left_ms <= ms and ms not in self.warned]
        if not crossed or left_ms <= 0:
            return
        self.warned.update(ms for ms, _ in LIMIT_WARNINGS if ms >= min(crossed))
        said = dict(LIMIT_WARNINGS)[min(crossed)]
        self.notify(
            f"Less than {said} left on this query. Submit (Ctrl+S) before the time is up; "
            "what you typed then is kept, but it does not count as an answer.",
            title="Time limit",
            severity="warning",
            timeout=10,
        )

    async def _resync(self) -> None:
        """Read the active time and whether it is running back from the service."""
        now = await self.study(self.service.elapsed, self.view.attempt_id)
        if now is not None:
            self.base_active_ms, self.running = now.active_ms, now.running
            self.base_monotonic_ms = self.service.monotonic_ms()
        self._show_timer()

    # ----------------------------------------------------------------- events
    async def event(self, kind: str, payload: dict[str, Any] | None = None) -> None:
        """Record an event of this attempt now (pause, focus, record viewed, ...)."""
        if self.finished or self.submitting:
            return
        try:
            await self.service.run(self.service.record_event, self.view.attempt_id, kind, payload)
        except Exception as error:  # e.g. closed by another window
            notify_error(self, error, title="Not recorded")
            return
        self.last_write_ms = self.service.monotonic_ms()
        await self._resync()

    async def on_answer_entry_edited(self, message: AnswerEntry.Edited) -> None:
        """Keep every change to the answer at once: nothing typed is lost in a crash."""
        if self.finished or self.submitting or message.answer == self.saved_draft:
            return  # (while submitting, the answer on screen is the one being submitted)
        # typing again after a pause (before the tick saw it): the paused-on text is logged
        settled = self.unlogged_edit if self._edit_settled() else None
        taken = message.answer == self.taken_answer
        self.unlogged_edit = None if taken else message.answer
        self.last_edit_ms = self.service.monotonic_ms()
        await self._save_draft(message.answer, settled)

    def _edit_settled(self) -> bool:
        quiet = self.service.monotonic_ms() - self.last_edit_ms
        return self.unlogged_edit is not None and quiet >= EDIT_SETTLED_MS

    async def _save_draft(self, answer: str, edited: str | None = None, log: bool = False) -> None:
        """The draft written; `edited` (or with `log`, `answer`) logged as an edit."""
        if self.finished or self.submitting:
            return
        if log:
            edited, self.unlogged_edit = answer, None
        self.saved_draft = answer
        try:
            await self.service.run(self.service.save_draft, self.view.attempt_id, answer, edited)
        except Exception as error:  # e.g. closed by another window, or the server is down
            self.saved_draft = None  # the text stays on screen; the next change saves it all
            notify_error(self, error, title="Not saved")

    async def focus_changed(self, focused: bool) -> None:
        await self.event("focus_regained" if focused else "focus_lost")

    async def use_as_answer(self, record_id: str, object_name: str) -> bool:
        """Take a record chosen in the browser; False (and a message) if it does not fit."""
        entry = self.query_one(AnswerEntry)
        if self.answer_type != "record_id":
            self.notify("This query does not take a record as its answer.", severity="error")
            return False
        problem = entry.wrong_record(record_id)
        if problem:
            self.notify(problem, title="Not this one", severity="error")
            return False
        self.taken_answer = record_id
        entry.fill(record_id)
        await self.event("answer_used", {"record_id": record_id, "object": object_name})
        # Described when the study opened (StudyApp), so the backend has it cached.
        label = self.app.backend.describe(object_name).label  # type: ignore[attr-defined]
        self.notify(
            f"{label} {record_id} is your answer; Ctrl+S submits.",
            title="Answer taken",
        )
        return True

    async def use_value_as_answer(self, value: str) -> bool:
        """Take a value chosen in the browser (a report group's state, month or name);
        False (and a message) if it does not fit."""
        entry = self.query_one(AnswerEntry)
        if self.answer_type == "record_id":
            self.notify(
                "This query takes a record: group the report by a lookup (e.g. OwnerId) "
                "or open the record, then u.",
                severity="error",
            )
            return False
        self.taken_answer = value
        if not entry.take(value):
            self.notify(f"{value!r} is not a {self.answer_type}.", severity="error")
            return False
        await self.event("answer_used", {"value": value})
        self.notify(f"{value} is your answer; Ctrl+S submits.", title="Answer taken")
        return True

    # ----------------------------------------------------------------- actions
    def action_browse(self) -> None:
        self.app.action_objects()  # type: ignore[attr-defined]

    def action_details(self) -> None:
        self.app.push_screen(DetailsDialog(self.view.item.optional_context))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "guidelines":  # offered only where the study has some for this family
            return self.service.guidelines(self.family.name) is not None
        return True

    def action_guidelines(self) -> None:
        from crm_tui.tui.study.quality_screens import GuidelinesScreen

        text = self.service.guidelines(self.family.name)
        if text is not None:  # the guidelines hold no answers: any time, the clock runs on
            self.app.push_screen(GuidelinesScreen(self.service, self.person, text))

    async def action_pause(self) -> None:
        await self.event("paused")
        await self.app.push_screen(PauseDialog(), self._resumed)

    async def _resumed(self, _result: object) -> None:
        await self.event("resumed")

    def action_answer_none(self) -> None:
        self.query_one(AnswerEntry).set_none()

    def action_flag(self) -> None:
        self.app.push_screen(FlagDialog(self.service.study.protocol.taxonomy), self._flagged)

    async def _flagged(self, flag: FlagInput | None) -> None:
        if flag is None:
            return
        done = await self.study(
            self.service.flag_item,
            self.person.id,
            self.view.item.item_id,
            flag.category,
            flag.comment,
            flag.suggested_answer,
        )
        if done is not None:
            self.notify(
                "Thank you: the query is flagged. Carry on, or skip it (F7).", title="Flagged"
            )

    def action_submit(self) -> None:
        entry = self.query_one(AnswerEntry)
        problem = entry.problem()
        if problem:
            self.notify(problem, title="Cannot submit yet", severity="error")
            return
        self.app.push_screen(SubmitDialog(entry.answer), self._confirmed)

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_refuse(self) -> None:
        self.app.push_screen(RefuseDialog(), self._refusing)

    async def _refusing(self, reason: str | None) -> None:
        """The refusal is the answer (`REFUSED: reason`), confirmed as any answer is; the
        answer typed so far stays in its entry (and its draft) if the person goes back."""
        if reason is None:
            return
        self.refusal = f"{REFUSED_PREFIX} {reason}"
        self.app.push_screen(SubmitDialog(self.refusal), self._confirmed)

    async def _confirmed(self, confidence: int | None) -> None:
        refusal, self.refusal = self.refusal, None
        if confidence is None:
            return
        if self.finished or self.submitting:
            return
        if self.unlogged_edit is not None:  # the last text typed, logged before the submit
            await self._save_draft(self.unlogged_edit, log=True)
        entry = self.query_one(AnswerEntry)
        self.submitting = True  # set as the submit is queued: nothing of this attempt after it
        result = await self.study(
            self.service.submit_answer,
            self.view.attempt_id,
            refusal or entry.answer,
            confidence=confidence,
        )
        if result is None:  # not submitted (the notice says why): the draft is kept as shown
            self.submitting = False
            shown = entry.answer
            if shown is not None and shown != self.saved_draft:
                await self._save_draft(shown)
            return
        message = f"Submitted after {clock_text(result.active_ms)} of active time."
        self._leave(message + training_feedback(result))

    def action_skip(self) -> None:
        self.app.push_screen(SkipDialog(), self._skip_confirmed)

    async def _skip_confirmed(self, confirmed: bool | None) -> None:
        if not confirmed:
            return
        try:
            await self.service.run(self.service.skip, self.view.attempt_id)
        except Exception as error:
            notify_error(self, error, title="Cannot skip")
            return
        self._leave("Skipped.")

    async def action_leave(self) -> None:
        await self.event("closed")
        self._leave("The query stays open: press r on the home screen to resume it.")

    def _leave(self, message: str, severity: SeverityLevel = "information") -> None:
        self.finished = True
        self.notify(message, severity=severity)
        self.dismiss()
