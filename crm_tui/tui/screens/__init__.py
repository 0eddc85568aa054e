"""One module per browser screen; `screen_for` builds the screen showing a location."""

from __future__ import annotations

from textual.screen import Screen

from ..history import (
    ListLocation,
    Location,
    ObjectsLocation,
    RecordLocation,
    SearchLocation,
)
from .list_view import ListViewScreen
from .objects import ObjectListScreen
from .record import RecordScreen
from .search import SearchScreen


def screen_for(place: Location) -> Screen:
    match place:
        case ObjectsLocation():
            return ObjectListScreen()
        case ListLocation():
            return ListViewScreen(place)
        case RecordLocation():
            return RecordScreen(place)
        case SearchLocation():
            return SearchScreen(place)
    raise TypeError(f"No screen shows {place!r}")
