"""80x24, the smallest supported terminal: what a screen must still offer there."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

NARROW = (80, 24)


def keys_out_of_reach(app) -> list[str]:
    """The screen's shown keys (as its footer would list them) that the footer does not
    show whole inside the terminal: [] when every key is reachable."""
    screen = app.screen
    shown = {
        binding.action: binding.key
        for _, binding, _, _ in screen.active_bindings.values()
        if binding.show
    }
    width, height = app.size
    visible = {
        key.action
        for key in screen.query(FooterKey)
        # whole: its region on screen (cut at the terminal's edge) as wide as the key
        if key.region.width == key.outer_size.width
        and key.region.right <= width
        and key.region.bottom <= height
    }
    return sorted(key for action, key in shown.items() if action not in visible)
