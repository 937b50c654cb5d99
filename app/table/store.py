"""Persistence of tables: each change of chips commits together with the table's state.

:meth:`TableStore.commit` is the one write that moves chips: in one
transaction it escrows buy-ins from balances, releases cash-outs to balances,
stores a finished hand (with what the feature running the table records of it,
such as a tournament's standings), closes the table, and writes the table's new state.
So after a crash the stored state always matches the credits held at the table.

Bots play with the *house*'s credits: a system account that cannot log in and
whose bankroll only an admin (or the operator's ``HOUSE_INITIAL_BANKROLL``, when
the house is first created) funds. A bot buys in from the house like a person
from their balance, and its stack goes back to the house when it stands up. So
what people win from bots is credits the house really lost, and a house that
cannot cover a bot's buy-in seats no bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, and_, bindparam, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.engine import Database, JSONText, bound_waits, is_sqlite
from app.db.models import LedgerReason, Role, User, UserStatus, utcnow
from app.db.players import add_counters
from app.db.tables import HandPlayer, HandRecord, TableRecord, TableStatus
from app.integrity.flags import flag_refused_seat
from app.metrics import Metrics
from app.poker.player_stats import Counters
from app.table.errors import TableClosed, TableLimit, TableMoved

HOUSE_EMAIL = "house@bots.invalid"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Credits moving between one account and a table (``user_id`` None: the house)."""

    user_id: int | None
    amount: int


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """What is stored about a finished hand."""

    id: str
    number: int
    pot: int
    phh: str
    summary: dict[str, Any]
    started_at: float
    results: tuple[tuple[int, int, int], ...]  # (user_id, seat, net) of each person dealt in
    # (user_id, credits) each person won from the house's bots (negative: lost to them).
    from_house: tuple[tuple[int, int], ...] = ()
    # (user_id, counters) of each person dealt in: what the hand adds to their stats.
    counters: tuple[tuple[int, Counters], ...] = ()
    # (user_id, net) of each person whose result an all-in decided, had the pots been
    # shared by the chances when the hands were turned up.
    all_in_nets: tuple[tuple[int, int], ...] = ()
    # What the house took from the pots: paid from the table to the house in the commit
    # that stores the hand, so the two are never apart.
    rake: int = 0


Write = Callable[[AsyncSession], Awaitable[None]]
"""A write of the feature that runs a table (a tournament's standings), made in the
table's transaction so the two are stored together or not at all."""


@dataclass(frozen=True, slots=True)
class Movement:
    """Chips moving between balances and one table, committed with the table's new state
    (and ``writes``, the running feature's own rows that must agree with it)."""

    buy_ins: tuple[Transfer, ...] = ()
    payouts: tuple[Transfer, ...] = ()
    hand: FinishedHand | None = None
    closing: bool = False
    writes: tuple[Write, ...] = ()


def _at(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


_TABLES = cast(Table, TableRecord.__table__)
_HANDS = cast(Table, HandRecord.__table__)
_HAND_PLAYERS = cast(Table, HandPlayer.__table__)
# Every write of a table's state names the fencing token it holds: the database itself
# refuses a stale owner (0 rows match). A write without a token (tools, tests) only
# changes a table no process owns.
_FENCED = and_(_TABLES.c.id == bindparam("key"), _TABLES.c.lease_token == bindparam("token"))
_UNOWNED = and_(_TABLES.c.id == bindparam("key"), _TABLES.c.lease_owner.is_(None))
_NEW_STATE: dict[str, Any] = {"state": bindparam("new_state"), "updated_at": bindparam("now")}
_SAVE_FENCED = update(_TABLES).where(_FENCED).values(_NEW_STATE)
_SAVE_UNOWNED = update(_TABLES).where(_UNOWNED).values(_NEW_STATE)
# A table's state to write: as data, or already encoded (what a table keeps of it).
StoredState = dict[str, Any] | JSONText
_Pending = tuple[int | None, StoredState, list[asyncio.Future[None]]]

log = logging.getLogger(__name__)


def _moved(table_id: str) -> TableMoved:
    return TableMoved("this table moved to another server: try again", table_id=table_id,
                      retry_after=1)


def _refused_log(table_id: str, token: int | None) -> None:
    log.warning("table %s: write refused by the database: fencing token %s is not the "
                "table's (another process owns it)", table_id, token)


def _write_states(connection: Connection, rows: list[dict[str, Any]]) -> set[str]:
    """Write each row's state where its fence still holds; the tables refused."""
    refused: set[str] = set()
    fenced = [r for r in rows if r["token"] is not None]
    if fenced:
        result = connection.execute(_SAVE_FENCED, fenced)
        sane = len(fenced) == 1 or connection.dialect.supports_sane_multi_rowcount
        if not (sane and result.rowcount == len(fenced)):
            refused |= _unwritten(connection, fenced)
    for row in rows:
        # Without a token (tools, tests: rare), one at a time, each rowcount exact.
        if row["token"] is None and not connection.execute(_SAVE_UNOWNED, row).rowcount:
            refused.add(row["key"])
    for table_id in refused:
        _refused_log(table_id, next(r["token"] for r in rows if r["key"] == table_id))
    return refused


def _unwritten(connection: Connection, batch: list[dict[str, Any]]) -> set[str]:
    """Which rows of a fenced batch just written did not match (a driver that cannot
    count an executemany's rows per statement: asyncpg).

    A row that matched stays locked by this transaction, so its token is still the one
    written; tokens only grow, so a row that did not match never will."""
    wanted = {r["key"]: r["token"] for r in batch}
    found = connection.execute(
        select(_TABLES.c.id, _TABLES.c.lease_token).where(_TABLES.c.id.in_(list(wanted))))
    return set(wanted) - {row.id for row in found if row.lease_token == wanted[row.id]}


class StateWriter:
    """Group commit: the latest state of every table that changed, in one transaction.

    A table awaits :meth:`save` before it announces anything. While one batch
    commits, the states of other tables gather for the next, so under load many
    tables share each commit; alone, a table's save commits at once. Each table's
    UPDATE carries its fencing token in its WHERE clause, so the database writes no
    state whose token is no longer the table's: that save raises
    :class:`~app.table.errors.TableMoved` (the other tables of the batch commit).
    On a SQLite file a batch is one call to the database's writing thread, so SQLite's
    one write turn is held for the transaction only, not for the event loop's rounds
    between its statements.
    """

    def __init__(self, database: Database, metrics: Metrics) -> None:
        self.database = database
        self.metrics = metrics
        # SQLite has one write lock: tables' commits take turns here instead of
        # sleeping in SQLite's busy handler (PostgreSQL needs no such turn).
        self.turn: asyncio.Lock | contextlib.nullcontext[None] = (
            asyncio.Lock() if is_sqlite(database.engine.url) else contextlib.nullcontext())
        self._pending: dict[str, _Pending] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def save(self, table_id: str, state: StoredState, token: int | None) -> None:
        """Return once ``state`` is committed (or raise what committing raised); with a
        ``token``, only while it is the table's fencing token."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="tables:writer")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self._pending.get(table_id, (token, state, []))[2]
        self._pending[table_id] = (token, state, [*waiting, done])
        self._wake.set()
        await done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, {}
            if not batch:
                continue
            try:
                refused = await self._commit(batch)
            except Exception as error:
                for _, _, futures in batch.values():
                    for future in futures:
                        if not future.done():
                            future.set_exception(error)
            else:
                for table_id, (_, _, futures) in batch.items():
                    for future in futures:
                        if not future.done():
                            if table_id in refused:
                                future.set_exception(_moved(table_id))
                            else:
                                future.set_result(None)

    async def _commit(self, batch: dict[str, _Pending]) -> set[str]:
        """Write the batch; the tables whose token was stale (the database refused them)."""
        now = utcnow()
        rows = [{"key": table_id, "token": token, "new_state": state, "now": now}
                for table_id, (token, state, _) in batch.items()]
        thread = self.database.sqlite_thread
        if thread is not None:
            # One wait for the whole transaction (the lock is held for just that).
            async with self.turn:
                refused = await thread.transaction(lambda c: _write_states(c, rows))
        else:
            async with self.turn, self.database.begin() as connection:
                await bound_waits(connection)
                refused = await connection.run_sync(_write_states, rows)
        self.metrics.commits.labels("states").inc()
        return refused

    async def stop(self) -> None:
        """Stop the writer task (every table has awaited its saves by then)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None


class TableStore:
    """Reads and writes tables in one database."""

    def __init__(self, database: Database, *, house_bankroll: int = 0,
                 metrics: Metrics | None = None) -> None:
        self.database = database
        self.metrics = metrics or Metrics()
        self.writer = StateWriter(database, self.metrics)
        self._house_bankroll = house_bankroll
        self._house: int | None = None
        self._house_lock = asyncio.Lock()

    async def house(self) -> int:
        """The id of the house account, created (and funded) on first use."""
        async with self._house_lock:
            if self._house is None:
                try:
                    async with self.writer.turn, self.database.sessions() as session:
                        self._house = await house_account(session,
                                                          bankroll=self._house_bankroll)
                        await session.commit()
                except IntegrityError:
                    # Another process created it at the same moment: use theirs.
                    async with self.database.sessions() as session:
                        self._house = await house_account(session)
            return self._house

    async def reachable(self) -> bool:
        """Whether the database answers now."""
        return await self.database.reachable()

    async def create(
        self, table_id: str, owner_id: int | None, config: dict[str, Any], state: dict[str, Any],
        *, lease_owner: str | None = None, open_limit: int | None = None,
    ) -> int:
        """Store a new open table, run by ``lease_owner``; its first fencing token.

        With ``open_limit``, only while its owner has fewer open tables than that, else
        :class:`~app.table.errors.TableLimit`: the count and the insert hold the owner's
        row locked until the commit, so creations racing in any number of processes take
        turns and the limit holds."""
        async with self.writer.turn, self.database.sessions() as session:
            await bound_waits(await session.connection())
            if owner_id is not None and open_limit is not None:
                await _within_open_limit(session, owner_id, open_limit)
            session.add(TableRecord(
                id=table_id, name=config["name"], owner_id=owner_id,
                private=bool(config["private"]), status=TableStatus.OPEN, config=config,
                tournament_id=config.get("tournament"),
                state=state, created_at=utcnow(), updated_at=utcnow(),
                lease_owner=lease_owner, lease_token=1,
            ))
            await session.commit()
        return 1

    async def save(self, table_id: str, state: StoredState, *, token: int | None = None
                   ) -> None:
        """Write a table's state (after an action, a join, a chat line...), committed
        together with the other tables' changes of the moment, only while ``token`` is the
        table's fencing token (else :class:`TableMoved`); without a token, only while no
        process owns the table."""
        await self.writer.save(table_id, state, token)

    async def commit(
        self, table_id: str, movement: Movement, state: StoredState, *,
        token: int | None = None,
    ) -> dict[int | None, int]:
        """Move chips, store a finished hand or close the table, and write the new state
        (with the running feature's ``writes``), all in one transaction, only while
        ``token`` is the table's fencing token (without one: while no process owns the
        table); else :class:`TableMoved`, and nothing changes. Returns the balance left
        after each buy-in, by account."""
        house = await self.house() if _touches_house(movement) else None
        balances: dict[int | None, int] = {}
        async with self.writer.turn, self.database.sessions() as session:
            connection = await session.connection()
            await bound_waits(connection)
            # The state first: its fenced UPDATE refuses a stale owner, or a table closed
            # meanwhile, before any chip moves (and locks the table's row, as a claim
            # would, until the commit).
            if not await _write_state(connection, table_id, state, token,
                                      closing=movement.closing):
                if await _closed(connection, table_id):
                    raise TableClosed("this table has closed")
                _refused_log(table_id, token)
                raise _moved(table_id)
            for buy_in in movement.buy_ins:
                entry = await ledger.escrow(session, _account(buy_in, house), table_id,
                                            buy_in.amount)
                balances[buy_in.user_id] = entry.balance_after
            if movement.hand is not None:
                await _add_hand(session, table_id, movement.hand)
                if movement.hand.rake:
                    assert house is not None
                    await ledger.pay_rake(session, house, table_id, movement.hand.rake)
            for write in movement.writes:
                await write(session)
            for payout in movement.payouts:
                await ledger.release(session, _account(payout, house), table_id, payout.amount)
            if movement.closing:
                await _close(session, table_id, await self.house())
            await session.commit()
        self.metrics.commits.labels("chips").inc()
        return balances

    async def flag_refused_seat(self, user_id: int, linked_ids: tuple[int, ...],
                                table_id: str) -> None:
        """Raise the ``linked_at_table`` flag of a seat refused for linked accounts (see
        :func:`app.integrity.signins.apart_from_linked`)."""
        await flag_refused_seat(self.database, user_id, linked_ids, table_id)

    async def open_tables(self) -> list[TableRecord]:
        """Every table to restore when the server starts."""
        async with self.database.sessions() as session:
            rows = await session.scalars(
                select(TableRecord).where(TableRecord.status == TableStatus.OPEN)
                .order_by(TableRecord.created_at)
            )
            return list(rows)

    async def table(self, table_id: str) -> TableRecord | None:
        """One open table as stored."""
        async with self.database.sessions() as session:
            return await session.scalar(select(TableRecord).where(
                TableRecord.id == table_id, TableRecord.status == TableStatus.OPEN))

    async def won_from_house(self, user_ids: list[int], since: datetime) -> dict[int, int]:
        """What each of these people won from the house's bots, net, in the hands that ended
        since ``since`` (people with no such hand are left out)."""
        if not user_ids:
            return {}
        async with self.database.sessions() as session:
            rows = await session.execute(
                select(HandPlayer.user_id, func.sum(HandPlayer.house_net))
                .where(HandPlayer.user_id.in_(user_ids), HandPlayer.ended_at >= since)
                .group_by(HandPlayer.user_id))
            return {int(user_id): int(won) for user_id, won in rows}

    async def escrowed_at(self, table_id: str) -> int:
        """Credits the ledger holds at the table."""
        async with self.database.sessions() as session:
            return await ledger.escrowed_at(session, table_id)


async def _within_open_limit(session: AsyncSession, owner_id: int, limit: int) -> None:
    """Lock the owner's row, then refuse a table beyond their ``limit`` of open ones."""
    # A write that changes nothing locks the row until the commit (SQLite: it takes the
    # database's one write lock), so no other creation can change the count below first.
    await session.execute(update(User).where(User.id == owner_id)
                          .values(updated_at=User.updated_at)
                          .execution_options(synchronize_session=False))
    count = int(await session.scalar(
        select(func.count()).select_from(TableRecord)
        .where(TableRecord.owner_id == owner_id, TableRecord.status == TableStatus.OPEN)) or 0)
    if count >= limit:
        raise TableLimit(f"you already have {count} open tables: close one or play at "
                         "another", limit=limit)


def within_seated_limit(user_id: int, table_id: str, limit: int) -> Write:
    """A write, for the commit that seats a person at ``table_id``, refusing the seat
    (:class:`TableLimit`) when they already sit at ``limit`` other open tables, as every
    process stored them.

    It runs after the buy-in, whose balance update locks the person's row until the
    commit (SQLite: the database's one write lock), so seats taken at once on any number
    of processes are counted in turn."""

    async def check(session: AsyncSession) -> None:
        seated = await seated_elsewhere(session, user_id, table_id)
        if seated >= limit:
            raise TableLimit(f"you are seated at {seated} tables: leave one first",
                             limit=limit)

    return check


async def seated_elsewhere(session: AsyncSession, user_id: int, table_id: str) -> int:
    """At how many open tables other than ``table_id`` the stored state seats the person
    (in a seat, or claiming a bot's)."""
    connection = await session.connection()
    if is_sqlite(connection.engine.url):
        count = await session.scalar(_SEATED_SQLITE, {"user_id": user_id, "table_id": table_id})
    else:
        count = await session.scalar(_SEATED_POSTGRES, {"user_id": str(user_id),
                                                        "table_id": table_id})
    return int(count or 0)


# The stored players are a JSON list, read with each dialect's own JSON functions.
_SEATED_SQLITE = text("""
    SELECT count(*) FROM poker_tables AS t
    WHERE t.status = 'open' AND t.id != :table_id AND EXISTS (
        SELECT 1 FROM json_each(t.state, '$.players') AS seat
        WHERE json_extract(seat.value, '$.person.user_id') = :user_id
           OR json_extract(seat.value, '$.successor.person.user_id') = :user_id)""")
_SEATED_POSTGRES = text("""
    SELECT count(*) FROM poker_tables AS t
    WHERE t.status = 'open' AND t.id <> :table_id AND EXISTS (
        SELECT 1 FROM json_array_elements(t.state -> 'players') AS seat
        WHERE seat -> 'person' ->> 'user_id' = :user_id
           OR seat -> 'successor' -> 'person' ->> 'user_id' = :user_id)""")


def _touches_house(movement: Movement) -> bool:
    raked = movement.hand is not None and movement.hand.rake > 0
    return movement.closing or raked or any(
        t.user_id is None for t in (*movement.buy_ins, *movement.payouts))


def _account(transfer: Transfer, house: int | None) -> int:
    account = transfer.user_id if transfer.user_id is not None else house
    assert account is not None
    return account


async def _add_hand(session: AsyncSession, table_id: str, hand: FinishedHand) -> None:
    """The hand's row, then its players' (plain inserts: the rows are never read back)."""
    ended = utcnow()
    await session.execute(insert(_HANDS).values(
        id=hand.id, table_id=table_id, number=hand.number, pot=hand.pot, phh=hand.phh,
        summary=hand.summary, started_at=_at(hand.started_at), ended_at=ended,
        game=hand.summary["game"], rake=hand.rake))
    house, all_in = dict(hand.from_house), dict(hand.all_in_nets)
    rows = [{"hand_id": hand.id, "user_id": user_id, "seat": seat, "net": net,
             "house_net": house.get(user_id, 0), "all_in_net": all_in.get(user_id),
             "ended_at": ended}
            for user_id, seat, net in hand.results]
    if rows:
        await session.execute(insert(_HAND_PLAYERS), rows)
    await add_counters(session, hand.counters)


async def _close(session: AsyncSession, table_id: str, house: int) -> None:
    left = await ledger.escrowed_at(session, table_id)
    if left:
        # Chips no seat accounts for (never expected): they go to the house.
        await ledger.release(session, house, table_id, left)


async def _write_state(
    connection: Any, table_id: str, state: StoredState, token: int | None, *,
    closing: bool = False,
) -> bool:
    """Write one open table's state under its fence; whether the database accepted it.

    A closed table is never written: no chip may come to rest there, as nothing would pay
    it out again (PostgreSQL checks the status again on the row a concurrent close just
    committed)."""
    values: dict[str, Any] = {"state": state, "updated_at": utcnow()}
    if closing:
        values.update(status=TableStatus.CLOSED, closed_at=utcnow())
    fence = (_TABLES.c.lease_token == token if token is not None
             else _TABLES.c.lease_owner.is_(None))
    result = await connection.execute(
        update(_TABLES).where(_TABLES.c.id == table_id, _TABLES.c.status == TableStatus.OPEN,
                              fence).values(values))
    return bool(result.rowcount == 1)


async def _closed(connection: Any, table_id: str) -> bool:
    status = await connection.scalar(select(_TABLES.c.status).where(_TABLES.c.id == table_id))
    return bool(status == TableStatus.CLOSED)


async def house_account(session: AsyncSession, *, bankroll: int = 0) -> int:
    """The id of the house account, created (not committed) when missing, with
    ``bankroll`` granted to it as a ``house_funding`` ledger entry."""
    house = await session.scalar(select(User.id).where(User.email == HOUSE_EMAIL))
    if house is not None:
        return int(house)
    user = User(email=HOUSE_EMAIL, display_name=None, display_name_key=None,
                password_hash=None, role=Role.PLAYER, status=UserStatus.ACTIVE, balance=0,
                token_version=0, created_at=utcnow(), updated_at=utcnow())
    session.add(user)
    await session.flush()
    if bankroll > 0:
        await ledger.credit(session, user.id, bankroll, reason=LedgerReason.HOUSE_FUNDING,
                            reference="initial bankroll")
    return user.id
