"""Persistence of tables: each change of chips commits together with the table's state.

A buy-in is one transaction holding the ledger escrow and the new state; a
cash-out holds the ledger release and the new state; the end of a hand holds
the hand history, the settlement with the house (below) and the new state.
So after a crash the stored state always matches the credits held at the table.

Bots play with chips that are nobody's credits. What people win from bots and
lose to them still has to be money, so at the end of each hand the net flow
is settled with the *house*, a system account that cannot log in: chips the
people won from bots are escrowed from the house into the table, chips they
lost are released from the table to the house. The house is topped up (an
``admin_adjustment`` grant) whenever it is short.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerReason, Role, User, UserStatus, utcnow
from app.db.tables import HandPlayer, HandRecord, TableRecord, TableStatus

HOUSE_EMAIL = "house@bots.invalid"


@dataclass(frozen=True, slots=True)
class Payout:
    """Credits going back from a table to a player."""

    user_id: int
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


def _at(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


class TableStore:
    """Reads and writes tables in one database."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._house: int | None = None

    async def house(self) -> int:
        """The id of the house account, created on first use (no password: it cannot log in)."""
        if self._house is None:
            async with self.database.sessions() as session:
                self._house = await house_account(session)
                await session.commit()
        return self._house

    async def create(
        self, table_id: str, owner_id: int | None, config: dict[str, Any], state: dict[str, Any]
    ) -> None:
        """Store a new open table."""
        async with self.database.sessions() as session:
            session.add(TableRecord(
                id=table_id, name=config["name"], owner_id=owner_id,
                private=bool(config["private"]), status=TableStatus.OPEN, config=config,
                state=state, created_at=utcnow(), updated_at=utcnow(),
            ))
            await session.commit()

    async def save(self, table_id: str, state: dict[str, Any]) -> None:
        """Write a table's state (after an action, a join, a chat line...)."""
        async with self.database.sessions() as session:
            await _write_state(session, table_id, state)
            await session.commit()

    async def buy_in(
        self, table_id: str, user_id: int, amount: int, state: dict[str, Any]
    ) -> int:
        """Move ``amount`` from the user's balance to the table, with the new state.

        Returns the balance left.
        """
        async with self.database.sessions() as session:
            entry = await ledger.escrow(session, user_id, table_id, amount)
            await _write_state(session, table_id, state)
            await session.commit()
            return entry.balance_after

    async def cash_out(
        self, table_id: str, payouts: list[Payout], state: dict[str, Any]
    ) -> None:
        """Give chips back to players, with the new state."""
        async with self.database.sessions() as session:
            await _pay(session, table_id, payouts)
            await _write_state(session, table_id, state)
            await session.commit()

    async def finish_hand(
        self,
        table_id: str,
        hand: FinishedHand,
        *,
        house_net: int,
        payouts: list[Payout],
        state: dict[str, Any],
    ) -> None:
        """Store a finished hand, settle with the house, pay leavers, write the new state.

        ``house_net`` is what the people at the table won from bots in this hand
        (negative when the bots won).
        """
        house = await self.house() if house_net else 0
        async with self.database.sessions() as session:
            ended = utcnow()
            session.add(HandRecord(
                id=hand.id, table_id=table_id, number=hand.number, pot=hand.pot, phh=hand.phh,
                summary=hand.summary, started_at=_at(hand.started_at), ended_at=ended,
            ))
            await session.flush()
            session.add_all(
                HandPlayer(hand_id=hand.id, user_id=user_id, seat=seat, net=net, ended_at=ended)
                for user_id, seat, net in hand.results
            )
            await _settle_with_house(session, house, table_id, house_net)
            await _pay(session, table_id, payouts)
            await _write_state(session, table_id, state)
            await session.commit()

    async def close(self, table_id: str, payouts: list[Payout], state: dict[str, Any]) -> None:
        """Pay everyone out and mark the table closed; nothing stays escrowed there."""
        house = await self.house()
        async with self.database.sessions() as session:
            await _pay(session, table_id, payouts)
            left = await ledger.escrowed_at(session, table_id)
            if left:
                # Chips no seat accounts for (never expected): they go to the house.
                await ledger.release(session, house, table_id, left)
            await session.execute(
                update(TableRecord).where(TableRecord.id == table_id).values(
                    state=state, status=TableStatus.CLOSED, closed_at=utcnow(),
                    updated_at=utcnow())
            )
            await session.commit()

    async def open_tables(self) -> list[TableRecord]:
        """Every table to restore when the server starts."""
        async with self.database.sessions() as session:
            rows = await session.scalars(
                select(TableRecord).where(TableRecord.status == TableStatus.OPEN)
                .order_by(TableRecord.created_at)
            )
            return list(rows)

    async def escrowed_at(self, table_id: str) -> int:
        """Credits the ledger holds at the table."""
        async with self.database.sessions() as session:
            return await ledger.escrowed_at(session, table_id)


async def _write_state(session: AsyncSession, table_id: str, state: dict[str, Any]) -> None:
    await session.execute(
        update(TableRecord).where(TableRecord.id == table_id).values(
            state=state, updated_at=utcnow())
    )


async def _pay(session: AsyncSession, table_id: str, payouts: list[Payout]) -> None:
    for payout in payouts:
        await ledger.release(session, payout.user_id, table_id, payout.amount)


async def house_account(session: AsyncSession) -> int:
    """The id of the house account, created (not committed) when missing."""
    house = await session.scalar(select(User.id).where(User.email == HOUSE_EMAIL))
    if house is not None:
        return int(house)
    user = User(email=HOUSE_EMAIL, display_name=None, display_name_key=None,
                password_hash=None, role=Role.PLAYER, status=UserStatus.ACTIVE, balance=0,
                token_version=0, created_at=utcnow(), updated_at=utcnow())
    session.add(user)
    await session.flush()
    return user.id


async def _settle_with_house(
    session: AsyncSession, house: int, table_id: str, people_won: int
) -> None:
    if people_won == 0:
        return
    if people_won < 0:
        await ledger.release(session, house, table_id, -people_won)
        return
    balance = await session.scalar(select(User.balance).where(User.id == house)) or 0
    if balance < people_won:
        await ledger.credit(session, house, people_won - balance,
                            reason=LedgerReason.ADMIN_ADJUSTMENT, reference="bots")
    await ledger.escrow(session, house, table_id, people_won)
