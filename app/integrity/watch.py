"""The periodic integrity work: the scan every ``INTEGRITY_SCAN_MINUTES`` and the pruning
of sign-in records older than ``SIGN_IN_RECORD_DAYS``, hourly.

It runs where the server's other periodic work runs: the worker process (see
:mod:`app.worker`), or the server's own process with ``WORKER=inline``. Several servers'
workers may scan at once: a flag is raised once per subject, so they raise nothing twice
but in a rare race.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from app.config import Settings
from app.db.engine import Database
from app.integrity import signins
from app.integrity.scan import scan

log = logging.getLogger(__name__)

PRUNE_SECONDS = 3600.0
FIRST_SECONDS = 60.0  # the first round a minute after start, not in the rush of a start


class IntegrityWatch:
    """Scans and prunes on a timer until stopped."""

    def __init__(self, settings: Settings, database: Database) -> None:
        self._settings = settings
        self._database = database
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the timer."""
        self._task = asyncio.create_task(self._run(), name="integrity:watch")

    async def stop(self) -> None:
        """Stop the timer (a round under way is cancelled: it commits nothing)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def scan(self) -> int:
        """One scan; how many flags it raised."""
        async with self._database.sessions() as session:
            raised = await scan(session, self._settings, now=datetime.now(UTC))
            await session.commit()
        if raised:
            log.info("integrity scan raised %d flags", len(raised))
        return len(raised)

    async def prune(self) -> int:
        """Delete the sign-in records older than the kept days; how many."""
        async with self._database.sessions() as session:
            count = await signins.prune(session, days=self._settings.sign_in_record_days,
                                        now=datetime.now(UTC))
            await session.commit()
        return count

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        every = self._settings.integrity_scan_minutes * 60.0
        pruned_at = loop.time() - PRUNE_SECONDS + FIRST_SECONDS
        scanned_at = loop.time() - every + FIRST_SECONDS
        while True:
            await asyncio.sleep(FIRST_SECONDS / 4)
            if loop.time() - pruned_at >= PRUNE_SECONDS:
                pruned_at = loop.time()
                await self._guarded(self.prune, "pruning sign-in records")
            if every and loop.time() - scanned_at >= every:
                scanned_at = loop.time()
                await self._guarded(self.scan, "the scan")

    async def _guarded(self, work: Callable[[], Awaitable[int]], what: str) -> None:
        try:
            await work()
        except Exception as error:
            log.warning("integrity: %s failed: %r", what, error)
