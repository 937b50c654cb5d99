"""Finding the process that runs a table, or the tournaments.

A request about a table run elsewhere is forwarded to its owner. The owner is read from
the table's lease once, then cached until news says it changed (:meth:`Owners.drop`).
A table nobody alive runs is claimed here and now, unless this process is draining or
the database just came back (its owner may not have beaten again yet: see
:meth:`~app.hosting.leases.Leases.settled`).
"""

from __future__ import annotations

from typing import Any

from app.hosting.errors import TableNotFound, TablesElsewhere, moving
from app.hosting.ownership import Ownership
from app.hosting.ports import Peers

# At most this many owners of tables run elsewhere are cached.
MAX_CACHED_OWNERS = 100_000


class Owners:
    """Where each table runs, as this process last learnt it."""

    def __init__(self, ownership: Ownership, peers: Peers | None) -> None:
        self.ownership = ownership
        self.peers = peers
        self.leases = ownership.leases
        # The process running each table run elsewhere, as last read, and how many times
        # such an entry was dropped (a read that overlapped a drop is not kept).
        self._elsewhere: dict[str, str] = {}
        self._drops = 0

    async def owner(self, table_id: str) -> str | None:
        """The process to send a request about this table to: None for this one (the
        table runs here, or does not exist, which the request finds out).

        Raises :class:`~app.table.errors.TableMoved` (ask again shortly) when the table
        is orphaned but may not be claimed here now, or another claimed it meanwhile."""
        table = self.ownership.live.tables.get(table_id)
        if self.peers is None or (table is not None and not table.lost):
            return None
        alive = self.ownership.alive
        cached = self._elsewhere.get(table_id)
        if cached is not None and cached in alive:
            return cached
        drops = self._drops
        lease = await self.leases.lease_of(table_id)
        if lease is None:
            return None
        if lease.owner is not None and lease.owner != self.leases.process_id:
            if lease.owner not in alive:
                # A process that started since the last heartbeat: look again before
                # taking its table.
                await self.ownership.read_processes()
            if lease.owner in self.ownership.alive:
                if len(self._elsewhere) >= MAX_CACHED_OWNERS:
                    # Closed tables are never announced: start over rather than grow.
                    self._elsewhere.clear()
                if drops == self._drops:
                    self._elsewhere[table_id] = lease.owner
                return lease.owner
        if (self.ownership.live.draining or (lease.tournament and not self.ownership.director)
                or not self.leases.settled()):
            raise moving(table_id)
        if await self.ownership.adopt(lease) is None:
            raise moving(table_id)
        return None

    def drop(self, table_id: str) -> None:
        """Forget the cached owner of a table (it moved, or did not answer as its owner)."""
        self._drops += 1
        self._elsewhere.pop(table_id, None)

    async def stored_open(self, table_id: str) -> bool:
        """Whether an open table with this id is stored, whoever runs it: here, elsewhere,
        or nobody yet (its owner died, and the table waits for the next claim)."""
        return (table_id in self.ownership.live.tables
                or await self.leases.lease_of(table_id) is not None)

    async def take_handed(self, table_id: str) -> None:
        """Run a table whose lease another process handed to this one (a move)."""
        if table_id in self.ownership.live.tables or self.ownership.live.draining:
            return
        lease = await self.leases.lease_of(table_id)
        if lease is not None and lease.owner == self.leases.process_id:
            await self.ownership.adopt(lease)

    async def director(self) -> str | None:
        """The process to send a tournament request to: None for this one."""
        if self.peers is None or self.ownership.director:
            return None
        director = await self.peers.director()
        if director is None:
            raise TablesElsewhere("the server running the tournaments is changing: try "
                                  "again", retry_after=2)
        return director

    async def ask_owner(self, owner: str, table_id: str, event: str,
                        payload: dict[str, Any]) -> dict[str, Any]:
        """Run an ``internal:*`` request about a table on ``owner``, its process as
        :meth:`owner` found it. An owner that let the table go meanwhile (a move) answers
        ``table_not_found``: that owner is forgotten here, and the caller is told to ask
        again (``table_moved``), when the table's new owner answers."""
        assert self.peers is not None  # an owner elsewhere: there are other processes
        try:
            return await self.peers.ask(owner, event, payload)
        except TableNotFound:
            self.drop(table_id)
            raise moving(table_id) from None

    async def ask_every_process(self, event: str, payload: dict[str, Any]
                                ) -> list[dict[str, Any]]:
        """Run an ``internal:*`` request on every other live process."""
        if self.peers is None:
            return []
        return [await self.peers.ask(process, event, payload)
                for process in sorted(self.ownership.alive - {self.leases.process_id})]
