"""Callbacks other features register to react to account events.

The realtime layer registers a ``before_delete`` hook that cashes the player out
of every table (through :func:`app.db.ledger.release`) before their data is
erased, an ``after_ban`` hook that takes them away from their tables, and an
``after_revoke`` hook that ends their live connections on every process once
their sessions are revoked (logout, password change or reset, deletion, ban).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

UserHook = Callable[[int], Awaitable[None]]


@dataclass
class AccountHooks:
    """Lists of ``async def hook(user_id)`` run at account events, in order."""

    before_delete: list[UserHook] = field(default_factory=list)
    after_ban: list[UserHook] = field(default_factory=list)
    after_revoke: list[UserHook] = field(default_factory=list)

    async def run_before_delete(self, user_id: int) -> None:
        """Run before an account is erased; an exception aborts the deletion."""
        for hook in self.before_delete:
            await hook(user_id)

    async def run_after_ban(self, user_id: int) -> None:
        """Run after a ban is committed."""
        for hook in self.after_ban:
            await hook(user_id)

    async def run_after_revoke(self, user_id: int) -> None:
        """Run after a bump of the user's token version is committed.

        The revocation already holds (no old token authenticates again), so a
        failing hook is logged rather than failing the request that revoked.
        """
        for hook in self.after_revoke:
            try:
                await hook(user_id)
            except Exception:
                log.exception("after_revoke hook for user %s failed", user_id)
