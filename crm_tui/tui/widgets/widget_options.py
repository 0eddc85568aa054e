"""The keyword options every Textual widget takes, for widgets that pass them on."""

from __future__ import annotations

from typing import TypedDict


class WidgetOptions(TypedDict, total=False):
    """`Widget.__init__`'s keywords that `Input` and the containers take too."""

    name: str | None
    id: str | None
    classes: str | None
    disabled: bool
