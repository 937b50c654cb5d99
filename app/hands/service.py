"""Reading finished hands and a player's results from storage."""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.errors import HoldemError
from app.poker.phh import phh_for_viewer
from app.poker.replayer import replay_frames
from app.poker.state import Game


class HandNotFound(HoldemError):
    """No hand with this id that you were dealt into."""

    code = "hand_not_found"
    status = 404


Row = tuple[HandRecord, HandPlayer | None]
# A hand you were dealt into, your part in it and its table's name.
Yours = tuple[HandRecord, HandPlayer, str | None]


async def hands_of(
    session: AsyncSession, user_id: int, *, table_id: str | None, offset: int, limit: int
) -> tuple[list[Yours], int]:
    """One page of the hands a player was dealt into (optionally at one table), newest
    first, each with its table's name, and their number."""
    where = [HandPlayer.user_id == user_id]
    if table_id:
        where.append(HandRecord.table_id == table_id)
    count = await session.scalar(
        select(func.count()).select_from(HandPlayer)
        .join(HandRecord, HandPlayer.hand_id == HandRecord.id).where(*where))
    rows = await session.execute(
        select(HandRecord, HandPlayer, TableRecord.name)
        .join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .outerjoin(TableRecord, TableRecord.id == HandRecord.table_id)
        .where(*where)
        .order_by(HandRecord.ended_at.desc(), HandRecord.id)
        .offset(offset).limit(limit))
    return [(hand, player, name) for hand, player, name in rows.all()], int(count or 0)


async def all_hands(
    session: AsyncSession, *, table_id: str | None, offset: int, limit: int
) -> tuple[list[HandRecord], int]:
    """One page of every hand (optionally of one table), newest first (admins)."""
    where = [HandRecord.table_id == table_id] if table_id else []
    count = await session.scalar(select(func.count()).select_from(HandRecord).where(*where))
    rows = await session.scalars(
        select(HandRecord).where(*where).order_by(HandRecord.ended_at.desc(), HandRecord.id)
        .offset(offset).limit(limit))
    return list(rows), int(count or 0)


async def hand_for(
    session: AsyncSession, hand_id: str, user_id: int, *, admin: bool
) -> Row:
    """A hand the user was dealt into (any hand for an admin), or :class:`HandNotFound`."""
    hand = await session.get(HandRecord, hand_id)
    player = await session.get(HandPlayer, (hand_id, user_id)) if hand else None
    if hand is None or (player is None and not admin):
        raise HandNotFound("no such hand among yours", hand_id=hand_id)
    return hand, player


def phh_text(hand: HandRecord, player: HandPlayer | None) -> str:
    """The hand history as this reader may see it (an admin, ``player`` None: every card)."""
    if player is None:
        return hand.phh
    seats = [row["seat"] for row in hand.summary["players"]]
    return phh_for_viewer(hand.phh, seats.index(player.seat) + 1)


def replay_of(hand: HandRecord, player: HandPlayer | None) -> list[dict[str, Any]]:
    """The hand's frames as this reader saw them (an admin, ``player`` None: a spectator)."""
    return replay_frames(hand.phh, player.seat if player else None)


async def stats_of(session: AsyncSession, user_id: int, game: Game | None = None
                   ) -> tuple[int, int, int]:
    """Hands played, hands won (net above zero) and net credits of a player, in every game
    or one (cash tables only: tournament hands are played for tournament chips)."""
    tournament_tables = select(TableRecord.id).where(TableRecord.tournament_id.is_not(None))
    where = [HandPlayer.user_id == user_id, HandRecord.table_id.not_in(tournament_tables)]
    if game is not None:
        where.append(HandRecord.game == game.value)
    played, won, net = (await session.execute(
        select(func.count(), func.coalesce(func.sum(case((HandPlayer.net > 0, 1), else_=0)), 0),
               func.coalesce(func.sum(HandPlayer.net), 0))
        .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
        .where(*where)
    )).one()
    return int(played), int(won), int(net)
