"""The one helper for "fetch off the UI thread, then show": a blocking call (a backend
query, a SOQL query, a study report) runs in a thread worker, and its result is shown on
the UI loop, so a slow org or a large study never freezes the screen.

A newer fetch in the same group of the same node cancels the older one; a result that
arrives after that, or after its screen has gone, is dropped. A failure becomes a notice
(`notices.notify_error`) unless the caller shows it its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from textual.worker import Worker, get_current_worker

from crm_tui.tui.notices import notify_error

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

T = TypeVar("T")


def fetch_then_show(
    node: App[None] | Widget,
    fetch: Callable[[], T],
    show: Callable[[T], object],
    *,
    group: str = "fetch",
    failed: Callable[[Exception], object] | None = None,
    title: str = "Cannot do that",
) -> Worker[None]:
    """Run `fetch` in a thread worker of `node`, then `show(result)` on the UI loop (it may
    be async). On an error, `failed(error)` runs there instead; by default the error
    becomes a notice titled `title`."""

    def current(worker: Worker[None]) -> bool:
        return not worker.is_cancelled and node.is_attached

    def deliver(worker: Worker[None], result: T) -> object:
        return show(result) if current(worker) else None

    def fail(worker: Worker[None], error: Exception) -> object:
        if not current(worker):
            return None
        if failed is not None:
            return failed(error)
        notify_error(node, error, title=title)
        return None

    def job() -> None:
        worker: Worker[None] = get_current_worker()
        try:
            result = fetch()
        except Exception as error:  # shown, not raised: a failed fetch must not end the app
            node.app.call_from_thread(fail, worker, error)
        else:
            node.app.call_from_thread(deliver, worker, result)

    return node.run_worker(
        job,
        thread=True,
        exclusive=True,
        group=group,
        description=f"{type(node).__name__}: {group}",
    )
