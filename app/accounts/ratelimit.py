"""Rate limits for sign-up, login, password reset and verification, per IP and per account.

Counts live in this process's memory (a sliding window per key), which is right
for the embedded single-process default; behind a load balancer each process
counts on its own, so the effective limit is the limit times the process count.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from app.accounts.errors import RateLimited
from app.config import RateLimit

SWEEP_EVERY = 1_000


class RateLimiter:
    """Sliding-window counters keyed by ``(action, key)``."""

    def __init__(self, *, enabled: bool = True, clock: Callable[[], float] = time.monotonic):
        self.enabled = enabled
        self._clock = clock
        self._hits: dict[tuple[str, str], deque[float]] = {}
        self._calls = 0

    def hit(self, action: str, key: str, limit: RateLimit) -> None:
        """Count one attempt; :class:`RateLimited` (with ``retry_after``) when over ``limit``."""
        if not self.enabled:
            return
        now = self._clock()
        self._sweep(now, limit.seconds)
        window = self._hits.setdefault((action, key), deque())
        while window and window[0] <= now - limit.seconds:
            window.popleft()
        if len(window) >= limit.count:
            retry_after = max(1, math.ceil(window[0] + limit.seconds - now))
            raise RateLimited(
                f"too many attempts, try again in {retry_after} s", retry_after=retry_after
            )
        window.append(now)

    def reset(self) -> None:
        """Forget every count."""
        self._hits.clear()

    def _sweep(self, now: float, seconds: int) -> None:
        # Drop idle keys now and then so memory stays bounded by recent traffic.
        self._calls += 1
        if self._calls % SWEEP_EVERY:
            return
        horizon = now - max(seconds, 86_400)
        for key in [key for key, hits in self._hits.items() if not hits or hits[-1] <= horizon]:
            del self._hits[key]
