"""Realism rating: the org or one object with a few of its records, keys 1-5 (and 0 for
"I don't know this object"), a rationale, submit; then on to the next target."""

from __future__ import annotations

import asyncio

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static, TextArea

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.catalogue import get_object
from crm_tui.study.drafts import rationale_so_far, realism_key, save_text_draft
from crm_tui.study.my_work import my_ratings
from crm_tui.study.ratings import ORG_TARGET, rate_realism, rating_targets
from crm_tui.tui.study.study_screen import StudyScreen


class RealismScreen(StudyScreen):
    HELP_TITLE = "Rate realism"
    BINDINGS = [
        Binding(str(n), f"choose({n})", "Choose a level", show=n == 1, key_display="0-5")
        for n in range(6)
    ] + [
        Binding("ctrl+s", "submit", "Submit rating", id="submit-rating", priority=True),
        Binding("ctrl+n", "move(1)", "Next", id="next-target"),
        Binding("ctrl+b", "move(-1)", "Previous", id="previous-target"),
        Binding("escape", "home", "Home", id="home"),
    ]

    def __init__(self, ctx, target: str) -> None:
        super().__init__(ctx)
        self.targets = rating_targets(ctx.study)
        self.target = target
        self.level: int | None = None
        self.record_ids: list[str] = []
        self.saved_rationale = ""  # the rationale as last written to the study
        self.questionnaire = ctx.protocol.questionnaire

    def compose_body(self) -> ComposeResult:
        yield Static("", id="realism-title", classes="screen-title")
        yield Static("", id="realism-prompt")
        yield DataTable(id="samples", cursor_type="row", zebra_stripes=True)
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
        self.sub_title = self.ctx.annotator.name
        await self.show_target(self.target)

    async def show_target(self, target: str) -> None:
        self.target, self.level, self.record_ids = target, None, []
        rated = await self.service(my_ratings, self.ctx.study.id, self.ctx.annotator_id) or {}
        self.level = rated.get(target)
        position = self.targets.index(target) + 1
        name = "The org as a whole" if target == ORG_TARGET else get_object(target).label_plural
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
            else self.questionnaire.object.prompt.format(
                label_plural=get_object(target).label_plural
            )
        )
        self.query_one("#realism-prompt", Static).update(prompt)
        self.saved_rationale = (
            await self.service(rationale_so_far, self.ctx.study.id, self.ctx.annotator_id, target)
            or ""
        )
        self.query_one("#rationale", TextArea).text = self.saved_rationale
        try:
            await self._show_samples()
        except CrmTuiError as exc:  # e.g. a Salesforce org out of reach: rate without them
            self.notify(str(exc), title="Sample records not loaded", severity="error")
        self._show_scale()
        self.set_focus(None)

    async def _show_samples(self) -> None:
        table = self.query_one("#samples", DataTable)
        table.clear(columns=True)
        backend = self.app.backend  # type: ignore[attr-defined]
        if self.target == ORG_TARGET:
            objects = await asyncio.to_thread(backend.list_objects)
            table.add_columns("Object", "Records")
            for info in objects:
                table.add_row(info.label_plural, f"{info.count:,}")
            return
        obj = get_object(self.target)
        limit = self.questionnaire.object.sample_records
        page = await asyncio.to_thread(backend.page, obj.name, limit=limit)
        columns = [obj.field(name) for name in obj.list_columns]
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
        await self.service(
            save_text_draft,
            self.ctx.study.id,
            self.ctx.annotator_id,
            realism_key(self.target),
            text,
        )

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
        if (
            await self.service(
                rate_realism,
                self.ctx.study.id,
                self.ctx.annotator_id,
                self.target,
                self.level,
                rationale,
                self.record_ids,
            )
            is None
        ):
            return
        rated = await self.service(my_ratings, self.ctx.study.id, self.ctx.annotator_id) or {}
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
