"""Command palette (ctrl+p): open any object's list, or jump to a record by its Id."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import ModalScreen

from crm_tui.org.schema.catalogue import OBJECTS, object_for_id
from crm_tui.org.schema.ids import is_valid_id
from crm_tui.tui.browser.history import ListLocation, RecordLocation

# (title, app action, help) of the screens outside the browser's history
APP_SCREENS = (
    ("SOQL console", "soql_console", "Run SOQL queries on the org (f8)"),
    ("Results", "results", "Humans next to agents, realism, audit (f9, coordinators)"),
)


class BrowserCommands(Provider):
    def _navigate(self, place) -> None:
        self.app.navigate(place)  # type: ignore[attr-defined]

    @property
    def _offered(self) -> bool:
        """Nothing over a modal: a dialog (the pause above all, which hides the query and
        stops the clock) must be closed before the browser opens."""
        return not isinstance(self.screen, ModalScreen)

    async def discover(self) -> Hits:
        if not self._offered:
            return
        for title, action, help_text in APP_SCREENS:
            yield DiscoveryHit(title, partial(self.app.run_action, action), help=help_text)
        for obj in OBJECTS:
            yield DiscoveryHit(
                f"Open {obj.label_plural}",
                partial(self._navigate, ListLocation(obj.name)),
                help=obj.description,
            )

    async def search(self, query: str) -> Hits:
        if not self._offered:
            return
        text = query.strip()
        if is_valid_id(text) and object_for_id(text):
            yield Hit(
                1.0,
                f"Jump to record {text}",
                partial(self._navigate, RecordLocation(text)),
                help=f"Open the {object_for_id(text).label} with this Id",
            )
        matcher = self.matcher(query)
        for title, action, help_text in APP_SCREENS:
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    partial(self.app.run_action, action),
                    help=help_text,
                )
        for obj in OBJECTS:
            command = f"Open {obj.label_plural}"
            score = matcher.match(f"{command} {obj.name}")
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(command),
                    partial(self._navigate, ListLocation(obj.name)),
                    help=obj.description,
                )
