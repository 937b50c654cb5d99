"""ORM users and ledger rows turned into API bodies."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.profile import daily_credits_available_at, settings_of
from app.accounts.schemas import LedgerEntriesPublic, LedgerEntryPublic, UserPrivate
from app.config import Settings
from app.db.models import TRANSFER_REASONS, LedgerEntry, User
from app.db.tables import TableRecord


def avatar_url(user: User, settings: Settings) -> str:
    """The stable address of a user's avatar (it serves the current image)."""
    return f"{settings.public_url.rstrip('/')}/users/{user.public_id}/avatar"


def user_private(user: User, settings: Settings) -> UserPrivate:
    """What the account's owner (or an admin) sees."""
    return UserPrivate(
        id=user.id,
        public_id=user.public_id,
        display_name=user.display_name,
        avatar_url=avatar_url(user, settings),
        email=user.email,
        email_verified=user.email_verified_at is not None,
        role=user.role,
        status=user.status,
        balance=user.balance,
        created_at=user.created_at,
        daily_credits_available_at=daily_credits_available_at(user, settings),
        leaderboard_listed=not user.leaderboard_opt_out,
        settings=settings_of(user),
    )


async def table_names(session: AsyncSession, entries: list[LedgerEntry]) -> dict[str, str]:
    """The names of the tables that ``entries`` bought in at or cashed out from."""
    ids = {entry.reference for entry in entries
           if entry.reason in TRANSFER_REASONS and entry.reference}
    if not ids:
        return {}
    rows = await session.execute(
        select(TableRecord.id, TableRecord.name).where(TableRecord.id.in_(ids)))
    return {table_id: name for table_id, name in rows}


async def ledger_page(
    session: AsyncSession, entries: list[LedgerEntry], count: int, *, page: int, per_page: int
) -> LedgerEntriesPublic:
    """One page of ledger entries, each table named."""
    names = await table_names(session, entries)
    items = [LedgerEntryPublic.model_validate(entry).model_copy(
                 update={"table_name": names.get(entry.reference or "")})
             for entry in entries]
    return LedgerEntriesPublic(items=items, count=count, page=page, per_page=per_page)
