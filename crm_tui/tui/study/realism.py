"""Realism rating: the org or one object with a few of its records, keys 1-5 (and 0 for
"I don't know this object"), a rationale, submit; then on to the next target."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static, TextArea

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import ObjectInfo, Page
from crm_tui.study.service import ORG_TARGET, Profile, StudyService
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show


class RealismScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Rate realism"
    AUTO_FOCUS = ""  # nothing focused on arrival: the digits rate, Tab goes to writing
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"choose({n})", "Choose a level", show=n == 1, key_display="0-5")
            for n in range(6)
        ),
        Binding("ctrl+s", "submit", "Submit rating", id="submit-rating", priority=True),
        Binding("ctrl+n", "move(1)", "Next", id="next-target"),
        Binding("ctrl+b", "move(-1)", "Previous", id="previous-target"),
        Binding("escape", "home", "Home", id="home"),
    ]

    def __init__(self, service: StudyService, profile: Profile, target: str) -> None:
        super().__init__(service, profile)
        self.targets = list(service.study.rating_targets)
        self.target = target
        self.level: int | None = None
        self.record_ids: list[str] = []
        self.saved_rationale = ""  # the rationale as last written to the study
        self.questionnaire = service.study.protocol.questionnaire

    def compose_body(self) -> ComposeResult:
        yield Static("", id="realism-title", classes="screen-title")
        yield Static("", id="realism-prompt")
        # Never focused: Tab goes to the rationale as the screen says, and digits there
        # type, while anywhere else they rate (a focused table took Tab, then re-rated).
        samples: DataTable[str] = DataTable(id="samples", cursor_type="row", zebra_stripes=True)
        samples.can_focus = False
        yield samples
        yield Static("", id="scale")
        yield Static(
            self.questionnaire.rationale.prompt + " (Tab to write, Tab again to "
            "leave; Ctrl+S submits)",
            id="rationale-prompt",
            classes="section-title",
        )
        yield TextArea(id="rationale", tab_behavior="focus")

    async def on_mount(self) -> None:
        self.title = "Rate realism"
        self.sub_title = self.person.name
        await self.show_target(self.target)

    async def show_target(self, target: str) -> None:
        self.target, self.level, self.record_ids = target, None, []
        rated = await self.study(self.service.my_ratings, self.person.id) or {}
        self.level = rated.get(target)
        position = self.targets.index(target) + 1
        name = "The org as a whole" if target == ORG_TARGET else await self._label_plural(target)
        self.query_one("#realism-title", Static).update(
            Text.assemble(
                (f"Rate {position} of {len(self.targets)}: ", ""),
                (name, "bold"),
                (f"   ({len(rated)} rated so far)", "dim"),
            )
        )
        prompt = (
            self.questionnaire.org.prompt
            if target == ORG_TARGET
            else self.questionnaire.object.prompt.format(label_plural=name)
        )
        self.query_one("#realism-prompt", Static).update(prompt)
        self.saved_rationale = (
            await self.study(self.service.rationale_so_far, self.person.id, target) or ""
        )
        self.query_one("#rationale", TextArea).text = self.saved_rationale
        self._load_samples()
        self._show_scale()
        self.set_focus(None)

    async def _label_plural(self, object_name: str) -> str:
        """The object's plural label as the org describes it (its API name while the org
        is out of reach: the samples then say why)."""
        backend = self.app.backend  # type: ignore[attr-defined]
        try:
            return str((await asyncio.to_thread(backend.describe, object_name)).label_plural)
        except CrmTuiError:
            return object_name

    def _load_samples(self) -> None:
        """The org's objects with their counts, or a few records of the object, fetched
        off the UI loop (an org out of reach says so, and the rating goes on without)."""
        self.query_one("#samples", DataTable).clear(columns=True)
        backend = self.app.backend  # type: ignore[attr-defined]
        failed = "Sample records not loaded"
        if self.target == ORG_TARGET:
            fetch_then_show(
                self, backend.list_objects, self._show_objects, group="samples", title=failed
            )
            return
        name, limit = self.target, self.questionnaire.object.sample_records
        fetch_then_show(
            self,
            lambda: backend.page(name, limit=limit),
            partial(self._show_records, name),
            group="samples",
            title=failed,
        )

    def _show_objects(self, objects: list[ObjectInfo]) -> None:
        table = self.query_one("#samples", DataTable)
        table.add_columns("Object", "Records")
        for info in objects:
            table.add_row(info.label_plural, f"{info.count:,}")

    def _show_records(self, object_name: str, page: Page) -> None:
        table = self.query_one("#samples", DataTable)
        obj = self.app.backend.describe(object_name)  # type: ignore[attr-defined]  # cached
        columns = [obj.field(name) for name in obj.list_columns if obj.has_field(name)]
        for fld in columns:
            table.add_column(fld.label, key=fld.name)
        for record in page.records:
            table.add_row(*(page.display(f, record) for f in columns), key=record["Id"])
        self.record_ids = [record["Id"] for record in page.records]

    def _show_scale(self) -> None:
        levels = list(self.questionnaire.levels)
        if self.target != ORG_TARGET:
            levels.append(self.questionnaire.dont_know)
        table = Table.grid(padding=(0, 1))
        for level in levels:
            chosen = level.level == self.level
            table.add_row(
                Text(
                    f"{'▶' if chosen else ' '} {level.level}",
                    style="bold reverse" if chosen else "bold",
                ),
                Text(level.label, style="bold"),
                Text(level.anchor, style="dim"),
            )
        self.query_one("#scale", Static).update(table)

    async def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Keep the rationale as it is typed: moving on, a restart or a crash loses nothing."""
        text = event.text_area.text
        if text == self.saved_rationale:
            return
        self.saved_rationale = text
        await self.study(self.service.save_rationale_draft, self.person.id, self.target, text)

    # ----------------------------------------------------------------- actions
    def action_choose(self, level: int) -> None:
        if level == 0 and self.target == ORG_TARGET:
            self.notify("“I don't know” is for objects; rate the org 1-5.", severity="warning")
            return
        self.level = level
        self._show_scale()

    async def action_submit(self) -> None:
        if self.level is None:
            self.notify("Press a key 1-5 (or 0: I don't know this object) first.", severity="error")
            return
        rationale = self.query_one("#rationale", TextArea).text
        rated = await self.study(
            self.service.rate_realism,
            self.person.id,
            self.target,
            self.level,
            rationale,
            self.record_ids,
        )
        if rated is None:
            return
        following = self.targets[self.targets.index(self.target) + 1 :]
        upcoming = next((t for t in following if t not in rated), None)
        if upcoming is None:
            self.notify(
                "Thank you: every rating of this part is saved."
                if len(rated) == len(self.targets)
                else "Saved. Some targets are still unrated."
            )
            self.dismiss()
        else:
            await self.show_target(upcoming)

    async def action_move(self, step: int) -> None:
        index = (self.targets.index(self.target) + step) % len(self.targets)
        await self.show_target(self.targets[index])

    def action_home(self) -> None:
        self.dismiss()
