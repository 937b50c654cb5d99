"""Reading and writing chat safety in the database: the word list, a player's mute and
ignore list, the chat log and its retention."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat.safety import SaidLine
from app.db.chat import ChatLine, ChatReport, ChatWord, IgnoredPlayer
from app.db.models import User, utcnow


async def words(session: AsyncSession) -> list[str]:
    """The word list, in order."""
    return list((await session.scalars(select(ChatWord.word).order_by(ChatWord.word))).all())


async def ignored_public_ids(session: AsyncSession, user_id: int) -> list[str]:
    """The public ids of the players ``user_id`` ignores, in the order ignored."""
    rows = await session.scalars(
        select(User.public_id).join(IgnoredPlayer, IgnoredPlayer.ignored_id == User.id)
        .where(IgnoredPlayer.user_id == user_id)
        .order_by(IgnoredPlayer.created_at, IgnoredPlayer.ignored_id))
    return list(rows.all())


async def mute_of(session: AsyncSession, user_id: int) -> float | None:
    """Until when an admin muted the user (a POSIX time), or None."""
    until = await session.scalar(select(User.muted_until).where(User.id == user_id))
    return until.timestamp() if until is not None else None


async def write_lines(session: AsyncSession, lines: Sequence[SaidLine]) -> None:
    """Add these lines to the chat log (the caller commits)."""
    if lines:
        await session.execute(insert(ChatLine), [
            {"table_id": line.table_id, "user_id": line.user_id, "said": line.said,
             "shown": line.shown, "created_at": datetime.fromtimestamp(line.at, UTC)}
            for line in lines])


async def prune_lines(session: AsyncSession, *, days: int, now: datetime) -> int:
    """Delete chat lines older than ``days`` days (the caller commits); how many."""
    result = await session.execute(
        delete(ChatLine).where(ChatLine.created_at < now - timedelta(days=days)))
    return int(getattr(result, "rowcount", 0) or 0)


async def add_report(session: AsyncSession, *, reporter_id: int, reported_id: int,
                     reason: str, evidence: dict[str, Any]) -> ChatReport:
    """Store a report with what the table attached (``table_id``, ``hand_id``, ``chat``);
    the caller commits."""
    report = ChatReport(reporter_id=reporter_id, reported_id=reported_id, reason=reason,
                        table_id=str(evidence["table_id"]), hand_id=evidence.get("hand_id"),
                        chat=list(evidence.get("chat") or ()), created_at=utcnow())
    session.add(report)
    await session.flush()
    return report


async def user_id_of(session: AsyncSession, public_id: str) -> int | None:
    """The user id behind a public id (None: nobody)."""
    return await session.scalar(select(User.id).where(User.public_id == public_id))
