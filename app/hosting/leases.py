"""Table ownership: which server process runs each table, and the fencing that enforces it.

Every open table has at most one owner, recorded in its row: ``lease_owner``
(a process id) and ``lease_token``, a number that grows by one each time the
table changes hands. A process may run a table only while its id is the owner;
every write of the table's state (and every chip movement) is refused unless it
carries the current token, so a process that was paused or cut off, and comes
back believing it still owns a table, cannot change it.

Processes say they are alive in ``server_processes``: a heartbeat every
``LEASE_HEARTBEAT_SECONDS``. A table whose owner has not beaten for
``LEASE_SECONDS`` (or has no owner: released by a draining process, or never
claimed) is an *orphan*, and any live process may claim it with a
compare-and-set on the token it saw. The claimer restores the table from what
was committed, exactly as a restart does.

Nothing here waits on a paused process. On PostgreSQL every transaction that writes
tables or leases bounds its lock waits and its idle time (:func:`bound_waits`): a
process stopped inside a transaction has its session ended by the server, and its
row locks with it, instead of holding them for as long as it stays stopped. Claims
and the clearing of dead peers skip rows another transaction holds (``SKIP
LOCKED``) and try again on the next heartbeat, and the heartbeat row is kept by its
own task, so adopting tables and beating never wait for each other.

A database outage stops every heartbeat at once, so when it ends every lease looks
lapsed though its owner lives. A process whose heartbeat could not be written is
therefore *unsettled* until it has written it again and a further ``LEASE_SECONDS``
have passed (:meth:`Leases.settled`): by then every live process has beaten again,
and only the tables of processes that really died are orphans. An unsettled process
claims no orphan, so each owner keeps its tables and their hands in play.

Time comes from each process's clock; a machine whose clock runs far ahead may
claim a live process's tables early, which fencing makes safe (the old owner's
next write is refused and it gives the table up), only slower.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.engine import Database, bound_waits
from app.db.models import utcnow
from app.db.tables import ServerProcess, TableRecord, TableStatus

log = logging.getLogger(__name__)

# Lease statements wait less: a claim that finds a row busy tries again next beat.
LEASE_LOCK_TIMEOUT = "1s"


@dataclass(frozen=True, slots=True)
class Lease:
    """One table's owner as last read."""

    table_id: str
    owner: str | None
    token: int
    tournament: bool


@dataclass(frozen=True, slots=True)
class Peer:
    """A live server process and how many tables it runs."""

    id: str
    tables: int
    draining: bool


def new_process_id() -> str:
    """A process id unique across restarts: host, pid and a random part."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"


class Leases:
    """This process's leases on the tables of one database."""

    def __init__(self, database: Database, *, process_id: str, lease_seconds: float) -> None:
        self.database = database
        self.process_id = process_id
        self.lease_seconds = lease_seconds
        self._keeper: asyncio.Task[None] | None = None
        # The heartbeat could not be written (the database is unreachable).
        self._cut_off = False
        # The loop time the heartbeat was written again after being cut off.
        self._back_at: float | None = None

    def settled(self) -> bool:
        """Whether this process may claim orphans: its heartbeat was written every time,
        or it was written again at least ``LEASE_SECONDS`` ago (every live process has
        beaten since the database came back)."""
        if self._cut_off:
            return False
        return (self._back_at is None
                or asyncio.get_running_loop().time() - self._back_at >= self.lease_seconds)

    def _beaten(self, ok: bool) -> None:
        if not ok:
            self._cut_off = True
        elif self._cut_off:
            self._cut_off = False
            self._back_at = asyncio.get_running_loop().time()

    def _stale_before(self) -> datetime:
        return utcnow() - timedelta(seconds=self.lease_seconds)

    async def register(self) -> None:
        """Record this process as alive (at start)."""
        now = utcnow()
        async with self.database.begin() as connection:
            await connection.execute(insert(ServerProcess).values(
                id=self.process_id, host=socket.gethostname()[:255], started_at=now,
                heartbeat_at=now, draining=False, tables=0))

    async def _keep_alive(self) -> None:
        """Beat this process's heartbeat on its own, a third of a lease apart, so slow
        work on the lobby's heartbeat (adopting many tables) never lets the leases lapse."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                async with self.database.begin() as connection:
                    await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
                    await connection.execute(
                        update(ServerProcess).where(ServerProcess.id == self.process_id)
                        .values(heartbeat_at=utcnow()))
            except Exception:
                self._beaten(False)
                log.warning("the heartbeat could not be written; trying again",
                            exc_info=True)
            else:
                self._beaten(True)

    async def heartbeat(self, tables: int, *, draining: bool = False) -> None:
        """Say this process is alive and how many tables it runs; forget long-dead peers."""
        if self._keeper is None:
            # Alone (no heartbeat calls) nobody reads the row: no writes to keep it.
            self._keeper = asyncio.create_task(self._keep_alive(), name="leases:alive")
        try:
            await self._write_heartbeat(tables, draining)
        except Exception:
            self._beaten(False)
            raise
        self._beaten(True)

    async def _write_heartbeat(self, tables: int, draining: bool) -> None:
        now = utcnow()
        async with self.database.begin() as connection:
            await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
            updated = await connection.execute(
                update(ServerProcess).where(ServerProcess.id == self.process_id)
                .values(heartbeat_at=now, tables=tables, draining=draining))
            if not updated.rowcount:
                await connection.execute(insert(ServerProcess).values(
                    id=self.process_id, host=socket.gethostname()[:255], started_at=now,
                    heartbeat_at=now, draining=draining, tables=tables))
            # Long-dead peers: rows another process is clearing at the moment are skipped.
            dead = (select(ServerProcess.id)
                    .where(ServerProcess.heartbeat_at
                           < now - timedelta(seconds=60 * self.lease_seconds))
                    .with_for_update(skip_locked=True))
            await connection.execute(delete(ServerProcess).where(ServerProcess.id.in_(dead)))

    async def unregister(self) -> None:
        """Remove this process (at a clean stop, after its leases are released)."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
            self._keeper = None
        async with self.database.begin() as connection:
            await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
            await connection.execute(delete(ServerProcess).where(
                ServerProcess.id == self.process_id))

    async def peers(self) -> list[Peer]:
        """Every live process (this one included), least loaded first."""
        async with self.database.connect() as connection:
            rows = await connection.execute(
                select(ServerProcess.id, ServerProcess.tables, ServerProcess.draining)
                .where(ServerProcess.heartbeat_at >= self._stale_before())
                .order_by(ServerProcess.tables, ServerProcess.id))
            return [Peer(row.id, row.tables, row.draining) for row in rows]

    async def lease_of(self, table_id: str) -> Lease | None:
        """The owner of an open table (None: no such open table)."""
        async with self.database.connect() as connection:
            row = (await connection.execute(
                select(TableRecord.lease_owner, TableRecord.lease_token,
                       TableRecord.tournament_id)
                .where(TableRecord.id == table_id, TableRecord.status == TableStatus.OPEN)
            )).first()
        if row is None:
            return None
        return Lease(table_id, row.lease_owner, row.lease_token, row.tournament_id is not None)

    async def orphans(self) -> list[Lease]:
        """Open tables nobody alive owns: released, never claimed, or their owner stopped
        beating."""
        live = select(ServerProcess.id).where(
            ServerProcess.heartbeat_at >= self._stale_before())
        async with self.database.connect() as connection:
            rows = await connection.execute(
                select(TableRecord.id, TableRecord.lease_owner, TableRecord.lease_token,
                       TableRecord.tournament_id)
                .where(TableRecord.status == TableStatus.OPEN,
                       or_(TableRecord.lease_owner.is_(None),
                           TableRecord.lease_owner.not_in(live)))
                .order_by(TableRecord.created_at))
            return [Lease(r.id, r.lease_owner, r.lease_token, r.tournament_id is not None)
                    for r in rows]

    async def claim(self, lease: Lease) -> int | None:
        """Take a table whose lease is as ``lease`` says; the new token, or None when
        someone changed it first or its row is busy (try again later)."""
        async with self.database.begin() as connection:
            await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
            return await _swap(connection, lease, self.process_id)

    async def release(self, table_id: str, token: int) -> bool:
        """Give a table up (draining), if this process still owns it. The token moves
        on, so nothing this process still holds can write the table any more."""
        async with self.database.begin() as connection:
            await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
            result = await connection.execute(
                update(TableRecord)
                .where(TableRecord.id == table_id, TableRecord.lease_token == token,
                       TableRecord.lease_owner == self.process_id)
                .values(lease_owner=None, lease_token=token + 1))
            return bool(result.rowcount)

    async def hand_over(self, table_id: str, token: int, to: str) -> bool:
        """Give a table this process still owns straight to the live process ``to`` (a
        move): never an orphan in between, so no third process claims it. The token
        moves on, as in :meth:`release`."""
        async with self.database.begin() as connection:
            await bound_waits(connection, lock_timeout=LEASE_LOCK_TIMEOUT)
            result = await connection.execute(
                update(TableRecord)
                .where(TableRecord.id == table_id, TableRecord.lease_token == token,
                       TableRecord.lease_owner == self.process_id,
                       TableRecord.status == TableStatus.OPEN)
                .values(lease_owner=to, lease_token=token + 1))
            return bool(result.rowcount)

    async def still_mine(self, tokens: dict[str, int]) -> set[str]:
        """Which of these tables (id → token held) this process still owns."""
        if not tokens:
            return set()
        async with self.database.connect() as connection:
            rows = await connection.execute(
                select(TableRecord.id, TableRecord.lease_token)
                .where(TableRecord.id.in_(list(tokens)),
                       TableRecord.lease_owner == self.process_id,
                       TableRecord.status == TableStatus.OPEN))
            return {r.id for r in rows if tokens.get(r.id) == r.lease_token}

    async def open_ids(self) -> set[str]:
        """Every open table's id."""
        async with self.database.connect() as connection:
            rows = await connection.scalars(
                select(TableRecord.id).where(TableRecord.status == TableStatus.OPEN))
            return set(rows)


async def _swap(connection: AsyncConnection, lease: Lease, owner: str) -> int | None:
    """Compare-and-set a table's owner: the new token, or None when it changed or its row
    is locked (a writer, a claimer, or a paused process mid-transaction: never waited
    for)."""
    seen_owner = (TableRecord.lease_owner.is_(None) if lease.owner is None
                  else TableRecord.lease_owner == lease.owner)
    free = (select(TableRecord.id)
            .where(and_(TableRecord.id == lease.table_id,
                        TableRecord.lease_token == lease.token,
                        seen_owner, TableRecord.status == TableStatus.OPEN))
            .with_for_update(skip_locked=True))
    result = await connection.execute(
        update(TableRecord)
        .where(TableRecord.id.in_(free), TableRecord.lease_token == lease.token)
        .values(lease_owner=owner, lease_token=lease.token + 1))
    return lease.token + 1 if result.rowcount else None
