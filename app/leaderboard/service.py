"""Net winnings per player from ``hand_players``, over a period."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import User, UserStatus
from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.leaderboard.schemas import Period
from app.poker.state import Game

SPANS = {Period.DAY: timedelta(days=1), Period.WEEK: timedelta(days=7)}


async def leaders(
    session: AsyncSession, period: Period, *, now: datetime, limit: int,
    game: Game | None = None,
) -> list[tuple[User, int, int]]:
    """The players with the most net credits over ``period`` (to ``now``), best first, with
    their hands played (of ``game`` only, when given); only active accounts that have not
    opted out. Cash tables only: tournament hands are played for tournament chips (the
    rule of ``hands.service.stats_of``)."""
    net = func.sum(HandPlayer.net).label("net")
    hands = func.count().label("hands")
    tournament_tables = select(TableRecord.id).where(TableRecord.tournament_id.is_not(None))
    query = (select(HandPlayer.user_id, net, hands)
             .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
             .where(HandRecord.table_id.not_in(tournament_tables))
             .group_by(HandPlayer.user_id))
    if period in SPANS:
        query = query.where(HandPlayer.ended_at >= now - SPANS[period])
    if game is not None:
        query = query.where(HandRecord.game == game.value)
    totals = query.subquery()
    rows = await session.execute(
        select(User, totals.c.net, totals.c.hands)
        .join(totals, totals.c.user_id == User.id)
        .where(User.leaderboard_opt_out.is_(False), User.status == UserStatus.ACTIVE,
               User.deleted_at.is_(None))
        .order_by(totals.c.net.desc(), totals.c.hands.desc(), User.id)
        .limit(limit))
    return [(user, int(total), int(count)) for user, total, count in rows.all()]


async def set_listed(session: AsyncSession, user: User, listed: bool) -> User:
    """Show or hide ``user`` on the leaderboard."""
    user.leaderboard_opt_out = not listed
    await session.commit()
    return user
