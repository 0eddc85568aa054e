"""Home: progress per protocol part, and one key for each next step."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from crm_tui.study.service import PartProgress, Profile, StudyService
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to


class HomeScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Home"
    # In the order of the protocol's parts; r shows only when a query is waiting.
    BINDINGS = [
        Binding("e", "explore", "Explore org", id="explore"),
        Binding("r", "resume", "Resume query", id="resume"),
        Binding("s", "solve", "Next query", id="solve"),
        Binding("t", "rate", "Rate realism", id="rate"),
        Binding("a", "audit", "Audit", id="audit"),
        Binding("b", "browse", "Browse org", id="browse"),
        Binding("p", "switch_profile", "Switch profile", id="switch-profile"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.parts: list[PartProgress] = []
        self.unfinished: int | None = None
        self.exploring = False

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
        who, study = self.person, self.service.study
        self.query_one("#home-title", Static).update(
            Text.assemble((who.name, "bold"), f" · {who.role} · study ", (study.name, "bold"))
        )
        table = self.query_one("#parts", DataTable)
        table.clear()
        for n, part in enumerate(self.parts, start=1):
            done = "✓ done" if part.complete else f"{part.done} of {part.total}"
            if part.kind == "explore":
                done = "✓ done" if part.complete else "not yet"
            minutes = f"about {part.minutes:g} min" if part.minutes else ""
            table.add_row(
                str(n), f"{part.kind.capitalize()}: {part.title}", done, minutes, key=part.kind
            )
        self.query_one("#home-next", Static).update(self._next_step())
        self.refresh_bindings()

    def _next_step(self) -> str:
        if self.unfinished is not None:
            return "A query you started is waiting: press [b]r[/b] to resume it."
        for part in self.parts:
            if not part.complete:
                key = {"explore": "e", "solve": "s", "rate": "t"}[part.kind]
                return f"Next: {part.title} — press [b]{key}[/b]."
        return "All parts are done. Thank you! You may still browse the org (b)."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.unfinished is not None
        if action == "audit":
            return self.person.sees_gold
        if action == "rate":
            return bool(self.service.study.rating_targets) or None
        return True

    # ----------------------------------------------------------------- actions
    async def action_solve(self) -> None:
        from crm_tui.tui.study.solve import SolveScreen

        view = await self.study(self.service.open_next, self.person.id)
        if view is None:
            self.notify("Your queue of queries is done.", title="Nothing left to solve")
            return
        await self.app.push_screen(SolveScreen(self.service, self.person, view))

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

        await self.app.push_screen(AuditScreen(self.service, self.person))

    def action_browse(self) -> None:
        self.app.action_objects()  # type: ignore[attr-defined]

    def action_switch_profile(self) -> None:
        self.app.pop_screen()
