"""The lobby: every live table of this process, creating and finding them, and their listing.

:class:`TableService` owns the tables this process runs: it restores them from
storage when the server starts, stops their tasks when it stops (after their
hands end: a deploy voids no hand), creates new ones within each player's
limits, finds a seat for ``table:quick-seat`` (one at a time, so two players
asking at once share a table), closes tables no person has used for a while,
and keeps the ``lobby`` room up to date.

Which process runs a table is its lease (:mod:`app.realtime.leases`). Alone
(no ``REDIS_URL``), the process holding the database's table lock
(:mod:`app.db.process_lock`) takes every open table; with Redis, every process
runs tables: each claims orphaned ones (their owner died or let them go) on its
heartbeat, new tables go to the least-loaded process, requests reach the owner
through :mod:`app.realtime.cluster`, and the holder of the table lock also
runs the tournaments.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

from app.db.process_lock import ProcessLock
from app.db.tables import TableRecord
from app.errors import HoldemError
from app.poker.state import Stakes
from app.realtime import projection
from app.realtime.cluster import Cluster, answer_error, viewer_from_dict, viewer_to_dict
from app.realtime.connections import LOBBY_ROOM, Viewer
from app.realtime.core import TableServices
from app.realtime.errors import (
    InvalidPayload,
    SeatTaken,
    TableLimit,
    TableMoved,
    TableNotFound,
    TablesElsewhere,
)
from app.realtime.leases import Lease, Leases
from app.realtime.schemas import QuickSeat, TableCreate
from app.realtime.seating import TableConfig, TableState
from app.realtime.table import Table

log = logging.getLogger(__name__)

QUICK_SEAT_SEATS = 6
QUICK_SEAT_BOTS = 2
QUICK_SEAT_ATTEMPTS = 3
# The tournaments' director drops stale lobby entries every this many heartbeats.
PRUNE_EVERY = 30


class TableService:
    """All tables of this process, and the lobby's view of them."""

    def __init__(self, services: TableServices, *, lock: ProcessLock, leases: Leases) -> None:
        self.services = services
        self.tables: dict[str, Table] = {}
        self.owners: dict[str, int | None] = {}
        self.running = False
        # This process runs the tournaments (it holds the table lock).
        self.director = False
        self.draining = False
        self.leases = leases
        # Set with REDIS_URL: the other processes.
        self.cluster: Cluster | None = None
        # Set by the tournaments: resume them once this process becomes their director.
        self.on_director: Callable[[], Awaitable[None]] = _nothing
        self._lock = lock
        self._live: set[str] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._beats = 0
        self._listed: dict[str, dict[str, Any]] = {}
        self._watching: defaultdict[str, set[str]] = defaultdict(set)
        self._idle_since: dict[str, float] = {}
        self._quick_seat = asyncio.Lock()
        self._user_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._sweeper: asyncio.Task[None] | None = None
        # Set by the tournaments: attach a restored tournament table to its tournament.
        self.on_restore: Callable[[Table], None] = lambda _table: None
        services.on_summary = self._summary_changed
        services.on_lost = self._lost

    # ---- life cycle ---------------------------------------------------------------

    async def start(self) -> None:
        """Take this process's tables (alone: all of them, under the table lock; with
        other processes: the orphaned ones), restore them from storage and start them."""
        self.director = await self._lock.acquire()
        if self.cluster is None and not self.director:
            log.error("another holdem-server process runs the tables of this database: "
                      "this one serves accounts only and runs no tables (stop the other "
                      "process, give this one its own DATABASE_URL, or set REDIS_URL on "
                      "both to share the tables)")
            return
        self.running = True
        await self.leases.register()
        if self.cluster is None:
            for record in await self.services.store.open_tables():
                await self._adopt(Lease(record.id, record.lease_owner, record.lease_token,
                                        record.tournament_id is not None))
        else:
            self._live = {p.id for p in await self.leases.peers()}
            if self.director:
                await self.cluster.direct(3 * self.leases.lease_seconds)
            await self._adopt_orphans()
            self._heartbeat = asyncio.create_task(self._keep_leases(), name="tables:leases")
        if self.tables:
            log.info("restored %d tables", len(self.tables))
        self._sweeper = asyncio.create_task(self._close_idle_tables(), name="tables:idle")

    async def _adopt(self, lease: Lease) -> Table | None:
        """Claim a table and restore it from what was committed, as a restart does."""
        token = await self.leases.claim(lease)
        if token is None:
            return None
        record = await self.services.store.table(lease.table_id)
        if record is None:
            return None
        try:
            table = Table(record.id, TableState.from_dict(record.state), self.services)
            table.core.lease = token
            self.on_restore(table)
            await table.dealer.recover()
        except TableMoved:
            return None
        except Exception:
            log.exception("table %s could not be restored", record.id)
            return None
        await self._check_escrow(table)
        self._run(table, record)
        await table.start()
        await self._summary_changed(table.id, projection.summary(table.core))
        self.services.metrics.lease_moves.labels("claimed").inc()
        if self.cluster is not None:
            log.info("took over table %s (lease %d)", table.id, token)
            await self.cluster.news({"kind": "adopted", "table_id": table.id})
        return table

    def _run(self, table: Table, record: TableRecord) -> None:
        self.tables[table.id] = table
        self.owners[table.id] = record.owner_id

    async def _adopt_orphans(self) -> None:
        """Claim this process's share of the tables nobody alive runs (tournament tables
        only by the tournaments' director)."""
        if self.draining:
            return
        orphans = [o for o in await self.leases.orphans() if self.director or not o.tournament]
        if not orphans:
            return
        peers = max(1, len(self._live))
        share = len(orphans) if self.director else -(-len(orphans) // peers)
        for lease in orphans[:share]:
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
        held = {tid: t.core.lease for tid, t in self.tables.items()
                if t.core.lease is not None and not t.core.lost}
        mine = await self.leases.still_mine({k: v for k, v in held.items() if v is not None})
        for table_id in set(held) - mine:
            table = self.tables.get(table_id)
            if table is not None and not table.closed and (
                    leaving := table.core.give_up()) is not None:
                await leaving
        self._live = {p.id for p in await self.leases.peers()}
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
            await self._adopt_orphans()
            await self.on_director()
            return
        await self._adopt_orphans()

    async def _lost(self, table_id: str) -> None:
        """Another process runs the table now: stop it here and forget it."""
        table = self.tables.pop(table_id, None)
        self._listed.pop(table_id, None)
        self.owners.pop(table_id, None)
        self._idle_since.pop(table_id, None)
        if table is not None:
            self.services.metrics.lease_moves.labels("lost").inc()
            await table.core.stop()

    async def rejoin(self, table_id: str, sessions: list[tuple[str, Viewer | None]]) -> None:
        """Sessions that watched a table before it came to this process watch it again
        (each gets a snapshot and the messages from then on)."""
        table = self.tables.get(table_id)
        if table is None or table.closed:
            return
        for sid, viewer in sessions:
            if table.admitted(viewer):
                await table.ask(table.join, sid, viewer, None, None)
                self.watching(sid, table_id)

    async def _check_escrow(self, table: Table) -> None:
        held = await self.services.store.escrowed_at(table.id)
        if held != table.state.escrowed():
            log.error("table %s: the ledger holds %d, the seats account for %d",
                      table.id, held, table.state.escrowed())

    async def stop(self) -> None:
        """Drain: deal no new hand, wait (up to ``DRAIN_SECONDS``) for the hands in play to
        end, stop every table's task (their state is stored), then let the tables go to
        the other processes and give the lock up."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.draining = True
        for table in self.tables.values():
            table.core.draining = True
            table.core.mailbox.cancel("start")
        deadline = asyncio.get_running_loop().time() + self.services.settings.drain_seconds
        while (any(t.state.current is not None and not t.closed for t in self.tables.values())
               and asyncio.get_running_loop().time() < deadline):
            await asyncio.sleep(0.05)
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for table in list(self.tables.values()):
            table.core.mailbox.refusal = _moving
            await table.core.stop()
        await self.services.store.writer.stop()
        if self.running:
            await self._release_all()
        await self._lock.release()
        self.running = False

    async def _release_all(self) -> None:
        released = [tid for tid, t in self.tables.items()
                    if t.core.lease is not None and not t.core.lost
                    and await self.leases.release(tid, t.core.lease)]
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
                if table.closed or table.core.unavailable or _people_at(table):
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

        A table nobody alive runs is claimed here and now, unless this process is
        draining (then :class:`TableMoved`: ask again shortly)."""
        table = self.tables.get(table_id)
        if self.cluster is None or (table is not None and not table.core.lost):
            return None
        lease = await self.leases.lease_of(table_id)
        if lease is None:
            return None
        if lease.owner is not None and lease.owner != self.leases.process_id:
            if lease.owner not in self._live:
                # A process that started since the last heartbeat: look again before
                # taking its table.
                self._live = {p.id for p in await self.leases.peers()}
            if lease.owner in self._live:
                return lease.owner
        if self.draining or (lease.tournament and not self.director):
            raise TableMoved("this table is moving to another server: try again",
                             table_id=table_id, retry_after=1)
        if await self._adopt(lease) is None:
            raise TableMoved("this table is moving to another server: try again",
                             table_id=table_id, retry_after=1)
        return None

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
                for peer in sorted(self._live - {self.leases.process_id})]

    async def placement(self) -> str | None:
        """Where a new table opens: None for here, or the least-loaded live process."""
        if self.cluster is None:
            return None
        me = self.leases.process_id
        # The others' counts as of their last heartbeat; this process's own count now.
        load = {p.id: p.tables for p in await self.leases.peers() if not p.draining}
        load.pop(me, None)
        if not self.draining:
            load[me] = len(self.tables)
        if not load:
            return None
        # Least loaded first; on a tie, here (no hop), then by id.
        best = min(load, key=lambda peer: (load[peer], peer != me, peer))
        return None if best == me else best

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

    def _in_tournament(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.state.config.tournament is not None

    async def listing(self) -> list[dict[str, Any]]:
        """Every open table (of every process) as the lobby shows it, fullest first."""
        listed = (await self.cluster.listing() if self.cluster is not None
                  else list(self._listed.values()))
        return sorted(listed, key=lambda t: (-t["seated"], t["name"]))

    async def _summary_changed(self, table_id: str, summary: dict[str, Any] | None) -> None:
        sio = self.services.sio
        if summary is None:
            self._listed.pop(table_id, None)
            self.tables.pop(table_id, None)
            self.owners.pop(table_id, None)
            self._idle_since.pop(table_id, None)
            if self.cluster is not None:
                await self.cluster.list_table(table_id, None)
            await sio.emit("lobby:table-removed", {"table_id": table_id}, room=LOBBY_ROOM)
        elif self._in_tournament(table_id):
            return  # the lobby lists the tournament, not its tables
        elif self._listed.get(table_id) != summary:
            self._listed[table_id] = summary
            if self.cluster is not None:
                await self.cluster.list_table(table_id, summary)
            await sio.emit("lobby:table", summary, room=LOBBY_ROOM)

    # ---- creating tables -------------------------------------------------------------

    async def create(self, owner: Viewer | None, data: TableCreate) -> Table:
        """Open a new table (each player may have a few open at once)."""
        self._require_running()
        settings = self.services.settings
        if owner is not None and not owner.is_admin:
            await self.services.limiter.hit("table_create", str(owner.user_id),
                                      settings.rate_limit_table_create)
            mine = (await self.leases.open_tables_of(owner.user_id) if self.cluster is not None
                    else sum(1 for t in self.owners.values() if t == owner.user_id))
            if mine >= settings.max_open_tables_per_user:
                raise TableLimit(f"you already have {mine} open tables: close one or play at "
                                 "another", limit=settings.max_open_tables_per_user)
        action = data.action_seconds or settings.action_seconds
        if action < settings.min_action_seconds:
            raise InvalidPayload(f"action_seconds must be at least {settings.min_action_seconds}",
                                 problems=[{"location": ["action_seconds"],
                                            "message": "too short"}])
        config = TableConfig(
            name=data.name, seats=data.seats,
            stakes=Stakes(data.small_blind, data.big_blind, data.ante,
                          straddle=2 * data.big_blind if data.straddle else 0),
            min_buy_in=data.min_buy_in or 20 * data.big_blind,
            max_buy_in=data.max_buy_in or 100 * data.big_blind,
            action_seconds=action, private=data.private,
            invite_code=secrets.token_urlsafe(8) if data.private else None,
            bots=data.bots, bot_count=data.bot_count if data.bots else 0,
            bot_style=data.bot_style, bomb_pot_every=data.bomb_pot_every,
            bomb_pot_ante=(data.bomb_pot_ante or 2 * data.big_blind) if data.bomb_pot_every else 0,
            run_it_twice=data.run_it_twice,
        )
        table_id = secrets.token_hex(6)
        state = TableState(config)
        token = await self.services.store.create(
            table_id, owner.user_id if owner else None, config.to_dict(), state.to_dict(),
            lease_owner=self.leases.process_id)
        table = Table(table_id, state, self.services)
        table.core.lease = token
        self.tables[table_id] = table
        self.owners[table_id] = owner.user_id if owner else None
        await table.start()
        await self._summary_changed(table_id, projection.summary(table.core))
        return table

    async def open_table(
        self, table_id: str, config: TableConfig, *, attach: Callable[[Table], None]
    ) -> Table:
        """Open a table that something else runs (a tournament's), attached before it starts."""
        self._require_running()
        state = TableState(config)
        token = await self.services.store.create(table_id, None, config.to_dict(),
                                                 state.to_dict(),
                                                 lease_owner=self.leases.process_id)
        table = Table(table_id, state, self.services)
        table.core.lease = token
        attach(table)
        self.tables[table_id] = table
        self.owners[table_id] = None
        await table.start()
        await self._summary_changed(table_id, projection.summary(table.core))
        return table

    async def sit(self, sid: str, viewer: Viewer, table: Table, seat: int, buy_in: int,
                  invite_code: str | None) -> dict[str, Any]:
        """Sit at a table, within the number of tables a player may sit at."""
        async with self._user_locks[viewer.user_id]:
            self._check_seated_limit(viewer, table)
            result: dict[str, Any] = await table.ask(table.sit, sid, viewer, seat, buy_in,
                                                     invite_code)
        self.watching(sid, table.id)
        return result

    def _check_seated_limit(self, viewer: Viewer, table: Table) -> None:
        limit = self.services.settings.max_seated_tables_per_user
        seated = sum(1 for t in self.tables.values()
                     if t is not table and not t.closed and t.state.has_seat(viewer.user_id))
        if seated >= limit:
            raise TableLimit(f"you are seated at {seated} tables: leave one first", limit=limit)

    async def quick_seat(self, sid: str, viewer: Viewer, data: QuickSeat) -> dict[str, Any]:
        """Sit at a public table with these blinds, opening one when none has room.

        Quick seats run one at a time, so players asking together share a table."""
        self._require_running()
        async with self._quick_seat:
            return await self._quick_seat_now(sid, viewer, data)

    async def _quick_seat_now(self, sid: str, viewer: Viewer, data: QuickSeat
                              ) -> dict[str, Any]:
        error: HoldemError | None = None
        for _ in range(QUICK_SEAT_ATTEMPTS):
            table, seat = self._find_seat(viewer, data)
            if table is None:
                table = await self.create(viewer, TableCreate(
                    name=f"NL {data.small_blind}/{data.big_blind}", seats=QUICK_SEAT_SEATS,
                    small_blind=data.small_blind, big_blind=data.big_blind,
                    bots=data.bots, bot_count=QUICK_SEAT_BOTS if data.bots else 0))
                seat = 0
            buy_in = data.buy_in or table.state.config.max_buy_in
            try:
                return await self.sit(sid, viewer, table, seat, buy_in, None)
            except SeatTaken as taken:
                error = taken
        assert error is not None
        raise error

    async def quick_seat_owner(self, data: QuickSeat) -> str | None:
        """With other processes: the process running the public table with these blinds
        that has the most people and room (None: this one, or no such table anywhere)."""
        if self.cluster is None:
            return None
        best: tuple[int, str] | None = None
        for t in await self.cluster.listing():
            if (t["private"] or (t["small_blind"], t["big_blind"])
                    != (data.small_blind, data.big_blind)
                    or (t["seated"] >= t["seats"] and not t["bots"])):
                continue
            people = t["seated"] - t["bots"]
            if best is None or people > best[0]:
                best = (people, t["table_id"])
        if best is None or best[1] in self.tables:
            return None
        lease = await self.leases.lease_of(best[1])
        if lease is None or lease.owner not in self._live - {self.leases.process_id}:
            return None
        return lease.owner

    def _find_seat(self, viewer: Viewer, data: QuickSeat) -> tuple[Table | None, int]:
        best: tuple[int, Table, int] | None = None
        for table in self.tables.values():
            state, config = table.state, table.state.config
            stakes = config.stakes
            if (config.private or table.closed or state.has_seat(viewer.user_id)
                    or config.tournament is not None):
                continue
            if (stakes.small_blind, stakes.big_blind) != (data.small_blind, data.big_blind):
                continue
            seats = state.free_seats() or state.bot_seats()
            if not seats:
                continue
            people = len(state.humans())
            if best is None or people > best[0]:
                best = (people, table, seats[0])
        return (best[1], best[2]) if best else (None, 0)

    # ---- sessions and accounts -------------------------------------------------------

    def watching(self, sid: str, table_id: str) -> None:
        """Remember that a session watches a table (told when it disconnects); with other
        processes, the session also joins the table's room, so whoever runs the table
        next finds it."""
        self._watching[sid].add(table_id)
        if self.cluster is not None:
            self._background(self.services.sio.enter_room(sid, watch_room(table_id)))

    def unwatching(self, sid: str, table_id: str) -> None:
        """Forget that a session watches a table."""
        self._watching[sid].discard(table_id)
        if self.cluster is not None:
            self._background(self.services.sio.leave_room(sid, watch_room(table_id)))

    def _background(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def news(self, body: dict[str, Any]) -> None:
        """What another process (or this one) told every process."""
        kind = body.get("kind")
        if kind == "disconnected":
            await self.disconnected(str(body["sid"]), viewer_from_dict(body.get("viewer")))
        elif kind == "adopted" and self.cluster is not None:
            table_id = str(body["table_id"])
            manager = self.services.sio.manager
            sessions = [{"sid": sid, "viewer": viewer_to_dict(
                self.services.connections.viewer(sid))}
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
                table.core.mailbox.post(table.disconnected, sid,
                                        viewer.user_id if viewer else None)

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
                await table.ask(table.remove_user, user_id, at_once)

    async def close(self, table_id: str, reason: str) -> dict[str, Any]:
        """Close a table, paying everyone out."""
        table = self.get(table_id)
        result: dict[str, Any] = await table.ask(table.close, reason)
        return result


async def _nothing() -> None:
    return None


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
