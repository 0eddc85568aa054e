"""What the study screens share: the open study file, the study, who is working, and one
writer thread that runs every study-service call in order, off the UI loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from crm_tui.study.db import StudyStore
from crm_tui.study.models import Annotator, Mode, Study
from crm_tui.study.protocol import Protocol
from crm_tui.study.studies import study_protocol

T = TypeVar("T")


@dataclass
class StudyContext:
    store: StudyStore
    study: Study
    annotator: Annotator | None = None
    # One thread: calls run in the order they were made (a pause is on disk before its
    # resume), and a slow lock wait never freezes the screen.
    _writer: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="study-writer")
    )

    @property
    def protocol(self) -> Protocol:
        return study_protocol(self.study)

    @property
    def annotator_id(self) -> int:
        assert self.annotator is not None, "no profile chosen yet"
        return self.annotator.id

    @property
    def is_auditor(self) -> bool:
        return self.annotator is not None and self.annotator.mode in (
            Mode.AUDITOR,
            Mode.COORDINATOR,
        )

    async def call(self, service: Callable[..., T], *args, **kwargs) -> T:
        """Run a study-service call on the writer thread and wait for its result."""
        future = self._writer.submit(service, self.store, *args, **kwargs)
        return await asyncio.wrap_future(future)

    async def drain(self) -> None:
        """Until every call made so far has run (the writer runs them in order)."""
        await asyncio.wrap_future(self._writer.submit(lambda: None))

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        self.store.close()
