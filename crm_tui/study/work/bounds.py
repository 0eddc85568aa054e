"""The bounded numbers a study's settings take: each bound is one a store, a clock and a
queue can hold, so a value past it is one line naming its key, never an overflow later."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from crm_tui.errors import CrmTuiError

# Bounds every store (64-bit integers) and clock holds: a week of minutes at most, a
# million of anything counted; never infinity or NaN.
Minutes = Annotated[float, Field(gt=0, le=7 * 24 * 60, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=1, le=1_000_000)]
Seed = Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]

# An answer, a note or a draft: pages of text, never megabytes (a pasted file), which every
# report, export and merge would carry. An exchange file holds the same bound.
MAX_TEXT_CHARS = 100_000


def check_text(what: str, text: str | None) -> None:
    """One line naming `what` when `text` passes MAX_TEXT_CHARS; nothing is stored then."""
    if text is not None and len(text) > MAX_TEXT_CHARS:
        raise CrmTuiError(
            f"{what}: {len(text):,} characters, over the {MAX_TEXT_CHARS:,} {what} may hold; "
            "nothing was saved (shorten it and try again)"
        )
