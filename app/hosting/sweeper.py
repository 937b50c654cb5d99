"""Closing the tables nobody has used for a while (``TABLE_IDLE_SECONDS``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.errors import HoldemError
from app.hosting.live import LiveTables
from app.table.table import Table

log = logging.getLogger(__name__)


class IdleSweeper:
    """Closes each table of this process where no person has sat, claimed a seat or
    waited for ``idle_seconds``."""

    def __init__(self, live: LiveTables, *, idle_seconds: float, now: Callable[[], float],
                 close: Callable[[str, str], Awaitable[Any]]) -> None:
        self.live = live
        self.idle_seconds = idle_seconds
        self.now = now
        self._close = close
        self._idle_since: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Sweep every quarter of the idle time (at most every 30 s)."""
        self._task = asyncio.create_task(self._sweep_forever(), name="tables:idle")

    def stop(self) -> None:
        """Sweep no more."""
        if self._task is not None:
            self._task.cancel()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(max(0.05, min(30.0, self.idle_seconds / 4)))
            await self.sweep()

    async def sweep(self) -> None:
        """Close the tables idle for long enough; note when the others became idle."""
        now = self.now()
        self._idle_since = {tid: at for tid, at in self._idle_since.items()
                            if tid in self.live.tables}
        for table in list(self.live.tables.values()):
            if table.closed or table.unavailable or _people_at(table):
                self._idle_since.pop(table.id, None)
                continue
            since = self._idle_since.setdefault(table.id, now)
            if now - since >= self.idle_seconds:
                try:
                    await self._close(table.id, "nobody has played here for a while")
                except HoldemError as error:
                    log.info("idle table %s stays open: %s", table.id, error.code)


def _people_at(table: Table) -> bool:
    """Whether a person sits at, has claimed a seat at, or waits for the table."""
    state = table.state
    return bool(state.config.tournament is not None or state.humans() or state.waiting
                or any(p.successor for p in state.players.values()))
