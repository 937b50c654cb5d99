"""A player's ignore list: kept on the server, so it follows them to every table and
device (the tables never send them an ignored player's chat)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.chat import IgnoredPlayer
from app.db.models import User, utcnow
from app.errors import HoldemError
from app.moderation.schemas import IgnoredPublic
from app.stats.service import PlayerNotFound

MAX_IGNORED = 500


class CannotIgnoreSelf(HoldemError):
    """A player cannot ignore themselves."""

    code = "cannot_ignore_self"
    status = 422


class IgnoreListFull(HoldemError):
    """The ignore list holds as many players as it may."""

    code = "ignore_list_full"
    status = 409


async def ignored_by(session: AsyncSession, user_id: int) -> list[IgnoredPublic]:
    """Everyone ``user_id`` ignores, in the order ignored."""
    rows = await session.execute(
        select(IgnoredPlayer.created_at, User.public_id, User.display_name)
        .join(User, User.id == IgnoredPlayer.ignored_id)
        .where(IgnoredPlayer.user_id == user_id)
        .order_by(IgnoredPlayer.created_at, IgnoredPlayer.ignored_id))
    return [IgnoredPublic(public_id=public_id, name=name, since=since)
            for since, public_id, name in rows.all()]


async def ignore(session: AsyncSession, user: User, public_id: str) -> list[IgnoredPublic]:
    """Ignore a player (again: nothing changes); the whole list after."""
    subject = await session.scalar(select(User).where(User.public_id == public_id))
    if subject is None:
        raise PlayerNotFound("no such player", public_id=public_id)
    if subject.id == user.id:
        raise CannotIgnoreSelf("you cannot ignore yourself")
    if await session.get(IgnoredPlayer, (user.id, subject.id)) is None:
        if len(await ignored_by(session, user.id)) >= MAX_IGNORED:
            raise IgnoreListFull(f"you can ignore at most {MAX_IGNORED} players",
                                 limit=MAX_IGNORED)
        session.add(IgnoredPlayer(user_id=user.id, ignored_id=subject.id, created_at=utcnow()))
        await session.commit()
    return await ignored_by(session, user.id)


async def unignore(session: AsyncSession, user: User, public_id: str) -> list[IgnoredPublic]:
    """Read a player's chat again (one not ignored: nothing changes); the list after."""
    subject_id = await session.scalar(select(User.id).where(User.public_id == public_id))
    if subject_id is not None:
        await session.execute(delete(IgnoredPlayer).where(
            IgnoredPlayer.user_id == user.id, IgnoredPlayer.ignored_id == subject_id))
        await session.commit()
    return await ignored_by(session, user.id)
