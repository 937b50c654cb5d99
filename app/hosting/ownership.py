"""Claiming tables and keeping them: start-up and standby, orphans and their share-out,
the heartbeat, and the election of the tournaments' director.

Which process runs a table is its lease (:mod:`app.hosting.leases`). Alone (no
``REDIS_URL``), the process holding the database's table lock
(:mod:`app.db.process_lock`) takes every open table, and another one waits for the
lock, trying it every heartbeat, to take them when that process stops; a process
without Redis refuses to start beside processes sharing the tables through Redis
(:class:`RedisMissing`). With Redis, every process runs tables: each claims orphaned
ones (their owner died or let them go) on its heartbeat, shared out by load, and the
holder of the table lock also runs the tournaments (it is their *director*).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from app.db.process_lock import ProcessLock
from app.hosting.errors import RedisMissing, TablesElsewhere
from app.hosting.leases import Lease, Leases, Peer
from app.hosting.live import LiveTables
from app.hosting.ports import DirectedWork, Peers
from app.table.errors import TableMoved
from app.table.state import TableState
from app.table.table import Table, TableServices

log = logging.getLogger(__name__)

# The tournaments' director drops stale lobby entries every this many heartbeats.
PRUNE_EVERY = 30
# An orphan its share-out gave another process, still orphaned after this many
# heartbeats, is claimed by whoever sees it (that process is not claiming).
UNCLAIMED_BEATS = 3


class Ownership:
    """This process's claims on tables, its heartbeat, and whether it directs."""

    def __init__(self, services: TableServices, live: LiveTables, *, leases: Leases,
                 lock: ProcessLock, peers: Peers | None, directed: DirectedWork) -> None:
        self.services = services
        self.live = live
        self.leases = leases
        self.peers = peers
        self._lock = lock
        # Loaded before this process takes the tournaments' tables, started after; it
        # takes the restored tables it runs (a tournament's).
        self._directed = directed
        self.director = False
        # The live processes as last read, with their table counts, and their ids.
        self.processes: list[Peer] = []
        self.alive: set[str] = set()
        # Tables being claimed here: a second claim of one meanwhile is refused, not run.
        self._adopting: set[str] = set()
        # Orphans seen on consecutive heartbeats, and how many.
        self._unclaimed: Counter[str] = Counter()
        self._beats = 0
        self._heartbeat: asyncio.Task[None] | None = None
        # Alone without the table lock: tries it every heartbeat.
        self._standby: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Take this process's tables (alone: all of them, under the table lock; with
        other processes: the orphaned ones), restore them from storage and start them.

        Alone, a process that finds the lock held serves accounts only and takes the
        tables once the holder lets the lock go; one that finds processes sharing the
        tables through Redis raises :class:`RedisMissing`."""
        if self.peers is None:
            await self._refuse_beside_a_cluster()
        self.director = await self._lock.acquire()
        if self.peers is None and not self.director:
            log.warning("another holdem-server process runs the tables of this database: "
                        "this one serves accounts only, and takes the tables when that "
                        "process stops (give this one its own DATABASE_URL, or set "
                        "REDIS_URL on both to share the tables)")
            self._standby = asyncio.create_task(self._wait_for_lock(), name="tables:standby")
            return
        await self._direct_and(self._take_tables)

    async def _refuse_beside_a_cluster(self) -> None:
        others = [p for p in await self.leases.peers() if p.id != self.leases.process_id]
        if others:
            raise RedisMissing(
                f"{len(others)} live holdem-server process(es) share this database's tables "
                "through Redis, and this one has no REDIS_URL: set REDIS_URL (and "
                "REDIS_CHANNEL) as they have, or give this process its own DATABASE_URL")

    async def _wait_for_lock(self) -> None:
        """Alone without the table lock: try it every heartbeat; take the tables once held."""
        every = self.services.settings.heartbeat_seconds
        while True:
            await asyncio.sleep(every)
            try:
                if not await self._lock.acquire():
                    continue
                self.director = True
                log.info("the process that ran the tables stopped: this one runs them now")
                await self._direct_and(self._take_tables)
                return
            except Exception:
                log.exception("taking the tables over failed; trying again")

    async def _take_tables(self) -> None:
        self.live.start_running()
        if self.peers is None:
            for record in await self.services.store.open_tables():
                await self.adopt(Lease(record.id, record.lease_owner, record.lease_token,
                                       record.tournament_id is not None))
        else:
            await self.leases.register()
            await self.read_processes()
            if self.director:
                await self.peers.direct(3 * self.leases.lease_seconds)
            await self.adopt_orphans()
            self._heartbeat = asyncio.create_task(self._keep_leases(), name="tables:leases")
        if self.live.tables:
            log.info("restored %d tables", len(self.live))

    async def adopt(self, lease: Lease) -> Table | None:
        """Claim a table and restore it from what was committed, as a restart does (None:
        it was claimed by another, or is being claimed here already)."""
        if lease.table_id in self._adopting:
            return None
        self._adopting.add(lease.table_id)
        try:
            return await self._claim(lease)
        finally:
            self._adopting.discard(lease.table_id)

    async def _claim(self, lease: Lease) -> Table | None:
        token = await self.leases.claim(lease)
        if token is None:
            return None
        record = await self.services.store.table(lease.table_id)
        if record is None:
            return None
        try:
            state = TableState.from_dict(record.state)
            stored_hand = state.current
            table = await Table.restore(record.id, state, self.services, lease=token,
                                        draining=self.live.draining,
                                        attach=self._directed.attach)
            if stored_hand is not None and table.state.current is None:
                # The hand was voided: the sessions re-joined here are told so.
                self.live.voided_at[table.id] = int(record.state["seq"])
        except TableMoved:
            return None
        except Exception:
            log.exception("table %s could not be restored", record.id)
            return None
        await self._check_escrow(table)
        self.live.add(table, record.owner_id, claimed=True)
        if self.live.draining:
            # The drain began while the table was being restored: it deals no hand here.
            table.drain()
        await table.start()
        await self.services.on_summary(table.id, table.summary())
        self.services.metrics.lease_moves.labels("claimed").inc()
        if self.peers is not None:
            log.info("took over table %s (lease %d)", table.id, token)
            await self.peers.news({"kind": "adopted", "table_id": table.id})
        return table

    async def _check_escrow(self, table: Table) -> None:
        held = await self.services.store.escrowed_at(table.id)
        if held != table.state.escrowed():
            log.error("table %s: the ledger holds %d, the seats account for %d",
                      table.id, held, table.state.escrowed())

    async def read_processes(self) -> None:
        """Read which processes are alive (and forget those that stopped)."""
        self.processes = await self.leases.peers()
        alive = {p.id for p in self.processes}
        if self.peers is not None and (gone := self.alive - alive):
            self.peers.forget_processes(gone)
        self.alive = alive

    async def adopt_orphans(self) -> None:
        """Claim this process's share of the tables nobody alive runs: tournament tables
        go to the tournaments' director; the others are shared out by load (see
        :func:`share_out`), so the processes even out their table counts."""
        if self.live.draining or not self.leases.settled():
            # Right after a database outage every lease looks lapsed: wait until the
            # live owners have beaten again, so each keeps its tables.
            return
        orphans = await self.leases.orphans()
        self._unclaimed = Counter({o.table_id: self._unclaimed[o.table_id] + 1
                                   for o in orphans})
        if not orphans:
            return
        tables = [o for o in orphans if not o.tournament]
        load = {p.id: p.tables for p in self.processes if not p.draining}
        load[self.leases.process_id] = len(self.live)
        mine = set(share_out([o.table_id for o in tables], load, self.leases.process_id))
        for lease in orphans:
            if lease.tournament:
                claim = self.director
            else:
                claim = (lease.table_id in mine
                         or self._unclaimed[lease.table_id] > UNCLAIMED_BEATS)
            if claim:
                await self.adopt(lease)

    async def _keep_leases(self) -> None:
        """Beat the heartbeat; give up tables taken away; claim orphans; become the
        tournaments' director when the lock comes free."""
        every = self.services.settings.heartbeat_seconds
        while True:
            await asyncio.sleep(every)
            try:
                await self._beat()
            except Exception:
                log.exception("keeping the table leases failed; trying again")

    async def _beat(self) -> None:
        await self.leases.heartbeat(len(self.live), draining=self.live.draining)
        held = {tid: t.lease for tid, t in self.live.tables.items()
                if t.lease is not None and not t.lost}
        mine = await self.leases.still_mine({k: v for k, v in held.items() if v is not None})
        for table_id in set(held) - mine:
            table = self.live.tables.get(table_id)
            if table is not None and not table.closed and (
                    leaving := table.give_up()) is not None:
                await leaving
        await self.read_processes()
        self._beats += 1
        if self.director and self.peers is not None:
            await self.peers.direct(3 * self.leases.lease_seconds)
            if self._beats % PRUNE_EVERY == 0:
                await self.peers.prune_listing(await self.leases.open_ids())
        if self.live.draining:
            return
        if not self.director and await self._lock.acquire():
            self.director = True
            log.info("this process now runs the tournaments")
            if self.peers is not None:
                await self.peers.direct(3 * self.leases.lease_seconds)
            await self._direct_and(self.adopt_orphans)
            return
        await self.adopt_orphans()

    async def _direct_and(self, take_tables: Callable[[], Awaitable[None]]) -> None:
        """Take tables; as the director, with the tournaments loaded before and their
        clocks started after."""
        if self.director:
            await self._directed.resume()
        await take_tables()
        if self.director:
            self._directed.start()

    def require_director(self) -> None:
        """Raise :class:`TablesElsewhere` unless this process runs the tournaments."""
        if not self.director:
            raise TablesElsewhere("tournaments run on another server process of this "
                                  "database", retry_after=5)

    async def lost(self, table_id: str) -> None:
        """Another process runs the table now: stop it here and forget it."""
        table = self.live.tables.get(table_id)
        self.live.forget(table_id)
        if table is not None:
            self.services.metrics.lease_moves.labels("lost").inc()
            await table.stop()

    async def leases_held(self) -> int:
        """How many tables this process holds the lease of, as the database says (as this
        process believes when the database cannot be asked)."""
        held = {tid: t.lease for tid, t in self.live.tables.items()
                if t.lease is not None and not t.lost and not t.closed}
        tokens = {k: v for k, v in held.items() if v is not None}
        try:
            return len(await self.leases.still_mine(tokens))
        except Exception:
            return len(tokens)

    def stop_waiting(self) -> None:
        """Stop waiting for the table lock (alone, on standby)."""
        if self._standby is not None:
            self._standby.cancel()

    def stop_beating(self) -> None:
        """Stop the heartbeat (the tables' leases lapse unless released)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()

    async def release_all(self) -> None:
        """Let every table of this process go (to the others), and the table lock."""
        if self.live.running:
            await self._release_leases()
        await self._lock.release()
        self.live.stop_running()

    async def _release_leases(self) -> None:
        # A snapshot: a table adopted while this process was stopping may still arrive.
        released = [tid for tid, t in list(self.live.tables.items())
                    if t.lease is not None and not t.lost
                    and await self.leases.release(tid, t.lease)]
        self.services.metrics.lease_moves.labels("released").inc(len(released))
        try:
            await self.leases.unregister()
            if self.peers is not None and released:
                await self.peers.news({"kind": "released", "tables": released})
        except Exception:
            log.exception("telling the other processes about released tables failed")


def share_out(orphans: list[str], load: dict[str, int], me: str) -> list[str]:
    """The orphans that fall to ``me`` when each, in turn, goes to the live process
    running the fewest tables (``load``: process id → table count; ties to the
    smaller id). Every process that reads the same counts computes the same split.

    >>> share_out(["t1", "t2", "t3", "t4"], {"a": 2, "b": 2, "c": 0}, "c")
    ['t1', 't2']
    >>> share_out(["t1", "t2"], {"a": 3, "b": 3}, "b")
    ['t2']
    """
    heap = [(count, process) for process, count in load.items()]
    heapq.heapify(heap)
    mine = []
    for table_id in orphans:
        count, process = heapq.heappop(heap)
        if process == me:
            mine.append(table_id)
        heapq.heappush(heap, (count + 1, process))
    return mine
