"""The tables this process hosts: restoring them, their leases, their owners, stopping.

:class:`TableHost` owns the tables this process runs: it restores them from
storage when the server starts, stops their tasks when it stops (after their
hands end: a deploy voids no hand), closes tables no person has used for a
while, finds the process that runs a table, and keeps track of the sessions
watching each table. The lobby (:mod:`app.realtime.lobby`) opens new tables
through it.

Which process runs a table is its lease (:mod:`app.realtime.leases`). Alone
(no ``REDIS_URL``), the process holding the database's table lock
(:mod:`app.db.process_lock`) takes every open table, and another one waits for
the lock, trying it every heartbeat, to take them when that process stops; a
process without Redis refuses to start beside processes sharing the tables
through Redis (:class:`RedisMissing`). With Redis, every process
runs tables: each claims orphaned ones (their owner died or let them go) on its
heartbeat, new tables go to the least-loaded process, requests reach the owner
through :mod:`app.realtime.cluster` (the owners of tables run elsewhere are cached
until news says they changed), a table moves to the process its players reach
(:mod:`app.realtime.moves`), and the holder of the table lock also runs the
tournaments.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import socketio

from app.db.process_lock import ProcessLock
from app.db.tables import TableRecord
from app.errors import HoldemError
from app.realtime.cluster import Cluster, answer_error, viewer_from_dict, viewer_to_dict
from app.realtime.connections import Connections
from app.realtime.errors import TableNotFound, TablesElsewhere
from app.realtime.leases import Lease, Leases, Peer
from app.table.commands import Close, Disconnected, Join, RemoveUser
from app.table.errors import TableMoved
from app.table.state import TableConfig, TableState, Viewer
from app.table.table import Attach, Table, TableServices

log = logging.getLogger(__name__)

# The tournaments' director drops stale lobby entries every this many heartbeats.
PRUNE_EVERY = 30
# An orphan its share-out gave another process, still orphaned after this many
# heartbeats, is claimed by whoever sees it (that process is not claiming).
UNCLAIMED_BEATS = 3
# At most this many owners of tables run elsewhere are cached.
MAX_CACHED_OWNERS = 100_000


class RedisMissing(RuntimeError):
    """This process has no ``REDIS_URL``, but live processes share this database's tables
    through Redis: run alone, it would take their tables from under them."""


class TableHost:
    """Every table this process runs."""

    def __init__(self, services: TableServices, *, sio: socketio.AsyncServer,
                 connections: Connections, lock: ProcessLock, leases: Leases) -> None:
        self.services = services
        self.sio = sio
        self.connections = connections
        self.tables: dict[str, Table] = {}
        self.owners: dict[str, int | None] = {}
        # The loop time each table came to this process by a claim (a takeover or a move).
        self.arrived: dict[str, float] = {}
        # The process running each table run elsewhere, as last read, and how many times
        # such an entry was dropped (a read that overlapped a drop is not kept).
        self._elsewhere: dict[str, str] = {}
        self._drops = 0
        # Tables being claimed here: a second claim of one meanwhile is refused, not run.
        self._adopting: set[str] = set()
        self.running = False
        # This process runs the tournaments (it holds the table lock).
        self.director = False
        self.draining = False
        self._drain_deadline: float | None = None
        # Tables whose stored hand was voided on restore: the seq they were stored at.
        self._voided_at: dict[str, int] = {}
        self.leases = leases
        # Set with REDIS_URL: the other processes.
        self.cluster: Cluster | None = None
        # Set by the tournaments, for when this process becomes their director: load them
        # before it takes their tables (a table deals from its tournament's standings),
        # and start their clocks once it has.
        self.on_director: Callable[[], Awaitable[None]] = _nothing
        self.directing: Callable[[], None] = lambda: None
        self._lock = lock
        self.live: set[str] = set()
        # The live processes as last read, with their table counts.
        self.peers: list[Peer] = []
        # Orphans seen on consecutive heartbeats, and how many.
        self._unclaimed: Counter[str] = Counter()
        self._heartbeat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._beats = 0
        self._watching: defaultdict[str, set[str]] = defaultdict(set)
        self._idle_since: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        # Alone without the table lock: tries it every heartbeat.
        self._standby: asyncio.Task[None] | None = None
        # Set by the tournaments: attach a restored tournament table to its tournament.
        self.attach_restored: Attach = lambda _id, _config: None
        # Set by the moves: another process asks for a table (its id, the asker, the
        # player it asks for).
        self.on_move_asked: Callable[[str, str, int | None], Awaitable[None]] = _nobody_moves
        services.on_lost = self._lost

    # ---- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Take this process's tables (alone: all of them, under the table lock; with
        other processes: the orphaned ones), restore them from storage and start them.

        Alone, a process that finds the lock held serves accounts only and takes the
        tables once the holder lets the lock go; one that finds processes sharing the
        tables through Redis raises :class:`RedisMissing`."""
        if self.cluster is None:
            await self._refuse_beside_a_cluster()
        self.director = await self._lock.acquire()
        if self.cluster is None and not self.director:
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
        self.running = True
        if self.cluster is None:
            for record in await self.services.store.open_tables():
                await self._adopt(Lease(record.id, record.lease_owner, record.lease_token,
                                        record.tournament_id is not None))
        else:
            await self.leases.register()
            await self._read_peers()
            if self.director:
                await self.cluster.direct(3 * self.leases.lease_seconds)
            await self._adopt_orphans()
            self._heartbeat = asyncio.create_task(self._keep_leases(), name="tables:leases")
        if self.tables:
            log.info("restored %d tables", len(self.tables))
        self._sweeper = asyncio.create_task(self._close_idle_tables(), name="tables:idle")

    async def _adopt(self, lease: Lease) -> Table | None:
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
                                        draining=self.draining, attach=self.attach_restored)
            if stored_hand is not None and table.state.current is None:
                # The hand was voided: the sessions re-joined here are told so.
                self._voided_at[table.id] = int(record.state["seq"])
        except TableMoved:
            return None
        except Exception:
            log.exception("table %s could not be restored", record.id)
            return None
        await self._check_escrow(table)
        self._run(table, record)
        if self.draining:
            # The drain began while the table was being restored: it deals no hand here.
            table.drain()
        await table.start()
        await self.services.on_summary(table.id, table.summary())
        self.services.metrics.lease_moves.labels("claimed").inc()
        if self.cluster is not None:
            log.info("took over table %s (lease %d)", table.id, token)
            await self.cluster.news({"kind": "adopted", "table_id": table.id})
        return table

    def _run(self, table: Table, record: TableRecord) -> None:
        self.tables[table.id] = table
        self.owners[table.id] = record.owner_id
        self.arrived[table.id] = asyncio.get_running_loop().time()

    async def _read_peers(self) -> None:
        self.peers = await self.leases.peers()
        live = {p.id for p in self.peers}
        if self.cluster is not None and (gone := self.live - live):
            self.cluster.forget_processes(gone)
        self.live = live

    async def _adopt_orphans(self) -> None:
        """Claim this process's share of the tables nobody alive runs: tournament tables
        go to the tournaments' director; the others are shared out by load (see
        :func:`share_out`), so the processes even out their table counts."""
        if self.draining or not self.leases.settled():
            # Right after a database outage every lease looks lapsed: wait until the
            # live owners have beaten again, so each keeps its tables.
            return
        orphans = await self.leases.orphans()
        self._unclaimed = Counter({o.table_id: self._unclaimed[o.table_id] + 1
                                   for o in orphans})
        if not orphans:
            return
        tables = [o for o in orphans if not o.tournament]
        load = {p.id: p.tables for p in self.peers if not p.draining}
        load[self.leases.process_id] = len(self.tables)
        mine = set(share_out([o.table_id for o in tables], load, self.leases.process_id))
        for lease in orphans:
            if lease.tournament:
                claim = self.director
            else:
                claim = (lease.table_id in mine
                         or self._unclaimed[lease.table_id] > UNCLAIMED_BEATS)
            if claim:
                await self._adopt(lease)

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
        await self.leases.heartbeat(len(self.tables), draining=self.draining)
        held = {tid: t.lease for tid, t in self.tables.items()
                if t.lease is not None and not t.lost}
        mine = await self.leases.still_mine({k: v for k, v in held.items() if v is not None})
        for table_id in set(held) - mine:
            table = self.tables.get(table_id)
            if table is not None and not table.closed and (
                    leaving := table.give_up()) is not None:
                await leaving
        await self._read_peers()
        self._beats += 1
        if self.director and self.cluster is not None:
            await self.cluster.direct(3 * self.leases.lease_seconds)
        if self.director and self.cluster is not None and self._beats % PRUNE_EVERY == 0:
            await self.cluster.prune_listing(await self.leases.open_ids())
        if self.draining:
            return
        if not self.director and await self._lock.acquire():
            self.director = True
            log.info("this process now runs the tournaments")
            if self.cluster is not None:
                await self.cluster.direct(3 * self.leases.lease_seconds)
            await self._direct_and(self._adopt_orphans)
            return
        await self._adopt_orphans()

    async def _direct_and(self, take_tables: Callable[[], Awaitable[None]]) -> None:
        """Take tables; as the director, with the tournaments loaded before and their
        clocks started after."""
        if self.director:
            await self.on_director()
        await take_tables()
        if self.director:
            self.directing()

    async def _lost(self, table_id: str) -> None:
        """Another process runs the table now: stop it here and forget it."""
        table = self.tables.get(table_id)
        self.forget(table_id)
        if table is not None:
            self.services.metrics.lease_moves.labels("lost").inc()
            await table.stop()

    async def rejoin(self, table_id: str, sessions: list[tuple[str, Viewer | None]]) -> None:
        """Sessions that watched a table before it came to this process watch it again
        (each gets a snapshot and the messages from then on)."""
        table = self.tables.get(table_id)
        if table is None or table.closed:
            return
        # After a void, the messages since the table came here (the hand_voided first),
        # else a snapshot: the sessions saw at most what the last owner stored.
        since = self._voided_at.get(table_id)
        for sid, viewer in sessions:
            if table.admitted(viewer):
                await table.ask(Join(sid, viewer, None, since))
                await self.watching(sid, table_id)

    async def _check_escrow(self, table: Table) -> None:
        held = await self.services.store.escrowed_at(table.id)
        if held != table.state.escrowed():
            log.error("table %s: the ledger holds %d, the seats account for %d",
                      table.id, held, table.state.escrowed())

    def begin_drain(self) -> float:
        """Deal no new hand at any table of this process (the hands in play go on); the
        loop time by which the drain ends (``DRAIN_SECONDS`` after it began)."""
        if self._drain_deadline is None:
            self._drain_deadline = (asyncio.get_running_loop().time()
                                    + self.services.settings.drain_seconds)
        self.draining = True
        for table in self.tables.values():
            table.drain()
        if self.running and self.cluster is not None:
            # The others stop placing new tables here at once, not a heartbeat later.
            self._background(self.leases.heartbeat(len(self.tables), draining=True))
        return self._drain_deadline

    async def leases_held(self) -> int:
        """How many tables this process holds the lease of, as the database says (as this
        process believes when the database cannot be asked)."""
        held = {tid: t.lease for tid, t in self.tables.items()
                if t.lease is not None and not t.lost and not t.closed}
        tokens = {k: v for k, v in held.items() if v is not None}
        try:
            return len(await self.leases.still_mine(tokens))
        except Exception:
            return len(tokens)

    def hands_in_play(self) -> int:
        """How many tables of this process are in the middle of a hand."""
        return len(self.hands_at(self.tables))

    def hands_at(self, table_ids: Iterable[str]) -> dict[str, str]:
        """The hand in play at each of these tables that this process runs (table id →
        hand id); tables between hands, or not run here, are left out."""
        hands = {}
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if (table is not None and table.state.current is not None and not table.closed
                    and not table.lost):
                hands[table_id] = table.state.current.id
        return hands

    async def drained(self) -> None:
        """Wait until every table of this process is between hands, or the drain's time
        is up (a hand still in play then is stored, and goes on at the next start)."""
        deadline = self.begin_drain()
        loop = asyncio.get_running_loop()
        while self.hands_in_play() and loop.time() < deadline:
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """Drain (see :meth:`drained`), stop every table's task (their state is stored),
        then let the tables go to the other processes and give the lock up."""
        for task in (self._sweeper, self._standby):
            if task is not None:
                task.cancel()
        await self.drained()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for table in list(self.tables.values()):
            await table.stop(refusal=_moving)
        await self.services.store.writer.stop()
        if self.running:
            await self._release_all()
        await self._lock.release()
        self.running = False

    async def _release_all(self) -> None:
        # A snapshot: a table adopted while this process was stopping may still arrive.
        released = [tid for tid, t in list(self.tables.items())
                    if t.lease is not None and not t.lost
                    and await self.leases.release(tid, t.lease)]
        self.services.metrics.lease_moves.labels("released").inc(len(released))
        try:
            await self.leases.unregister()
            if self.cluster is not None and released:
                await self.cluster.news({"kind": "released", "tables": released})
        except Exception:
            log.exception("telling the other processes about released tables failed")

    async def _close_idle_tables(self) -> None:
        idle = self.services.settings.table_idle_seconds
        while True:
            await asyncio.sleep(max(0.05, min(30.0, idle / 4)))
            now = self.services.now()
            for table in list(self.tables.values()):
                if table.closed or table.unavailable or _people_at(table):
                    self._idle_since.pop(table.id, None)
                    continue
                since = self._idle_since.setdefault(table.id, now)
                if now - since >= idle:
                    try:
                        await self.close(table.id, "nobody has played here for a while")
                    except HoldemError as error:
                        log.info("idle table %s stays open: %s", table.id, error.code)

    # ---- finding tables -------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        """The live table with this id, or :class:`TableNotFound`."""
        self._require_running()
        table = self.tables.get(table_id)
        if table is not None and table.closed and self.draining:
            raise TableMoved("this table is moving to another server: try again",
                             table_id=table_id, retry_after=1)
        if table is None or table.closed:
            raise TableNotFound(f"no open table {table_id!r}", table_id=table_id)
        return table

    async def owner(self, table_id: str) -> str | None:
        """The process to send a request about this table to: None for this one (the
        table runs here, or does not exist, which the request finds out).

        The owner of a table run elsewhere is read from its lease once, then cached
        until news says it changed (:meth:`drop_owner`). A table nobody alive runs is
        claimed here and now, unless this process is draining or the database just came
        back (its owner may not have beaten again yet: see :meth:`Leases.settled`); then
        :class:`TableMoved`: ask again shortly."""
        table = self.tables.get(table_id)
        if self.cluster is None or (table is not None and not table.lost):
            return None
        cached = self._elsewhere.get(table_id)
        if cached is not None and cached in self.live:
            return cached
        drops = self._drops
        lease = await self.leases.lease_of(table_id)
        if lease is None:
            return None
        if lease.owner is not None and lease.owner != self.leases.process_id:
            if lease.owner not in self.live:
                # A process that started since the last heartbeat: look again before
                # taking its table.
                self.live = {p.id for p in await self.leases.peers()}
            if lease.owner in self.live:
                if len(self._elsewhere) >= MAX_CACHED_OWNERS:
                    # Closed tables are never announced: start over rather than grow.
                    self._elsewhere.clear()
                if drops == self._drops:
                    self._elsewhere[table_id] = lease.owner
                return lease.owner
        if (self.draining or (lease.tournament and not self.director)
                or not self.leases.settled()):
            raise TableMoved("this table is moving to another server: try again",
                             table_id=table_id, retry_after=1)
        if await self._adopt(lease) is None:
            raise TableMoved("this table is moving to another server: try again",
                             table_id=table_id, retry_after=1)
        return None

    def drop_owner(self, table_id: str) -> None:
        """Forget the cached owner of a table (it moved, or did not answer as its owner)."""
        self._drops += 1
        self._elsewhere.pop(table_id, None)

    async def stored_open(self, table_id: str) -> bool:
        """Whether an open table with this id is stored, whoever runs it: here, elsewhere,
        or nobody yet (its owner died, and the table waits for the next claim)."""
        return table_id in self.tables or await self.leases.lease_of(table_id) is not None

    async def take_handed(self, table_id: str) -> None:
        """Run a table whose lease another process handed to this one (a move)."""
        if table_id in self.tables or self.draining:
            return
        lease = await self.leases.lease_of(table_id)
        if lease is not None and lease.owner == self.leases.process_id:
            await self._adopt(lease)

    async def director_process(self) -> str | None:
        """The process to send a tournament request to: None for this one."""
        if self.cluster is None or self.director:
            return None
        director = await self.cluster.director()
        if director is None:
            raise TablesElsewhere("the server running the tournaments is changing: try "
                                  "again", retry_after=2)
        return director

    async def ask_process(self, process_id: str, event: str, payload: dict[str, Any]
                          ) -> dict[str, Any]:
        """Run an ``internal:*`` request on another process; its answer, or its error."""
        assert self.cluster is not None
        answer = await self.cluster.request(process_id, event, "", None, payload, 1)
        if not answer.get("ok"):
            raise answer_error(answer.get("error") or {})
        return answer

    async def ask_every_process(self, event: str, payload: dict[str, Any]
                                ) -> list[dict[str, Any]]:
        """Run an ``internal:*`` request on every other live process."""
        if self.cluster is None:
            return []
        return [await self.ask_process(peer, event, payload)
                for peer in sorted(self.live - {self.leases.process_id})]

    def require_running(self) -> None:
        """Raise :class:`TablesElsewhere` unless this process runs the tables (and so the
        tournaments) of its database."""
        self._require_running()

    def require_director(self) -> None:
        """Raise :class:`TablesElsewhere` unless this process runs the tournaments."""
        if not self.director:
            raise TablesElsewhere("tournaments run on another server process of this "
                                  "database", retry_after=5)

    def _require_running(self) -> None:
        if not self.running:
            raise TablesElsewhere("tables run on another server process of this database",
                                  retry_after=5)

    async def open(
        self, table_id: str, config: TableConfig, *, owner_id: int | None = None,
        open_limit: int | None = None, attach: Attach | None = None,
    ) -> Table:
        """Open a new table here and start it (``open_limit``: only while its owner has
        fewer open tables, on every process; ``attach``: called before it starts, by a
        feature that runs the table, such as a tournament)."""
        self._require_running()
        state = TableState(config)
        token = await self.services.store.create(table_id, owner_id, config.to_dict(),
                                                 state.to_dict(),
                                                 lease_owner=self.leases.process_id,
                                                 open_limit=open_limit)
        table = Table(table_id, state, self.services, lease=token, draining=self.draining,
                      tournament=attach(table_id, config) if attach is not None else None)
        self.tables[table_id] = table
        self.owners[table_id] = owner_id
        await table.start()
        await self.services.on_summary(table_id, table.summary())
        return table

    def forget(self, table_id: str) -> None:
        """Stop counting a table as one of this process's (it closed, or moved away)."""
        self.tables.pop(table_id, None)
        self.owners.pop(table_id, None)
        self.arrived.pop(table_id, None)
        self._voided_at.pop(table_id, None)
        self._idle_since.pop(table_id, None)

    # ---- sessions and accounts -------------------------------------------------------

    async def watching(self, sid: str, table_id: str) -> None:
        """Remember that a session watches a table (told when it disconnects); with other
        processes, the session also joins the table's room, so whoever runs the table
        next finds it (see :meth:`_room`)."""
        self._watching[sid].add(table_id)
        await self._room(sid, table_id, entered=True)

    async def unwatching(self, sid: str, table_id: str) -> None:
        """Forget that a session watches a table."""
        self._watching[sid].discard(table_id)
        await self._room(sid, table_id, entered=False)

    async def _room(self, sid: str, table_id: str, *, entered: bool) -> None:
        """Enter or leave a table's watch room on the session's own process: here, or with
        the answer to the forwarded request (so before its ack, even if this process dies
        right after answering), or else through the Socket.IO manager."""
        if self.cluster is None:
            return
        room = watch_room(table_id)
        if sid not in self.connections and self.cluster.carry_room(sid, room,
                                                                   entered=entered):
            return
        if entered:
            await self.sio.enter_room(sid, room)
        else:
            await self.sio.leave_room(sid, room)

    def _background(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def news(self, body: dict[str, Any]) -> None:
        """What another process (or this one) told every process."""
        kind = body.get("kind")
        for table_id in _tables_changed(body):
            self.drop_owner(table_id)
        if kind == "disconnected":
            await self.disconnected(str(body["sid"]), viewer_from_dict(body.get("viewer")))
        elif kind == "move":
            user_id = body.get("user_id")
            await self.on_move_asked(str(body["table_id"]), str(body["from"]),
                                     int(user_id) if user_id is not None else None)
        elif kind == "table_moved" and body.get("to") == self.leases.process_id:
            await self.take_handed(str(body["table_id"]))
        elif kind == "adopted" and self.cluster is not None:
            table_id = str(body["table_id"])
            manager = self.sio.manager
            sessions = [{"sid": sid, "viewer": viewer_to_dict(
                self.connections.viewer(sid))}
                for sid, _ in manager.get_participants("/", watch_room(table_id))]
            if sessions:
                await self.cluster.tell(str(body["from"]), {
                    "kind": "watching", "table_id": table_id, "sessions": sessions})
        elif kind == "watching":
            await self.rejoin(str(body["table_id"]), [
                (str(s["sid"]), viewer_from_dict(s.get("viewer"))) for s in body["sessions"]])
        elif kind == "released" and not self.draining:
            await self._adopt_orphans()

    async def disconnected(self, sid: str, viewer: Viewer | None) -> None:
        """A session ended: tell every table it watched."""
        for table_id in self._watching.pop(sid, set()):
            table = self.tables.get(table_id)
            if table is not None and not table.closed:
                table.tell(Disconnected(sid, viewer.user_id if viewer else None))

    async def remove_user(self, user_id: int, *, at_once: bool) -> None:
        """Take a user away from every table of every process (ban: after the hand;
        deletion: chips now). Raises when another process cannot be reached, so an
        account is never deleted with chips still at a table."""
        await self.remove_user_here(user_id, at_once=at_once)
        await self.ask_every_process("internal:remove-user",
                                     {"user_id": user_id, "at_once": at_once})

    async def remove_user_here(self, user_id: int, *, at_once: bool) -> None:
        """Take a user away from the tables this process runs."""
        for table in list(self.tables.values()):
            if table.closed:
                continue
            if table.state.has_seat(user_id) or any(
                p.user_id == user_id for p in table.state.waiting
            ):
                await table.ask(RemoveUser(user_id, at_once))

    async def close(self, table_id: str, reason: str) -> dict[str, Any]:
        """Close a table, paying everyone out."""
        table = self.get(table_id)
        result: dict[str, Any] = await table.ask(Close(reason))
        return result


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


async def _nothing() -> None:
    return None


async def _nobody_moves(_table_id: str, _asker: str, _user_id: int | None) -> None:
    return None


def _tables_changed(news: dict[str, Any]) -> list[str]:
    """The tables whose owner this news says changed."""
    kind = news.get("kind")
    if kind in ("adopted", "table_moved"):
        return [str(news["table_id"])]
    if kind == "released":
        return [str(t) for t in news.get("tables", ())]
    return []


def _moving() -> TableMoved:
    return TableMoved("this table is moving to another server: try again", retry_after=1)


def watch_room(table_id: str) -> str:
    """The Socket.IO room of the sessions watching a table (kept with other processes)."""
    return f"watch:{table_id}"


def _people_at(table: Table) -> bool:
    """Whether a person sits at, has claimed a seat at, or waits for the table."""
    state = table.state
    return bool(state.config.tournament is not None or state.humans() or state.waiting
                or any(p.successor for p in state.players.values()))
