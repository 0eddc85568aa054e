"""One module per browser screen; `screen_for` builds the screen showing a location. The
report screens, the heaviest, are imported when first shown: an app's start needs neither."""

from __future__ import annotations

from textual.screen import Screen

from crm_tui.tui.browser.history import (
    ListLocation,
    Location,
    ObjectsLocation,
    RecordLocation,
    ReportBuilderLocation,
    ReportLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens.list_view import ListViewScreen
from crm_tui.tui.browser.screens.objects import ObjectListScreen
from crm_tui.tui.browser.screens.record import RecordScreen
from crm_tui.tui.browser.screens.search import SearchScreen


def screen_for(place: Location) -> Screen[None]:
    match place:
        case ObjectsLocation():
            return ObjectListScreen()
        case ListLocation():
            return ListViewScreen(place)
        case RecordLocation():
            return RecordScreen(place)
        case SearchLocation():
            return SearchScreen(place)
        case ReportBuilderLocation():
            from crm_tui.tui.browser.screens.report_builder import ReportBuilderScreen

            return ReportBuilderScreen(place)
        case ReportLocation():
            from crm_tui.tui.browser.screens.report_result import ReportScreen

            return ReportScreen(place)
    raise TypeError(f"No screen shows {place!r}")
