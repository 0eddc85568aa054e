"""Where the browser can be (locations) and the back/forward history between them."""

from __future__ import annotations

from dataclasses import dataclass

from crm_tui.org.backends.interface import Filter, Sort
from crm_tui.org.reports.definition import ReportDefinition


@dataclass(frozen=True)
class ObjectsLocation:
    """The list of objects with their counts."""


@dataclass(frozen=True)
class ListLocation:
    object_name: str
    filters: tuple[Filter, ...] = ()
    sort: Sort | None = None


@dataclass(frozen=True)
class RecordLocation:
    record_id: str


@dataclass(frozen=True)
class SearchLocation:
    text: str = ""


@dataclass(frozen=True)
class ReportBuilderLocation:
    """The report builder, on a definition (None: a new report), and the form as it was
    left: (part, how, field, value), so text typed and not yet added comes back."""

    definition: ReportDefinition | None = None
    form: tuple[str, str, str, str] | None = None


@dataclass(frozen=True)
class ReportLocation:
    """A report's result: the definition run."""

    definition: ReportDefinition


@dataclass(frozen=True)
class ViewState:
    """Where a place's table was when the person left it: its cursor and scroll, so that
    Back finds the list as it was (the screen itself is built anew)."""

    table: str  # the table's id
    row: int
    column: int
    scroll_x: float
    scroll_y: float
    # The cursor row of the table that chose this one's rows, when another did (a record
    # page's related lists choose its preview), so Back shows the same rows again.
    context_row: int | None = None


Location = (
    ObjectsLocation
    | ListLocation
    | RecordLocation
    | SearchLocation
    | ReportBuilderLocation
    | ReportLocation
)


class History:
    """A browser history: visiting a new place drops everything ahead of the current one."""

    def __init__(self) -> None:
        self._places: list[Location] = []
        self._views: list[ViewState | None] = []  # beside each place: how it was left
        self._index = -1

    @property
    def current(self) -> Location | None:
        return self._places[self._index] if self._places else None

    def up_to_current(self) -> list[Location]:
        """The places visited up to the current one, oldest first."""
        return self._places[: self._index + 1]

    @property
    def can_go_back(self) -> bool:
        return self._index > 0

    @property
    def can_go_forward(self) -> bool:
        return self._index < len(self._places) - 1

    def visit(self, place: Location) -> None:
        del self._places[self._index + 1 :]
        del self._views[self._index + 1 :]
        self._places.append(place)
        self._views.append(None)
        self._index += 1

    def remember_view(self, view: ViewState | None) -> None:
        """How the current place is being left (its table's cursor and scroll)."""
        if self._places:
            self._views[self._index] = view

    @property
    def current_view(self) -> ViewState | None:
        return self._views[self._index] if self._places else None

    def replace_current(self, place: Location) -> None:
        """Remember the current place in its latest state (e.g. the search text typed)."""
        self._places[self._index] = place

    def back(self) -> Location | None:
        if not self.can_go_back:
            return None
        self._index -= 1
        return self.current

    def forward(self) -> Location | None:
        if not self.can_go_forward:
            return None
        self._index += 1
        return self.current
