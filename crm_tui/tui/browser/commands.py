"""Command palette (ctrl+p): open any object's list, jump to a record by its Id, or open
one of the app's own screens (those it lists in `SCREEN_COMMANDS`). The objects are the
org's, as the backend lists and describes them."""

from __future__ import annotations

import asyncio
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import ModalScreen

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Backend, SObject
from crm_tui.org.schema.ids import is_valid_id
from crm_tui.tui.browser.history import ListLocation, Location, RecordLocation


def described_objects(backend: Backend) -> list[SObject]:
    """Every object of the org, described (counts are cached: the object list asked first)."""
    return [backend.describe(info.name) for info in backend.list_objects()]


# The one Textual built-in kept (the app lists only its own commands).
QUIT = ("Quit", "Quit the app (ctrl+q)")


class BrowserCommands(Provider):
    objects: list[SObject] = []

    async def startup(self) -> None:
        backend: Backend = self.app.backend  # type: ignore[attr-defined]
        try:
            self.objects = await asyncio.to_thread(described_objects, backend)
        except CrmTuiError:  # an org out of reach: the app's own screens are still offered
            self.objects = []

    @property
    def _app_screens(self) -> tuple[tuple[str, str, str], ...]:
        """(title, app action, help) of the app's screens outside the browser's history
        that the app offers now."""
        offers = getattr(self.app, "palette_offers", lambda action: True)
        return tuple(c for c in getattr(self.app, "SCREEN_COMMANDS", ()) if offers(c[1]))

    @property
    def _objects(self) -> list[SObject]:
        return self.objects if getattr(self.app, "palette_offers_org", True) else []

    def _navigate(self, place: Location) -> None:
        self.app.navigate(place)  # type: ignore[attr-defined]

    @property
    def _offered(self) -> bool:
        """Nothing over a modal: a dialog (the pause above all, which hides the query and
        stops the clock) must be closed before the browser opens."""
        return not isinstance(self.screen, ModalScreen)

    async def discover(self) -> Hits:
        if not self._offered:
            return
        for title, action, help_text in self._app_screens:
            yield DiscoveryHit(title, partial(self.app.run_action, action), help=help_text)
        for obj in self._objects:
            yield DiscoveryHit(
                f"Open {obj.label_plural}",
                partial(self._navigate, ListLocation(obj.name)),
                help=obj.description,
            )
        yield DiscoveryHit(QUIT[0], self.app.action_quit, help=QUIT[1])

    async def search(self, query: str) -> Hits:
        if not self._offered:
            return
        text = query.strip()
        owner = next((o for o in self._objects if o.key_prefix == text[:3]), None)
        if is_valid_id(text) and owner is not None:
            yield Hit(
                1.0,
                f"Jump to record {text}",
                partial(self._navigate, RecordLocation(text)),
                help=f"Open the {owner.label} with this Id",
            )
        matcher = self.matcher(query)
        for title, action, help_text in self._app_screens:
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    partial(self.app.run_action, action),
                    help=help_text,
                )
        for obj in self._objects:
            command = f"Open {obj.label_plural}"
            score = matcher.match(f"{command} {obj.name}")
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(command),
                    partial(self._navigate, ListLocation(obj.name)),
                    help=obj.description,
                )
        score = matcher.match(QUIT[0])
        if score > 0:
            yield Hit(score, matcher.highlight(QUIT[0]), self.app.action_quit, help=QUIT[1])
