"""The chat log's writer: the lines the tables said, stored in batches, and pruned.

Tables keep each line in :class:`app.chat.safety.ChatSafety` (memory only); every
``FLUSH_SECONDS`` this writer stores what waits in one insert, and a minute after start
and then once an hour deletes lines older than ``CHAT_LOG_DAYS``. A line that cannot be
stored (the database away) waits for the next flush.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime

from app.chat import store
from app.chat.safety import ChatSafety
from app.db.engine import Database

log = logging.getLogger(__name__)

FLUSH_SECONDS = 1.0
PRUNE_SECONDS = 3600.0
FIRST_PRUNE_SECONDS = 60.0


class ChatLog:
    """Stores the lines ``safety`` holds, and prunes the old ones."""

    def __init__(self, safety: ChatSafety, database: Database, *, days: int) -> None:
        self._safety = safety
        self._database = database
        self._days = days
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start writing."""
        self._task = asyncio.create_task(self._run(), name="chat:log")

    async def stop(self) -> None:
        """Stop, storing the lines still waiting."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self.flush()

    async def flush(self) -> None:
        """Store the lines said since the last flush (kept for the next one on failure)."""
        lines = self._safety.take_said()
        if not lines:
            return
        try:
            async with self._database.sessions() as session:
                await store.write_lines(session, lines)
                await session.commit()
        except Exception as error:
            log.warning("chat log: %d lines not stored yet: %r", len(lines), error)
            self._safety.put_back(lines)

    async def prune(self) -> int:
        """Delete the lines older than ``days`` days; how many."""
        async with self._database.sessions() as session:
            count = await store.prune_lines(session, days=self._days, now=datetime.now(UTC))
            await session.commit()
        return count

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        # The first pruning a minute after start (not in the rush of a start), then hourly.
        pruned_at = loop.time() - PRUNE_SECONDS + FIRST_PRUNE_SECONDS
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.flush()
            if loop.time() - pruned_at >= PRUNE_SECONDS:
                pruned_at = loop.time()
                try:
                    await self.prune()
                except Exception as error:
                    log.warning("chat log: pruning failed: %r", error)
