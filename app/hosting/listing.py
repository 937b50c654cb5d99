"""The lobby's listing of open tables (of every process), and where a new table opens.

Each table tells its summary when it changes (:attr:`TableServices.on_summary`); the
listing keeps it (with other processes, where every process reads it) and tells the
lobby's watchers. A tournament's tables are not listed: the lobby lists the tournament.
"""

from __future__ import annotations

from typing import Any

from app.hosting.leases import Leases
from app.hosting.live import LiveTables
from app.hosting.ports import LobbyNotice, Peers


class Listing:
    """Every open table as the lobby shows it."""

    def __init__(self, live: LiveTables, *, leases: Leases, peers: Peers | None,
                 notice: LobbyNotice) -> None:
        self.live = live
        self.leases = leases
        self.peers = peers
        self._notice = notice
        self._listed: dict[str, dict[str, Any]] = {}

    async def tables(self) -> list[dict[str, Any]]:
        """Every open table (of every process) as the lobby shows it, fullest first."""
        listed = (await self.peers.listing() if self.peers is not None
                  else list(self._listed.values()))
        return sorted(listed, key=lambda t: (-t["seated"], t["name"]))

    async def changed(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """A table's summary changed (None: it closed)."""
        if summary is None:
            self._listed.pop(table_id, None)
            if self.peers is not None:
                await self.peers.list_table(table_id, None)
            await self._notice("lobby:table-removed", {"table_id": table_id})
        elif self._in_tournament(table_id):
            return
        elif self._listed.get(table_id) != summary:
            self._listed[table_id] = summary
            if self.peers is not None:
                await self.peers.list_table(table_id, summary)
            await self._notice("lobby:table", summary)

    def _in_tournament(self, table_id: str) -> bool:
        table = self.live.tables.get(table_id)
        return table is not None and table.state.config.tournament is not None

    async def placement(self) -> str | None:
        """Where a new table opens: None for here, or the least-loaded live process."""
        if self.peers is None:
            return None
        me = self.leases.process_id
        # The others' counts as of their last heartbeat; this process's own count now.
        load = {p.id: p.tables for p in await self.leases.peers() if not p.draining}
        load.pop(me, None)
        if not self.live.draining:
            load[me] = len(self.live)
        if not load:
            return None
        # Least loaded first; on a tie, here (no hop), then by id.
        best = min(load, key=lambda peer: (load[peer], peer != me, peer))
        return None if best == me else best
