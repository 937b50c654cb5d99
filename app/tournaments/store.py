"""Persistence of tournaments: every change of credits commits with the tournament's new state.

Each write is one transaction: a registration takes the buy-in into the prize
pool, the fee out of circulation, adds the entry row and stores the new
state; a withdrawal or a cancellation refunds; the end pays every prize out of
the pool and records places. So after a crash the stored state always matches
the credits the ledger holds for the tournament. The state after a hand is
written in the transaction of the table that played it (:meth:`TournamentStore.writing`),
so it always matches the hands stored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.engine import Database
from app.db.models import User, utcnow
from app.db.tournaments import EntryStatus, TournamentEntryRecord, TournamentRecord
from app.table.store import Write
from app.tournaments.rules import Rules, TournamentStatus

OPEN_STATUSES = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class Payment:
    """One entry's payment: who paid (the house for a bot), for which entry, how much."""

    user_id: int
    entry: str
    name: str
    buy_in: int
    fee: int


@dataclass(frozen=True, slots=True)
class StoredEntry:
    """One entry as stored: its name, the public id of whoever paid, place and prize."""

    entry: str
    name: str
    public_id: str
    status: EntryStatus
    place: int | None
    prize: int


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament as stored, with its entries (for reading one no longer in play)."""

    id: str
    name: str
    state: dict[str, Any]
    entries: tuple[StoredEntry, ...]


# More writes in the transaction that creates a tournament, given it and the new id.
OnCreate = Callable[[AsyncSession, str], Awaitable[None]]


class TournamentStore:
    """Reads and writes tournaments in one database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def create(
        self, tournament_id: str, name: str, rules: Rules, state: dict[str, Any],
        *, created_by: int | None, also: OnCreate | None = None,
    ) -> None:
        """Store a new tournament, open for registration (with ``also``, writes given the
        session and the new id that commit with it or fail it: a schedule's claim of its
        occurrence)."""
        starts = rules.starts_at
        async with self.database.sessions() as session:
            session.add(TournamentRecord(
                id=tournament_id, name=name, kind=rules.kind, status=TournamentStatus.REGISTERING,
                buy_in=rules.buy_in, fee=rules.fee, pool_held=0, state=state,
                starts_at=None if starts is None else datetime.fromtimestamp(starts, UTC),
                created_by=created_by, created_at=utcnow(), updated_at=utcnow(),
            ))
            if also is not None:
                await session.flush()
                await also(session, tournament_id)
            await session.commit()

    async def enter(self, tournament_id: str, payment: Payment, state: dict[str, Any]) -> None:
        """Take the entry's buy-in and fee, add its row and store the new state."""
        async with self.database.sessions() as session:
            await ledger.enter_tournament(session, payment.user_id, tournament_id,
                                          buy_in=payment.buy_in, fee=payment.fee)
            session.add(TournamentEntryRecord(
                tournament_id=tournament_id, entry=payment.entry, user_id=payment.user_id,
                name=payment.name, buy_in=payment.buy_in, fee=payment.fee,
                status=EntryStatus.REGISTERED, prize=0, created_at=utcnow(),
            ))
            await _write(session, tournament_id, state)
            await session.commit()

    async def refund(
        self, tournament_id: str, entries: Sequence[str], state: dict[str, Any]
    ) -> None:
        """Give ``entries`` back what they paid and store the new state (withdrawn or cancelled)."""
        async with self.database.sessions() as session:
            for row in await _entries(session, tournament_id, entries):
                await ledger.refund_tournament(session, row.user_id, tournament_id,
                                               buy_in=row.buy_in, fee=row.fee)
                row.status = EntryStatus.REFUNDED
            await _write(session, tournament_id, state)
            await session.commit()

    async def settle(
        self, tournament_id: str, places: Mapping[str, int], prizes: Mapping[str, int],
        state: dict[str, Any],
    ) -> None:
        """Pay each prize out of the pool, record every place, store the finished state."""
        async with self.database.sessions() as session:
            for row in await _entries(session, tournament_id, list(places)):
                row.place, row.prize = places[row.entry], prizes.get(row.entry, 0)
                row.status = EntryStatus.FINISHED
                if row.prize:
                    await ledger.pay_prize(session, row.user_id, tournament_id, row.prize)
            await _write(session, tournament_id, state, finished=True)
            await session.commit()

    async def save(self, tournament_id: str, state: dict[str, Any]) -> None:
        """Write the tournament's state (the clock moved, it started, a deal ended it)."""
        async with self.database.sessions() as session:
            await _write(session, tournament_id, state)
            await session.commit()

    def writing(self, tournament_id: str, state: dict[str, Any]) -> Write:
        """The write of the tournament's state after a hand, for the table to make in its
        own transaction with the hand (see :class:`app.table.store.Movement`)."""

        async def write(session: AsyncSession) -> None:
            await _write(session, tournament_id, state)

        return write

    async def open_tournaments(self) -> list[TournamentRecord]:
        """Every tournament to resume when the server starts: registering, running, or
        finished with its prizes not yet paid."""
        unpaid = and_(TournamentRecord.status == TournamentStatus.FINISHED,
                      TournamentRecord.finished_at.is_(None))
        async with self.database.sessions() as session:
            rows = await session.scalars(
                select(TournamentRecord)
                .where(or_(TournamentRecord.status.in_(OPEN_STATUSES), unpaid))
                .order_by(TournamentRecord.created_at)
            )
            return list(rows)

    async def entries(self, tournament_id: str) -> list[TournamentEntryRecord]:
        """Every paid entry of a tournament, in the order they were made."""
        async with self.database.sessions() as session:
            rows = await session.scalars(
                select(TournamentEntryRecord)
                .where(TournamentEntryRecord.tournament_id == tournament_id)
                .order_by(TournamentEntryRecord.id)
            )
            return list(rows)

    async def people(self, tournament_id: str) -> list[tuple[str, int, str, str]]:
        """Each entry still registered: (entry, paying user id, their public id, name)."""
        async with self.database.sessions() as session:
            rows = await session.execute(
                select(TournamentEntryRecord.entry, User.id, User.public_id,
                       TournamentEntryRecord.name)
                .join(User, User.id == TournamentEntryRecord.user_id)
                .where(TournamentEntryRecord.tournament_id == tournament_id,
                       TournamentEntryRecord.status == EntryStatus.REGISTERED)
                .order_by(TournamentEntryRecord.id)
            )
            return [(e, int(u), str(p), str(n)) for e, u, p, n in rows]

    async def finished(self, limit: int) -> list[tuple[StoredTournament, datetime]]:
        """The ``limit`` tournaments that finished last, with when (newest first)."""
        async with self.database.sessions() as session:
            ids = (await session.execute(
                select(TournamentRecord.id, TournamentRecord.finished_at)
                .where(TournamentRecord.status == TournamentStatus.FINISHED,
                       TournamentRecord.finished_at.is_not(None))
                .order_by(TournamentRecord.finished_at.desc(), TournamentRecord.id)
                .limit(limit))).all()
        found = [(await self.stored(tournament_id), at) for tournament_id, at in ids]
        return [(record, at) for record, at in found if record is not None and at is not None]

    async def stored(self, tournament_id: str) -> StoredTournament | None:
        """The tournament with this id as stored, with every entry ever paid."""
        async with self.database.sessions() as session:
            record = await session.get(TournamentRecord, tournament_id)
            if record is None:
                return None
            rows = await session.execute(
                select(TournamentEntryRecord, User.public_id)
                .join(User, User.id == TournamentEntryRecord.user_id)
                .where(TournamentEntryRecord.tournament_id == tournament_id)
                .order_by(TournamentEntryRecord.id)
            )
            entries = tuple(StoredEntry(row.entry, row.name, str(public_id), row.status,
                                        row.place, row.prize) for row, public_id in rows)
            return StoredTournament(record.id, record.name, dict(record.state), entries)

    async def pool_held(self, tournament_id: str) -> int:
        """Credits the ledger holds in the tournament's prize pool."""
        async with self.database.sessions() as session:
            held = await session.scalar(
                select(TournamentRecord.pool_held).where(TournamentRecord.id == tournament_id)
            )
            return int(held or 0)


async def _entries(
    session: AsyncSession, tournament_id: str, entries: Sequence[str]
) -> list[TournamentEntryRecord]:
    rows = await session.scalars(
        select(TournamentEntryRecord).where(
            TournamentEntryRecord.tournament_id == tournament_id,
            TournamentEntryRecord.entry.in_(list(entries)),
            TournamentEntryRecord.status == EntryStatus.REGISTERED,
        ).order_by(TournamentEntryRecord.id)
    )
    return list(rows)


async def _write(
    session: AsyncSession, tournament_id: str, state: dict[str, Any], *, finished: bool = False
) -> None:
    values: dict[str, Any] = {
        "state": state, "status": TournamentStatus(state["status"]), "updated_at": utcnow(),
    }
    if finished:
        values["finished_at"] = utcnow()
    await session.execute(
        update(TournamentRecord).where(TournamentRecord.id == tournament_id).values(values)
    )
