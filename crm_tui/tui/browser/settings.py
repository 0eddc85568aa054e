"""Browser settings the app factory takes (defaults suit a terminal of any size)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BrowserSettings:
    page_size: int = 100  # rows fetched per list-view page
    prefetch_rows: int = 20  # fetch the next page when the cursor is this close to the end
    related_preview_rows: int = 5  # rows shown under a related list on a record page
    search_limit: int = 60
