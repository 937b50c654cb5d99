"""What hosting needs from the edge, as protocols the edge implements.

:class:`Peers` is the other server processes (:class:`app.realtime.cluster.Cluster`
with ``REDIS_URL``; None alone); :class:`Directed` is the work only the tournaments'
director runs (and the restored tables it runs); :class:`Ticker` is such work
taken a step at a time; :data:`LobbyNotice` tells the lobby's watchers a listing changed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from app.table.assigned import TournamentHands
from app.table.state import TableConfig

log = logging.getLogger(__name__)

# Tell everyone watching the lobby: (event, body).
LobbyNotice = Callable[[str, dict[str, Any]], Awaitable[None]]


class Peers(Protocol):
    """The other server processes sharing this database's tables."""

    async def news(self, body: dict[str, Any]) -> None:
        """Tell every process (this one too)."""

    async def tell(self, process_id: str, body: dict[str, Any]) -> None:
        """Tell one process."""

    async def ask(self, process_id: str, event: str, payload: dict[str, Any]
                  ) -> dict[str, Any]:
        """Run an ``internal:*`` request on another process: its answer, or its error."""

    async def direct(self, seconds: float) -> None:
        """Say that this process directs the tournaments, for ``seconds``."""

    async def director(self) -> str | None:
        """The process directing the tournaments, if any."""

    async def list_table(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """Keep (or, with None, drop) a table's lobby entry where every process reads it."""

    async def listing(self) -> list[dict[str, Any]]:
        """Every process's tables' lobby entries."""

    async def prune_listing(self, open_ids: set[str]) -> None:
        """Drop the lobby entries of tables no longer open."""

    def forget_processes(self, gone: set[str]) -> None:
        """Forget what is known of processes that stopped."""


class Directed(Protocol):
    """Work only the director process runs (the tournaments' clocks)."""

    async def resume(self) -> None:
        """Load what is stored (before the tables are restored)."""

    def start(self) -> None:
        """Start running (after the tables are restored)."""

    async def stop(self) -> None:
        """Stop running (before the tables stop)."""


@runtime_checkable
class RunsTables(Directed, Protocol):
    """Directed work that runs tables of its own (the tournaments)."""

    def attach(self, table_id: str, config: TableConfig) -> TournamentHands | None:
        """The tournament a table restored here deals for, if this work runs it."""


class DirectedWork:
    """Every feature's work that only the director runs, as one :class:`Directed`.

    Built before hosting and handed to it; each feature built on the tables adds its
    part when it is installed (:meth:`add`)."""

    def __init__(self) -> None:
        self._parts: list[Directed] = []

    def add(self, part: Directed) -> None:
        """Run ``part`` on the director too."""
        self._parts.append(part)

    async def resume(self) -> None:
        """Load what each part stored (before the tables are restored)."""
        for part in self._parts:
            await part.resume()

    def start(self) -> None:
        """Start each part (after the tables are restored)."""
        for part in self._parts:
            part.start()

    async def stop(self) -> None:
        """Stop each part (before the tables stop)."""
        for part in self._parts:
            await part.stop()

    def attach(self, table_id: str, config: TableConfig) -> TournamentHands | None:
        """The tournament a restored table deals for, from the part that runs it."""
        for part in self._parts:
            if isinstance(part, RunsTables) and (
                    hands := part.attach(table_id, config)) is not None:
                return hands
        return None


class Ticker:
    """Directed work that takes a step every ``tick_seconds`` while this process directs
    (the tournaments' clocks, the schedules); a step that fails is logged and the next
    one comes as usual. A subclass says what a step does (:meth:`step`), and what it
    loads first (:meth:`resume`) if anything."""

    # What the logs and the task call it.
    name = "ticker"

    def __init__(self, *, tick_seconds: float) -> None:
        self.tick_seconds = tick_seconds
        self._task: asyncio.Task[None] | None = None

    async def resume(self) -> None:
        """Load what is stored (nothing, unless a subclass says so)."""

    def start(self) -> None:
        """Step every ``tick_seconds`` from now on."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """Step no more (what a step stored stays)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def step(self) -> Any:
        """One step."""
        raise NotImplementedError

    async def _run(self) -> None:
        while True:
            try:
                await self.step()
            except Exception:
                log.exception("%s failed; trying again", self.name)
            await asyncio.sleep(self.tick_seconds)
