"""Home: progress per protocol part, and one key for each next step."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from crm_tui.study.service import Mode, PartProgress, Profile, Standing, StudyService
from crm_tui.tui.study.quality_screens import (
    ConsentScreen,
    GuidelinesScreen,
    PostStudyScreen,
    standing_text,
)
from crm_tui.tui.study.solve import clock_text
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to


class HomeScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Home"
    # In the order of the protocol's parts; r shows only when a query is waiting.
    BINDINGS = [
        Binding("e", "explore", "Explore org", id="explore"),
        Binding("d", "explore_done", "Done exploring", id="explore-done"),
        Binding("r", "resume", "Resume query", id="resume"),
        Binding("s", "solve", "Next query", id="solve"),
        Binding("c", "play_customer", "Play the customer", id="play-customer"),
        Binding("t", "rate", "Rate realism", id="rate"),
        Binding("q", "post_study", "Questions", id="post-study"),
        Binding("a", "audit", "Audit", id="audit"),
        Binding("j", "adjudicate", "Adjudicate", id="adjudicate"),
        Binding("l", "live", "Live progress", id="live"),
        Binding("b", "browse", "Browse org", id="browse"),
        Binding("p", "switch_profile", "Switch profile", id="switch-profile"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.parts: list[PartProgress] = []
        self.unfinished: int | None = None
        self.exploring = False
        self.standing: Standing | None = None  # with quality controls: where the person is

    def compose_body(self) -> ComposeResult:
        yield Static("", id="home-title", classes="screen-title")
        yield DataTable(id="parts", cursor_type="row", zebra_stripes=True)
        yield Static("", id="home-next")

    async def on_mount(self) -> None:
        self.title = "Study home"
        self.sub_title = self.person.name
        table = self.query_one("#parts", DataTable)
        # 71 columns with the cell padding: the table fits an 80-column terminal
        for label, key, width in (
            ("Part", "n", 5),
            ("What", "title", 34),
            ("Done", "done", 10),
            ("Suggested time", "minutes", 14),
        ):
            table.add_column(label, key=key, width=width)
        await self.refresh_progress()

    async def on_screen_resume(self) -> None:
        if self.exploring:
            self.exploring = False
            await self.study(self.service.record_study_event, self.person.id, "explore_finished")
        if self.is_mounted:
            await self.refresh_progress()

    async def refresh_progress(self) -> None:
        self.parts = await self.study(self.service.progress, self.person.id) or []
        self.unfinished = await self.study(self.service.unfinished_attempt, self.person.id)
        if self.service.study.protocol.quality is not None and not self.person.sees_gold:
            self.standing = await self.study(self.service.standing, self.person.id)
            asking = any(isinstance(s, ConsentScreen) for s in self.app.screen_stack)
            if self.standing is not None and self.standing.stage == "consent" and not asking:
                await self.app.push_screen(
                    ConsentScreen(
                        self.service,
                        self.person,
                        self.standing.consent_title or "Consent",
                        self.standing.consent_text or "",
                    )
                )
        who, study = self.person, self.service.study
        self.query_one("#home-title", Static).update(
            Text.assemble((who.name, "bold"), f" · {who.role} · study ", (study.name, "bold"))
        )
        table = self.query_one("#parts", DataTable)
        table.clear()
        for n, part in enumerate(self.parts, start=1):
            done = "✓ done" if part.complete else f"{part.done} of {part.total}"
            if part.kind == "explore" and not part.complete:
                done = "not yet" if part.active_ms is None else clock_text(part.active_ms)
            minutes = f"about {part.minutes:g} min" if part.minutes else ""
            table.add_row(
                str(n), f"{part.kind.capitalize()}: {part.title}", done, minutes, key=part.kind
            )
        self.query_one("#home-next", Static).update(self._next_step())
        self.refresh_bindings()

    def _next_step(self) -> str:
        if self.person.mode == Mode.CUSTOMER:
            return "You play the customer for people solving in conversation: press [b]c[/b]."
        if self.standing is not None and (text := standing_text(self.standing)):
            return text
        if self.unfinished is not None:
            return "A query you started is waiting: press [b]r[/b] to resume it."
        for part in self.parts:
            if part.kind == "explore" and not part.complete and part.active_ms is not None:
                return (
                    f"{part.title}: {clock_text(part.active_ms)} so far — press [b]e[/b] "
                    "to go on, or [b]d[/b] when you are done exploring."
                )
            if not part.complete:
                key = {"explore": "e", "solve": "s", "rate": "t"}[part.kind]
                return f"Next: {part.title} — press [b]{key}[/b]."
        return "All parts are done. Thank you! You may still browse the org (b)."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.unfinished is not None
        if action == "post_study":
            return self.standing is not None and self.standing.stage == "post_study"
        if action in ("audit", "adjudicate"):
            return self.person.sees_gold
        if action == "live":
            return self.person.mode == Mode.COORDINATOR
        if action == "play_customer":
            return self.person.mode == Mode.CUSTOMER
        if action in ("solve", "explore", "rate") and self.person.mode == Mode.CUSTOMER:
            return False  # a customer plays, never solves
        if action == "switch_profile":  # a code opened this profile: the only one here
            return not getattr(self.app, "codes_required", False)
        if action == "rate":  # a study without a part offers no key for it
            return "rate" in self._part_kinds() and bool(self.service.study.rating_targets)
        if action == "explore":
            return "explore" in self._part_kinds()
        if action == "explore_done":
            explore = next((p for p in self.parts if p.kind == "explore"), None)
            # once the person has looked around: then they may say it was enough
            return explore is not None and not explore.complete and explore.active_ms is not None
        return True

    def _part_kinds(self) -> set[str]:
        return {part.kind for part in self.service.study.protocol.parts}

    # ----------------------------------------------------------------- actions
    async def action_solve(self) -> None:
        from crm_tui.tui.study.solve import SolveScreen

        view = await self.study(self.service.open_next, self.person.id)
        if view is None:
            await self.refresh_progress()
            text = standing_text(self.standing) if self.standing else None
            self.notify(text or "Your queue of queries is done.", title="Nothing left to solve")
            return
        guidelines = await self.study(self.service.guidelines_due, self.person.id, view.item.task)
        if await self.study(self.service.is_interactive, view.attempt_id):
            from crm_tui.tui.study.chat_solve import ChatSolveScreen

            await self.app.push_screen(ChatSolveScreen(self.service, self.person, view))
            return
        await self.app.push_screen(SolveScreen(self.service, self.person, view))
        if guidelines:  # the family's first item: its guidelines first, over the query
            await self.app.push_screen(GuidelinesScreen(self.service, self.person, guidelines))

    async def action_play_customer(self) -> None:
        from crm_tui.tui.study.customer_screen import CustomerScreen

        if self.person.mode != Mode.CUSTOMER:
            return
        # A first look: a customer who cannot play here (on a PostgreSQL login) is told
        # so once, rather than by a screen that would wait and fail at every poll.
        if await self.study(self.service.customer_conversations, self.person.id) is None:
            return
        await self.app.push_screen(CustomerScreen(self.service, self.person))

    async def action_post_study(self) -> None:
        questions = await self.study(self.service.post_study_questions, self.person.id)
        if questions:
            await self.app.push_screen(PostStudyScreen(self.service, self.person, questions))

    async def action_resume(self) -> None:
        await self.action_solve()  # open_next resumes the unfinished attempt first

    async def action_explore(self) -> None:
        await self.study(self.service.record_study_event, self.person.id, "explore_started")
        self.exploring = True
        self.app.action_objects()  # type: ignore[attr-defined]
        self.notify("Look around the org; press F2 to come back here.", title="Explore")

    async def action_rate(self) -> None:
        from crm_tui.tui.study.realism import RealismScreen

        rated = await self.study(self.service.my_ratings, self.person.id)
        targets = self.service.study.rating_targets
        start = next((t for t in targets if t not in (rated or {})), targets[0])
        await self.app.push_screen(RealismScreen(self.service, self.person, start))

    async def action_audit(self) -> None:
        from crm_tui.tui.study.audit_screen import AuditScreen

        if not self.person.sees_gold:  # also when reached by run_action, not only the key
            self.notify("Audit is for auditors and coordinators.", severity="warning")
            return
        await self.app.push_screen(AuditScreen(self.service, self.person))

    def action_adjudicate(self) -> None:
        self.app.action_adjudicate()  # type: ignore[attr-defined]  # StudyApp's; it checks the role

    def action_live(self) -> None:
        self.app.action_live()  # type: ignore[attr-defined]  # StudyApp's; it checks the role

    async def action_explore_done(self) -> None:
        """d: the person says they have explored enough (before the suggested time)."""
        await self.study(
            self.service.record_study_event, self.person.id, "explore_finished", {"done": True}
        )
        await self.refresh_progress()

    def action_browse(self) -> None:
        self.app.action_objects()  # type: ignore[attr-defined]

    def action_switch_profile(self) -> None:
        self.app.pop_screen()
