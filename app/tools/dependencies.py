"""What an odds request runs through: its address's work budget and the process's queue."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, Request

from app.accounts.dependencies import AppSettings, ClientIp, Limiter
from app.accounts.ratelimit import RateLimiter
from app.config import Settings
from app.offload import Offload
from app.tools.queue import ToolsQueue

WORK_UNIT = 1_000_000  # the budgets count millions of work units
Body = TypeVar("Body")
Answer = TypeVar("Answer")


def tools_queue(request: Request, settings: AppSettings) -> ToolsQueue:
    """The process's one odds queue."""
    state = request.app.state
    if not hasattr(state, "tools_queue"):
        state.tools_queue = ToolsQueue(settings.tools_queue_work)
    queue: ToolsQueue = state.tools_queue
    return queue


@dataclass(frozen=True, slots=True)
class Computation:
    """Runs one odds request: admitted to the queue, charged to the caller's address by its
    work, then computed, one at a time, in the offload pool (:mod:`app.offload`)."""

    limiter: RateLimiter
    settings: Settings
    ip: str
    queue: ToolsQueue
    offload: Offload

    async def run(self, compute: Callable[[Body], Answer], body: Body, work: int) -> Answer:
        """``compute(body)`` in the offload pool, ``work`` being its estimate."""
        budget = self.settings.rate_limit_tools_work
        units = min(max(1, math.ceil(work / WORK_UNIT)), budget.count)
        async with self.queue.admit(units) as slot:
            await self.limiter.hit("tools-work:ip", self.ip, budget, cost=units)
            async with slot:
                return await self.offload.run(compute, body)


def computation(request: Request, limiter: Limiter, settings: AppSettings, ip: ClientIp
                ) -> Computation:
    """The caller's :class:`Computation`."""
    return Computation(limiter, settings, ip, tools_queue(request, settings),
                       request.app.state.offload)


ToolsComputation = Annotated[Computation, Depends(computation)]
