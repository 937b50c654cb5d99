"""Admin actions; each change is written to the audit log in the same transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.hooks import AccountHooks
from app.accounts.service import revoke_sessions
from app.admin.errors import (
    AccountDeleted,
    CannotDemoteSelf,
    CannotModerateAdmin,
    CannotModerateHouse,
    NotAnAdmin,
    UserNotFound,
)
from app.db import ledger
from app.db.models import (
    MAX_ID,
    AuditLogEntry,
    LedgerEntry,
    LedgerReason,
    Role,
    User,
    UserStatus,
    utcnow,
)
from app.table.store import HOUSE_EMAIL
from app.text import skeleton


def record(
    session: AsyncSession, admin: User | int, action: str, target: User | None,
    **details: Any,
) -> None:
    """Add an audit log entry to the current transaction (``admin``: the admin, or their
    id)."""
    session.add(
        AuditLogEntry(
            admin_id=admin if isinstance(admin, int) else admin.id,
            action=action,
            target_user_id=target.id if target else None,
            details=details,
            created_at=utcnow(),
        )
    )


def _matching(query: str | None, status: UserStatus | None, role: Role | None) -> list[
    ColumnElement[bool]
]:
    conditions: list[ColumnElement[bool]] = []
    if query:
        text = query.strip()
        options = [
            User.email.contains(text.lower(), autoescape=True),
            User.display_name_key.contains(skeleton(text), autoescape=True),
            User.public_id == text.lower(),
        ]
        if text.isascii() and text.isdigit() and int(text) <= MAX_ID:
            options.append(User.id == int(text))
        conditions.append(or_(*options))
    if status is not None:
        conditions.append(User.status == status)
    if role is not None:
        conditions.append(User.role == role)
    return conditions


async def find_users(
    session: AsyncSession,
    *,
    query: str | None,
    status: UserStatus | None,
    role: Role | None,
    offset: int,
    limit: int,
) -> tuple[list[User], int]:
    """Accounts whose e-mail, display name or id match ``query``, oldest first."""
    conditions = _matching(query, status, role)
    count = await session.scalar(select(func.count()).select_from(User).where(*conditions))
    users = await session.scalars(
        select(User).where(*conditions).order_by(User.id).offset(offset).limit(limit)
    )
    return list(users), int(count or 0)


async def get_user(session: AsyncSession, user_id: int) -> User:
    """The account with ``user_id``; :class:`UserNotFound` otherwise."""
    user = await session.get(User, user_id)
    if user is None:
        raise UserNotFound("no account has this id", user_id=user_id)
    return user


def _require_changeable(user: User) -> None:
    if user.status is UserStatus.DELETED:
        raise AccountDeleted("this account was deleted", user_id=user.id)


async def ban(
    session: AsyncSession, hooks: AccountHooks, admin: User, user: User, reason: str
) -> User:
    """Ban an account: it cannot log in and its sessions end now."""
    await mark_banned(session, admin, user, reason)
    await session.commit()
    await run_ban_hooks(hooks, user)
    return user


async def mark_banned(session: AsyncSession, admin: User, user: User, reason: str) -> None:
    """Ban an account and revoke its sessions in the current transaction (not committed:
    once it is, :func:`run_ban_hooks`)."""
    _require_changeable(user)
    if user.role is Role.ADMIN:
        raise CannotModerateAdmin("admins cannot be banned; demote them first")
    if user.email == HOUSE_EMAIL:
        raise CannotModerateHouse("the house is the bots' bankroll, not a player: it cannot be "
                                  "banned")
    user.status = UserStatus.BANNED
    user.ban_reason = reason
    user.banned_at = utcnow()
    await revoke_sessions(session, user)
    record(session, admin, "ban", user, reason=reason)


async def run_ban_hooks(hooks: AccountHooks, user: User) -> None:
    """After a ban is committed: take the account away from every table, and end its
    open sockets."""
    await hooks.run_after_ban(user.id)
    await hooks.run_after_revoke(user.id)


async def unban(session: AsyncSession, admin: User, user: User) -> User:
    """Lift a ban."""
    _require_changeable(user)
    if user.status is UserStatus.BANNED:
        record(session, admin, "unban", user, previous_reason=user.ban_reason)
        user.status = UserStatus.ACTIVE
        user.ban_reason = None
        user.banned_at = None
        await session.commit()
    return user


async def demote(
    session: AsyncSession, hooks: AccountHooks, admin: User, user: User, *, via: str = "api"
) -> User:
    """Take the admin role away: the account becomes a player (who can then be banned).

    Its sessions end, and so do its open sockets, so nothing authenticated while it was an
    admin outlives the change. ``admin`` is who the audit log names.
    """
    _require_changeable(user)
    if user.role is not Role.ADMIN:
        raise NotAnAdmin("this account is not an admin", user_id=user.id)
    if via == "api" and user.id == admin.id:
        raise CannotDemoteSelf("admins cannot demote themselves; ask another admin")
    user.role = Role.PLAYER
    await revoke_sessions(session, user)
    record(session, admin, "demote_admin", user, via=via)
    await session.commit()
    await hooks.run_after_revoke(user.id)
    return user


async def adjust_credits(
    session: AsyncSession, admin: User, user: User, amount: int, reason: str
) -> LedgerEntry:
    """Add or remove credits through the ledger; never below zero."""
    _require_changeable(user)
    change = ledger.credit if amount > 0 else ledger.debit
    entry = await change(session, user.id, abs(amount), reason=LedgerReason.ADMIN_ADJUSTMENT,
                         reference=reason)
    record(session, admin, "adjust_credits", user, amount=amount, reason=reason,
           balance_after=entry.balance_after)
    await session.commit()
    return entry


async def audit_log(
    session: AsyncSession, *, offset: int, limit: int, action: str | None = None,
    admin_id: int | None = None, user_id: int | None = None,
) -> tuple[list[AuditLogEntry], int]:
    """A page of the audit log, newest first: of one action, by one admin, about one
    account (each when given)."""
    conditions: list[ColumnElement[bool]] = []
    if action:
        conditions.append(AuditLogEntry.action == action)
    if admin_id is not None:
        conditions.append(AuditLogEntry.admin_id == admin_id)
    if user_id is not None:
        conditions.append(AuditLogEntry.target_user_id == user_id)
    count = await session.scalar(
        select(func.count()).select_from(AuditLogEntry).where(*conditions))
    entries = await session.scalars(
        select(AuditLogEntry).where(*conditions).order_by(AuditLogEntry.id.desc())
        .offset(offset).limit(limit)
    )
    return list(entries), int(count or 0)


async def audit_actions(session: AsyncSession) -> list[str]:
    """Every action the audit log holds, alphabetically (what its filter offers)."""
    actions = await session.scalars(
        select(AuditLogEntry.action).distinct().order_by(AuditLogEntry.action))
    return list(actions)
