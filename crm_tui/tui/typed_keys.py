"""A footer that offers only keys that act: while a text field has focus, a key it takes as
typing ("/", a letter, a digit) types, so the footer must not offer it as a command.

Textual leaves such keys out itself only when it knows their character, which it does not
for named keys such as "slash" (the footer offered "/ Search" over the answer field, and
the "/" went into the answer)."""

from __future__ import annotations

from textual.binding import ActiveBinding
from textual.keys import REPLACED_KEYS, key_to_character
from textual.screen import Screen, ScreenResultType


def typed_character(key: str) -> str | None:
    """The character a key types ("slash" -> "/"), None for keys that type nothing."""
    return key_to_character(REPLACED_KEYS.get(key, key))


class OffersOnlyKeysThatAct(Screen[ScreenResultType]):
    """A screen whose footer (its `active_bindings`) leaves out the keys the focused
    widget would take as typing; the widget's own keys and priority keys stay."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings
        focused = self.focused
        if focused is None:
            return bindings
        return {
            key: active
            for key, active in bindings.items()
            if active.node is focused
            or active.binding.priority
            or not focused.check_consume_key(key, typed_character(key))
        }
