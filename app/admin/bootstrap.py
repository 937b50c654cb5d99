"""``holdem create-admin`` and ``holdem demote``: give or take away the admin role."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.hooks import AccountHooks
from app.accounts.passwords import check_password_policy, hash_password
from app.accounts.schemas import display_name_key, normalise_email
from app.accounts.service import user_by_email
from app.admin.errors import NotAnAdmin, UserNotFound
from app.admin.service import demote, record
from app.config import Settings
from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerReason, Role, User, UserStatus, utcnow
from app.table.store import house_account


@dataclass(frozen=True)
class AdminCreated:
    """What ``create-admin`` did."""

    user_id: int
    email: str
    created: bool


async def _free_display_name(session: AsyncSession, email: str) -> str:
    base = re.sub(r"[^A-Za-z0-9]", "", email.partition("@")[0])[:14] or "admin"
    base = base if len(base) >= 3 else f"{base}admin"
    candidate, number = base, 1
    while await session.scalar(
        select(User.id).where(User.display_name_key == display_name_key(candidate))
    ):
        number += 1
        candidate = f"{base}{number}"
    return candidate


async def create_admin(settings: Settings, email: str, password: str | None) -> AdminCreated:
    """Make ``email`` an admin: promote the account, or create it (verified) with ``password``.

    An existing account keeps its password unless a new one is given.
    """
    address = normalise_email(email)
    database = Database(settings.database_url)
    try:
        async with database.sessions() as session:
            user = await user_by_email(session, address)
            created = user is None
            if user is None:
                if password is None:
                    raise ValueError("a new account needs a password")
                user = await _new_verified_user(session, settings, address, password)
            elif password is not None:
                check_password_policy(password, email=address, display_name=user.display_name)
                user.password_hash = await hash_password(password, settings)
                user.token_version += 1
            user.role = Role.ADMIN
            user.status = UserStatus.ACTIVE
            await session.flush()
            record(session, user, "create_admin" if created else "promote_admin", user,
                   via="cli")
            await session.commit()
            return AdminCreated(user.id, address, created)
    finally:
        await database.dispose()


async def demote_admin(settings: Settings, email: str, *, by: str | None = None) -> int:
    """Make the admin using ``email`` a player again (``holdem demote``); their id.

    The audit log names the admin using ``by``; without one, the server's own account
    (the house), as for any change the operator makes without an admin account.
    """
    address = normalise_email(email)
    database = Database(settings.database_url)
    try:
        async with database.sessions() as session:
            user = await user_by_email(session, address)
            if user is None:
                raise UserNotFound(f"no account uses {address}", email=address)
            actor = await _operator(session, settings, by)
            await demote(session, AccountHooks(), actor, user, via="cli")
            return user.id
    finally:
        await database.dispose()


async def _operator(session: AsyncSession, settings: Settings, email: str | None) -> User:
    """The admin account the audit log names for a command-line change, or the house."""
    if email is None:
        house = await house_account(session, bankroll=settings.house_initial_bankroll)
        return await session.get_one(User, house)
    address = normalise_email(email)
    admin = await user_by_email(session, address)
    if admin is None:
        raise UserNotFound(f"no account uses {address}", email=address)
    if admin.role is not Role.ADMIN:
        raise NotAnAdmin(f"{address} is not an admin", user_id=admin.id)
    return admin


async def _new_verified_user(
    session: AsyncSession, settings: Settings, email: str, password: str
) -> User:
    check_password_policy(password, email=email)
    name = await _free_display_name(session, email)
    user = User(email=email, display_name=name, display_name_key=display_name_key(name),
                password_hash=await hash_password(password, settings),
                email_verified_at=utcnow(), created_at=utcnow())
    session.add(user)
    await session.flush()
    if settings.starting_credits > 0:
        await ledger.credit(session, user.id, settings.starting_credits,
                            reason=LedgerReason.SIGNUP_GRANT)
    return user
