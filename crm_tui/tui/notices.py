"""The one way an error becomes a notice on screen (and the one way it is worded where a
screen shows it in its own body, as the SOQL console and the results screen do).

A `CrmTuiError` is worded for the person already (and the backends keep credentials out
of it), so it is shown as it is. Anything else is a bug or an outage whose text may carry
what a screen should not show (a session id in a URL): the notice names only its type,
and the whole error goes to the Textual log.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING

from crm_tui.errors import CrmTuiError

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.widget import Widget


def explain(node: App[None] | Widget, error: BaseException) -> str:
    """What a person is told about `error`; an unexpected one also goes to `node`'s log,
    with its traceback."""
    if isinstance(error, CrmTuiError):
        return str(error)
    if isinstance(error, OSError) and error.strerror:
        # A file refusal (disk full, read-only folder): the file and the reason say it all.
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{error.strerror}"
    node.log.error("".join(traceback.format_exception(error)))
    return f"Unexpected error ({type(error).__name__}); the details are in the log."


def notify_error(
    node: App[None] | Widget,
    error: BaseException,
    *,
    title: str = "Cannot do that",
    severity: SeverityLevel = "error",
    note: str = "",
) -> None:
    """Show `error` as a notification on `node`'s app; `note`, a sentence, follows the
    error's text (what happens instead, say)."""
    message = explain(node, error)
    if note:
        message = f"{message.rstrip('.')}. {note}"
    node.notify(message, title=title, severity=severity)
