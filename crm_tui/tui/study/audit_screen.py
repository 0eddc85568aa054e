"""Audit mode (auditor and coordinator profiles only): every query with its gold answer,
the human answers and flags; flag a query. A study has hundreds of queries: a search,
filters (one family, flagged only, humans who disagree with gold), sorts and a count."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Input, Static

from crm_tui.study.service import AnswerRecord, AuditItem, Profile, StudyService
from crm_tui.tasks.scoring import gold_text
from crm_tui.tui.study.dialogs import FlagDialog, FlagInput
from crm_tui.tui.study.solve import clock_text
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to


def _answer_line(answer: AnswerRecord) -> str:
    time = "—" if answer.active_ms is None else clock_text(answer.active_ms)
    if answer.status == "skipped":  # no answer: nothing to show in its place
        return f"skipped · {time} active"
    if answer.status == "expired":
        typed = f"typed {answer.typed} (not scored)" if answer.typed else "nothing typed"
        return f"expired · {typed} · {time} active"
    if not answer.is_answer:
        return f"{answer.status} · {time} active"
    score = "—" if answer.score is None else f"{answer.score:g}"
    return (
        f"{answer.answer_raw} · {answer.status} · score {score} · "
        f"{time} active · confidence {answer.confidence or '—'}"
    )


def _detail(item: AuditItem) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_row(Text("Query", style="bold"), Text(item.query))
    grid.add_row(Text("Gold", style="bold"), Text(gold_text(item.gold)))
    if item.quality_role is not None:  # only coordinators are told
        grid.add_row(
            Text("Kept apart", style="bold"),
            Text(f"a {item.quality_role} item: never measured, never in the figures"),
        )
    for answer in item.answers:
        grid.add_row(Text(answer.annotator, style="bold"), Text(_answer_line(answer)))
    for flag in item.flags:
        grid.add_row(
            Text(f"⚑ {flag.annotator}", style="bold"),
            Text(
                f"{flag.category}: {flag.comment or ''}"
                + (f" (suggests {flag.suggested_answer})" if flag.suggested_answer else "")
            ),
        )
    return grid


def answers(item: AuditItem) -> list[AnswerRecord]:
    """The answers given: a skip, an expiry or an open query is none."""
    return [a for a in item.answers if a.is_answer]


def right(item: AuditItem) -> int:
    return sum(1 for a in answers(item) if a.score is not None and a.score >= 1)


def disagrees(item: AuditItem) -> bool:
    """Some human answered other than gold."""
    return right(item) < len(answers(item))


def matches(item: AuditItem, text: str) -> bool:
    """The search: words in the query, the family, the gold or an answer."""
    haystack = " ".join(
        [item.query, item.task, gold_text(item.gold), *(str(a.answer_raw) for a in answers(item))]
    ).lower()
    return all(word in haystack for word in text.lower().split())


# (name, order) of the sort key's settings, in the order `s` steps through them.
SORTS: tuple[tuple[str, Callable[[AuditItem], Any]], ...] = (
    ("query order", lambda item: item.idx),
    ("family", lambda item: (item.task, item.idx)),
    ("most flags", lambda item: (-len(item.flags), item.idx)),
    ("most disagreement", lambda item: (right(item) - len(answers(item)), item.idx)),
)


class AuditScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Audit"
    AUTO_FOCUS = "#audit-items"
    BINDINGS = [
        Binding("slash", "search", "Search", id="audit-search"),
        Binding("s", "sort", "Sort", id="audit-sort"),
        Binding("m", "family", "Family", id="audit-family", tooltip="One family, the next, all"),
        Binding("g", "flagged_only", "Flagged only", id="audit-flagged"),
        Binding("d", "disagree", "Humans ≠ gold", id="audit-disagree"),
        Binding("f", "flag", "Flag query", id="audit-flag"),
        Binding("escape", "leave", "Home", id="audit-home", tooltip="From the search: to the list"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.items: dict[str, AuditItem] = {}
        self.search_text = ""
        self.sort_index = 0
        self.family: str | None = None  # None: every family
        self.flagged_only = False
        self.disagree_only = False

    def compose_body(self) -> ComposeResult:
        yield Static("Audit: gold answers, human answers and flags", classes="screen-title")
        yield Input(placeholder="Search queries, gold and answers (/)", id="audit-search")
        yield Static("", id="audit-count")
        yield DataTable(id="audit-items", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="audit-detail"):
            yield Static("", id="audit-detail-text")

    async def on_mount(self) -> None:
        self.title = "Audit"
        self.sub_title = self.person.name
        table = self.query_one("#audit-items", DataTable)
        for label, key, width in (
            ("idx", "idx", 6),
            ("Task", "task", 30),
            ("Gold", "gold", 20),
            ("Answers", "answers", 8),
            ("Right", "right", 6),
            ("Flags", "flags", 6),
        ):
            table.add_column(label, key=key, width=width)
        await self.reload()
        table.focus()

    async def reload(self) -> None:
        items = await self.study(self.service.audit_items, self.person.id)
        if items is None:
            return
        self.items = {str(item.item_id): item for item in items}
        self.show_items()

    def shown_items(self) -> list[AuditItem]:
        """The items through the search and the filters, in the chosen order."""
        shown = [
            item
            for item in self.items.values()
            if (self.family is None or item.task == self.family)
            and (not self.flagged_only or item.flags)
            and (not self.disagree_only or disagrees(item))
            and matches(item, self.search_text)
        ]
        return sorted(shown, key=SORTS[self.sort_index][1])

    def show_items(self) -> None:
        """Fill the table (the cursor stays on its query if still shown) and the count."""
        table = self.query_one("#audit-items", DataTable)
        current = self._current()
        table.clear()
        shown = self.shown_items()
        for item in shown:
            table.add_row(
                str(item.idx),
                item.task,
                gold_text(item.gold),
                str(len(answers(item))),
                str(right(item)),
                str(len(item.flags)),
                key=str(item.item_id),
            )
        keys = [str(item.item_id) for item in shown]
        if current is not None and str(current.item_id) in keys:
            table.move_cursor(row=keys.index(str(current.item_id)))
        if not shown:
            self.query_one("#audit-detail-text", Static).update("")
        self.query_one("#audit-count", Static).update(self._count_text(len(shown)))

    def _count_text(self, shown: int) -> Text:
        parts = [f"{shown:,} of {len(self.items):,} queries"]
        if self.family is not None:
            parts.append(f"family {self.family}")
        if self.flagged_only:
            parts.append("flagged only")
        if self.disagree_only:
            parts.append("humans disagree with gold")
        if self.search_text.strip():
            parts.append(f"search “{self.search_text.strip()}”")
        parts.append(f"sorted by {SORTS[self.sort_index][0]}")
        return Text(" · ".join(parts), style="bold")

    def _current(self) -> AuditItem | None:
        table = self.query_one("#audit-items", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else self.items[key]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        item = None if key is None else self.items.get(key)
        if item is not None:
            self.query_one("#audit-detail-text", Static).update(_detail(item))

    # ----------------------------------------------------------------- actions
    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.search_text = event.value
        self.show_items()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#audit-items", DataTable).focus()

    def action_search(self) -> None:
        self.query_one("#audit-search", Input).focus()

    def action_sort(self) -> None:
        self.sort_index = (self.sort_index + 1) % len(SORTS)
        self.show_items()

    def action_family(self) -> None:
        families = sorted({item.task for item in self.items.values()})
        if not families:
            return
        at = families.index(self.family) + 1 if self.family in families else 0
        self.family = families[at] if at < len(families) else None
        self.show_items()

    def action_flagged_only(self) -> None:
        self.flagged_only = not self.flagged_only
        self.show_items()

    def action_disagree(self) -> None:
        self.disagree_only = not self.disagree_only
        self.show_items()

    def action_leave(self) -> None:
        """Esc: from the search back to the list (the search stays); else home."""
        if isinstance(self.focused, Input):
            self.query_one("#audit-items", DataTable).focus()
        else:
            self.dismiss()

    def action_flag(self) -> None:
        if self._current() is not None:
            self.app.push_screen(FlagDialog(self.service.study.protocol.taxonomy), self._flagged)

    async def _flagged(self, flag: FlagInput | None) -> None:
        item = self._current()
        if flag is None or item is None:
            return
        if (
            await self.study(
                self.service.flag_item,
                self.person.id,
                item.item_id,
                flag.category,
                flag.comment,
                flag.suggested_answer,
            )
            is not None
        ):
            self.notify(f"Query {item.idx} is flagged.", title="Flagged")
            await self.reload()
