"""Rate limits for sign-up, login, password reset and verification, per IP and per account,
the login lock-out rules, and the per-connection limits of sockets.

Counting is the ``limits`` library's moving window. Two kinds of limit:

- **Shared** (``await limiter.hit(...)``): sign-up, login, reset, verification,
  e-mail changes, table creation and the odds tools' work. With ``REDIS_URL`` they count in Redis,
  so every process of a site shares one count; alone they count in memory.
- **Local** (``limiter.hit_local(...)``): a socket connection's own requests and
  a table's chat. A connection lives on one process, and a table's requests all
  run on the process that owns it, so counting in that process's memory is
  exact, and it costs no network round trip on every socket event.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from limits import RateLimitItem, RateLimitItemPerSecond
from limits import strategies as sync_strategies
from limits.aio import storage as async_storage
from limits.aio import strategies as async_strategies
from limits.storage import MemoryStorage

from app.accounts.errors import InvalidCredentials, RateLimited
from app.config import RateLimit, Settings

T = TypeVar("T")


def _item(limit: RateLimit) -> RateLimitItem:
    return RateLimitItemPerSecond(limit.count, limit.seconds)


def _refused(reset_at: float) -> RateLimited:
    retry_after = max(1, math.ceil(reset_at - time.time()))
    return RateLimited(f"too many attempts, try again in {retry_after} s",
                       retry_after=retry_after)


class RateLimiter:
    """Moving-window counters keyed by ``(action, key)``: shared ones (in Redis when a
    ``redis_url`` is given) and local ones (this process's memory)."""

    def __init__(self, *, enabled: bool = True, redis_url: str = "",
                 prefix: str = "holdem") -> None:
        self.enabled = enabled
        storage: async_storage.Storage = (
            async_storage.RedisStorage(f"async+{redis_url}", implementation="redispy",
                                       key_prefix=f"{prefix}:limits")
            if redis_url else async_storage.MemoryStorage())
        self._storage = storage
        self._shared = async_strategies.MovingWindowRateLimiter(storage)
        self._local_storage = MemoryStorage()
        self._local = sync_strategies.MovingWindowRateLimiter(self._local_storage)

    # ---- shared between processes ------------------------------------------------------

    async def hit(self, action: str, key: str, limit: RateLimit, *, cost: int = 1) -> None:
        """Count one attempt (``cost`` of them: work done); :class:`RateLimited` (with
        ``retry_after``) when over ``limit``."""
        if not self.enabled:
            return
        item = _item(limit)
        if not await self._shared.hit(item, action, key, cost=cost):
            stats = await self._shared.get_window_stats(item, action, key)
            raise _refused(stats.reset_time)

    async def check(self, action: str, key: str, limit: RateLimit) -> None:
        """:class:`RateLimited` when ``limit`` is used up, without counting this attempt."""
        if not self.enabled:
            return
        item = _item(limit)
        if not await self._shared.test(item, action, key):
            stats = await self._shared.get_window_stats(item, action, key)
            raise _refused(stats.reset_time)

    async def record(self, action: str, key: str, limit: RateLimit) -> None:
        """Count one attempt against ``limit`` without checking it (a failure seen after)."""
        if self.enabled:
            await self._shared.hit(_item(limit), action, key)

    async def recalls(self, action: str, key: str, seconds: int) -> bool:
        """Whether ``(action, key)`` was recorded (with a one-per-``seconds`` limit) in the
        last ``seconds``."""
        return not await self._shared.test(RateLimitItemPerSecond(1, seconds), action, key)

    async def reset(self) -> None:
        """Forget every count."""
        await self._storage.reset()
        self._local_storage.reset()

    # ---- this process only -------------------------------------------------------------

    def hit_local(self, action: str, key: str, limit: RateLimit) -> None:
        """Count one attempt in this process; :class:`RateLimited` when over ``limit``."""
        if not self.enabled:
            return
        item = _item(limit)
        if not self._local.hit(item, action, key):
            raise _refused(self._local.get_window_stats(item, action, key).reset_time)

    def forget(self, action: str, key: str, limit: RateLimit) -> None:
        """Forget the local count of one key (a Socket.IO connection that ended)."""
        self._local.clear(_item(limit), action, key)


async def throttled_login(
    limiter: RateLimiter, settings: Settings, *, email: str, ip: str,
    attempt: Callable[[], Awaitable[T]],
) -> T:
    """Run one login ``attempt`` under the lock-out rules.

    Every attempt counts against the (account, IP) pair. Failures also count against the
    account from anywhere: a slower limit that does not apply from an IP this account
    signed in from within a session lifetime, so an attacker elsewhere, even with many
    addresses, cannot lock the owner out.
    """
    pair = f"{email} {ip}"
    await limiter.hit("login:account-ip", pair, settings.rate_limit_login_account_ip)
    trusted = await limiter.recalls("login:trusted", pair, settings.session_ttl_seconds)
    if not trusted:
        await limiter.check("login:account", email, settings.rate_limit_login_account)
    try:
        result = await attempt()
    except InvalidCredentials:
        await limiter.record("login:account", email, settings.rate_limit_login_account)
        raise
    await limiter.record("login:trusted", pair, RateLimit(1, settings.session_ttl_seconds))
    return result
