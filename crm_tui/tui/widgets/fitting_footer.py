"""A footer that shows every key: when the keys do not fit on one line (80 columns), they
wrap onto more lines instead of running off the right edge.

Textual's footer is one line that cuts what does not fit, so at 80x24 the solve screen hid
F6, F7 and Esc. Its styles are in the apps' shared stylesheet (`browser_app.tcss`)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.events import Resize
from textual.message import Message
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PALETTE_CLASS = "-command-palette"  # Textual's class for the palette key, docked right


def key_width(key_display: str, description: str) -> int:
    """Cells a (non-compact) footer key takes: " key " then "description "."""
    return len(key_display) + 2 + (len(description) + 1 if description else 0)


class FittingFooter(Footer):
    """Every shown binding of the screen, one key per action as in Textual's footer, in
    lines as wide as the footer; the command palette key stays at the right."""

    class LinesChanged(Message):
        """The footer took more or fewer lines: what is above it got taller or shorter
        (a table whose scroll was just put back may need it put back again)."""

    laid_out_for = 0  # the terminal width the lines were made for
    line_count = 0

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        active = self.screen.active_bindings
        keys: dict[str, FooterKey] = {}  # action -> its first key, as Textual shows it
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    disabled=not enabled,
                    tooltip=tooltip,
                ).data_bind(compact=Footer.compact)
        self.laid_out_for = room = self.app.size.width
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE and palette:
            _, binding, enabled, tooltip = palette
            display = self.app.get_key_display(binding)
            room -= key_width(display, binding.description) + 1  # its border
            yield FooterKey(
                binding.key,
                display,
                binding.description,
                binding.action,
                classes=PALETTE_CLASS,
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )
        lines = _lines(list(keys.values()), room)
        for line in lines:
            yield HorizontalGroup(*line, classes="footer-line")
        if len(lines) != self.line_count:
            self.line_count = len(lines)
            self.post_message(self.LinesChanged())

    def on_resize(self, _event: Resize) -> None:
        if self._bindings_ready and self.app.size.width != self.laid_out_for:
            self.call_after_refresh(self.recompose)


def _lines(keys: list[FooterKey], room: int) -> list[list[FooterKey]]:
    """The keys in order, as many to a line as fit in `room` cells."""
    lines: list[list[FooterKey]] = [[]]
    used = 0
    for key in keys:
        width = key_width(key.key_display, key.description)
        if lines[-1] and used + width > room:
            lines.append([])
            used = 0
        lines[-1].append(key)
        used += width
    return lines
