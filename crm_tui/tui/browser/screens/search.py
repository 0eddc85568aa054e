"""Global search: words (the last one as a prefix) across objects, hits grouped by object
under the plural labels the backend describes (on a backend that declares search)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from crm_tui.org.backends.interface import SearchHit
from crm_tui.tui.browser.history import RecordLocation, SearchLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.messages import RowsShown
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show


@dataclass(frozen=True)
class Found:
    text: str
    hits: list[SearchHit]
    labels: dict[str, str]  # object name -> plural label
    words_apart: bool  # no record had every word: these have some of them


WORD = re.compile(r"\w+")
MAX_WORDS_APART = 6  # words searched one by one when no record has them all


def some_words(
    search: Callable[..., list[SearchHit]], words: list[str], limit: int
) -> list[SearchHit]:
    """When no record has every word ("shipping delay policy"): the records with most of
    them, in the order each word's search ranks them."""
    found: dict[str, tuple[int, int, SearchHit]] = {}  # record -> (words, first rank, hit)
    for word in dict.fromkeys(w.lower() for w in words):
        for rank, hit in enumerate(search(word, limit=limit)):
            count, first, _hit = found.get(hit.record_id, (0, rank, hit))
            found[hit.record_id] = (count + 1, min(first, rank), hit)
    ranked = sorted(found.values(), key=lambda entry: (-entry[0], entry[1]))
    return [hit for _count, _rank, hit in ranked[:limit]]


def distinct_words(snippet: str) -> str:
    """A snippet without a word repeated next to itself (an e-mail address that is also
    the username was shown twice)."""
    out: list[str] = []
    for word in snippet.split(" "):
        if not out or word.lower() != out[-1].lower():
            out.append(word)
    return " ".join(out)


class SearchScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Search"
    BINDINGS = [
        ("enter", "open", "Open record"),
        ("down", "focus_results", "To the results"),
        # Esc leaves while typing, where Backspace edits the text and letters type.
        Binding("escape", "app.back", "Back", tooltip="Back to where the search began"),
    ]

    def __init__(self, place: SearchLocation) -> None:
        super().__init__()
        self.text = place.text

    def compose_body(self) -> ComposeResult:
        yield Static("Search", classes="screen-title")
        yield Input(
            value=self.text,
            placeholder="Search names, subjects, e-mails, chats…",
            id="search-input",
            select_on_focus=False,  # back on a search: typing goes on after its text
        )
        yield Static("", id="search-status")
        yield OptionList(id="results")

    def on_mount(self) -> None:
        self.title = "Search"
        self.query_one(Input).focus()
        if self.text:
            self._search(self.text)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.text = event.value
        self._search(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_focus_results()

    def _search(self, text: str) -> None:
        backend, limit = self.crm.backend, self.crm.settings.search_limit
        if not backend.supports_search:
            self.query_one("#search-status", Static).update(f"{backend.name} offers no search")
            return

        def search() -> Found:
            hits = backend.search(text, limit=limit)
            words = WORD.findall(text)
            apart = not hits and 1 < len(words) <= MAX_WORDS_APART
            if apart:
                hits = some_words(backend.search, words, limit)
            objects = {h.object_name for h in hits}
            labels = {name: backend.describe(name).label_plural for name in objects}
            return Found(text, hits, labels, apart)

        fetch_then_show(self, search, self._show, group="search")

    def _show(self, result: Found) -> None:
        text, hits, labels = result.text, result.hits, result.labels
        results = self.query_one(OptionList)
        results.clear_options()
        # Group by object in the order each object's best hit ranks.
        order = {name: i for i, name in reversed(list(enumerate(h.object_name for h in hits)))}
        ranked = sorted(hits, key=lambda h: order[h.object_name])
        for object_name, group in groupby(ranked, key=lambda h: h.object_name):
            group_hits = list(group)
            label = labels[object_name]
            results.add_option(
                Option(Text(f"{label} ({len(group_hits)})", style="bold reverse"), disabled=True)
            )
            for hit in group_hits:
                words = distinct_words(hit.snippet)
                snippet = "" if words in hit.title else "  " + words
                prompt = Text.assemble(
                    ("  " + hit.title, "bold"), (snippet, "dim"), no_wrap=True, overflow="ellipsis"
                )
                results.add_option(Option(prompt, id=hit.record_id))
        status = f"{len(hits)} results for {text!r}" if text.strip() else "Type to search"
        if hits and result.words_apart:
            status += " (no record has every word: those with most of them first)"
        if hits:
            self.post_message(RowsShown("search", None, [h.record_id for h in hits], text))
        self.query_one("#search-status", Static).update(status)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # However the list is reached (Down, Enter, Tab, a click), a hit is highlighted:
        # focused with none, the next Down went past the first hit.
        results = self.query_one(OptionList)
        if event.widget is results and results.highlighted is None and results.option_count:
            results.action_first()

    def action_focus_results(self) -> None:
        results = self.query_one(OptionList)
        if results.option_count:
            results.focus()
            if results.highlighted is None:
                results.action_first()

    def action_open(self) -> None:
        results = self.query_one(OptionList)
        if results.highlighted is not None:
            self._open(results.get_option_at_index(results.highlighted).id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open(event.option.id)

    def _open(self, record_id: str | None) -> None:
        if record_id:
            self.crm.history.replace_current(SearchLocation(self.text))
            self.crm.navigate(RecordLocation(record_id))
