"""The tables this process hosts: opening, closing and stopping them.

:class:`TableHost` is what the rest of the application holds of hosting: it starts the
claiming of tables (:mod:`app.hosting.ownership`) and the idle sweep
(:mod:`app.hosting.sweeper`), opens new tables, closes them, takes a user away from
every table, and stops them for a deploy after their hands end (a deploy voids no
hand). The tables themselves are in :attr:`TableHost.live`
(:class:`~app.hosting.live.LiveTables`); where a table runs is :attr:`TableHost.owners`
(:class:`~app.hosting.owners.Owners`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.hosting.errors import moving
from app.hosting.listing import Listing
from app.hosting.live import LiveTables
from app.hosting.owners import Owners
from app.hosting.ownership import Ownership
from app.hosting.sweeper import IdleSweeper
from app.table.acks import Closed
from app.table.commands import Close, RemoveUser
from app.table.state import TableConfig, TableState
from app.table.table import Attach, Table, TableServices


class TableHost:
    """Every table this process runs, and its life from start to stop."""

    def __init__(self, services: TableServices, *, live: LiveTables, ownership: Ownership,
                 owners: Owners, listing: Listing) -> None:
        self.services = services
        self.live = live
        self.ownership = ownership
        self.owners = owners
        self.listing = listing
        self.leases = ownership.leases
        self.sweeper = IdleSweeper(live, idle_seconds=services.settings.table_idle_seconds,
                                   now=services.now, close=self.close)
        self._drain_deadline: float | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    async def start(self) -> None:
        """Take this process's tables (see :meth:`Ownership.start`) and sweep idle ones
        (alone on standby, none until the tables come here)."""
        await self.ownership.start()
        self.sweeper.start()

    def begin_drain(self) -> float:
        """Deal no new hand at any table of this process (the hands in play go on); the
        loop time by which the drain ends (``DRAIN_SECONDS`` after it began)."""
        if self._drain_deadline is None:
            self._drain_deadline = (asyncio.get_running_loop().time()
                                    + self.services.settings.drain_seconds)
        self.live.begin_drain()
        if self.live.running and self.ownership.peers is not None:
            # The others stop placing new tables here at once, not a heartbeat later.
            task = asyncio.ensure_future(self.leases.heartbeat(len(self.live), draining=True))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return self._drain_deadline

    async def drained(self) -> None:
        """Wait until every table of this process is between hands, or the drain's time
        is up (a hand still in play then is stored, and goes on at the next start)."""
        deadline = self.begin_drain()
        loop = asyncio.get_running_loop()
        while self.live.hands_in_play() and loop.time() < deadline:
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """Drain (see :meth:`drained`), stop every table's task (their state is stored),
        then let the tables go to the other processes and give the lock up."""
        self.sweeper.stop()
        self.ownership.stop_waiting()
        await self.drained()
        self.ownership.stop_beating()
        for table in list(self.live.tables.values()):
            await table.stop(refusal=moving)
        await self.services.store.writer.stop()
        await self.ownership.release_all()

    async def open(
        self, table_id: str, config: TableConfig, *, owner_id: int | None = None,
        open_limit: int | None = None, attach: Attach | None = None,
    ) -> Table:
        """Open a new table here and start it (``open_limit``: only while its owner has
        fewer open tables, on every process; ``attach``: gives the tournament it deals
        for, by a feature that runs the table, such as a tournament)."""
        self.live.require_running()
        state = TableState(config)
        token = await self.services.store.create(table_id, owner_id, config.to_dict(),
                                                 state.to_dict(),
                                                 lease_owner=self.leases.process_id,
                                                 open_limit=open_limit)
        table = Table(table_id, state, self.services, lease=token,
                      draining=self.live.draining,
                      tournament=attach(table_id, config) if attach is not None else None)
        self.live.add(table, owner_id, claimed=False)
        await table.start()
        await self.services.on_summary(table_id, table.summary())
        return table

    async def table_changed(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """A table's summary changed (None: it closed, and is forgotten here)."""
        if summary is None:
            self.live.forget(table_id)
        await self.listing.changed(table_id, summary)

    async def close(self, table_id: str, reason: str) -> Closed:
        """Close a table, paying everyone out."""
        table = self.live.get(table_id)
        result: Closed = await table.ask(Close(reason))
        return result

    async def remove_user(self, user_id: int, *, at_once: bool) -> None:
        """Take a user away from every table of every process (ban: after the hand;
        deletion: chips now). Raises when another process cannot be reached, so an
        account is never deleted with chips still at a table."""
        await self.remove_user_here(user_id, at_once=at_once)
        await self.owners.ask_every_process("internal:remove-user",
                                            {"user_id": user_id, "at_once": at_once})

    async def remove_user_here(self, user_id: int, *, at_once: bool) -> None:
        """Take a user away from the tables this process runs."""
        for table in list(self.live.tables.values()):
            if table.closed:
                continue
            if table.state.has_seat(user_id) or any(
                p.user_id == user_id for p in table.state.waiting
            ):
                await table.ask(RemoveUser(user_id, at_once))
