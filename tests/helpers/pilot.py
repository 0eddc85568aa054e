"""The one way tests wait for steady screens: workers done, study writes on disk, repainted."""

from __future__ import annotations


async def settle(pilot, rounds: int = 4) -> None:
    """Wait until key handlers, workers and queued study writes have all finished.

    Several rounds, because a finished worker often starts another (a list view loads its
    first page, then prefetches) and a study write can trigger a refresh.
    """
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await app.wait_for_background_writes()
        await pilot.pause()
