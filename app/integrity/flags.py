"""The flags queue: raising a flag once per subject, finding and listing flags."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.engine import Database
from app.db.integrity import FlagKind, FlagStatus, IntegrityFlag
from app.db.models import utcnow
from app.integrity.errors import FlagNotFound


async def raise_flag(session: AsyncSession, kind: FlagKind, subject: str, *, user_id: int,
                     other_user_id: int | None, evidence: dict[str, Any],
                     quiet_since: datetime) -> IntegrityFlag | None:
    """Add a flag about ``subject`` (the caller commits), unless one about it is open or
    was raised since ``quiet_since``; the new flag, or None."""
    known = await session.scalar(
        select(IntegrityFlag.id).where(
            IntegrityFlag.subject == subject,
            or_(IntegrityFlag.status == FlagStatus.OPEN,
                IntegrityFlag.created_at >= quiet_since)).limit(1))
    if known is not None:
        return None
    flag = IntegrityFlag(kind=kind, subject=subject, user_id=user_id,
                         other_user_id=other_user_id, evidence=evidence,
                         status=FlagStatus.OPEN, created_at=utcnow())
    session.add(flag)
    await session.flush()
    return flag


async def flag_refused_seat(database: Database, user_id: int, linked_ids: tuple[int, ...],
                            table_id: str) -> None:
    """Raise a ``linked_at_table`` flag for a seat refused because linked accounts sit at
    the table (one open flag per person and table)."""
    async with database.sessions() as session:
        await raise_flag(session, FlagKind.LINKED_AT_TABLE,
                         f"linked_at_table:{table_id}:{user_id}", user_id=user_id,
                         other_user_id=linked_ids[0] if linked_ids else None,
                         evidence={"table_id": table_id, "linked": list(linked_ids)},
                         quiet_since=utcnow())
        await session.commit()


async def get_flag(session: AsyncSession, flag_id: int) -> IntegrityFlag:
    """The flag with this id; :class:`FlagNotFound` otherwise."""
    flag = await session.get(IntegrityFlag, flag_id)
    if flag is None:
        raise FlagNotFound("no flag has this id", flag_id=flag_id)
    return flag


async def list_flags(session: AsyncSession, *, kind: FlagKind | None,
                     status: FlagStatus | None, user_id: int | None, offset: int,
                     limit: int) -> tuple[list[IntegrityFlag], int]:
    """A page of flags, newest first, of one kind, status and/or account."""
    conditions: list[ColumnElement[bool]] = []
    if kind is not None:
        conditions.append(IntegrityFlag.kind == kind)
    if status is not None:
        conditions.append(IntegrityFlag.status == status)
    if user_id is not None:
        conditions.append(or_(IntegrityFlag.user_id == user_id,
                              IntegrityFlag.other_user_id == user_id))
    count = await session.scalar(select(func.count()).select_from(IntegrityFlag)
                                 .where(*conditions))
    flags = await session.scalars(select(IntegrityFlag).where(*conditions)
                                  .order_by(IntegrityFlag.id.desc()).offset(offset)
                                  .limit(limit))
    return list(flags), int(count or 0)
