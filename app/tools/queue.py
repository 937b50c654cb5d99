"""The process's odds queue: one computation at a time, and a bound on the work waiting.

Every request brings its work estimate (:mod:`app.tools.service`). It is admitted only if
the work already waiting or running plus its own stays within ``TOOLS_QUEUE_WORK``
(millions of units); otherwise it is answered at once with :class:`ToolsBusy` (503 and
``Retry-After``), so nobody waits behind an unbounded pile of heavy requests.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from anyio import CapacityLimiter

from app.errors import HoldemError

WORK_PER_SECOND = 30_000_000  # what one core gets through, about: for ``retry_after``


class ToolsBusy(HoldemError):
    """The odds queue of this process is full; retry after ``retry_after`` seconds."""

    code = "tools_busy"
    status = 503


class ToolsQueue:
    """One odds computation at a time (in the offload pool, so tables keep the event loop
    and the interpreter meanwhile), in front of it at most ``limit`` work units waiting or
    running."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.queued = 0
        self._slot = CapacityLimiter(1)

    @asynccontextmanager
    async def admit(self, work: int) -> AsyncIterator[CapacityLimiter]:
        """The slot to run ``work`` with (enter it to run), or :class:`ToolsBusy` when it
        would not fit; its work counts as queued until the block ends."""
        if self.queued + work > self.limit:
            retry_after = max(1, math.ceil(self.queued / WORK_PER_SECOND))
            raise ToolsBusy(f"the odds calculator is busy, try again in {retry_after} s",
                            retry_after=retry_after)
        self.queued += work
        try:
            yield self._slot
        finally:
            self.queued -= work
