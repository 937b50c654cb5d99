"""What a signed-in user does with their account: profile, avatar, password, e-mail,
daily credits, deletion."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from app.accounts import mail
from app.accounts.avatars import CONTENT_TYPE, default_avatar, normalise_avatar
from app.accounts.errors import (
    DailyCreditsNotReady,
    DisplayNameTaken,
    EmailNotVerified,
    WrongPassword,
)
from app.accounts.hooks import AccountHooks
from app.accounts.mail import Mailer
from app.accounts.passwords import check_password_policy, verify_password
from app.accounts.schemas import PlayerSettings, PlayerSettingsUpdate, display_name_key
from app.accounts.service import (
    describe_duration,
    ensure_display_name_free,
    ensure_email_free,
    issue_link,
    notify_password_changed,
    open_session,
    revoke_sessions,
    set_password,
)
from app.accounts.tokens import SessionToken
from app.config import Settings
from app.db import ledger
from app.db.chat import ChatLine, IgnoredPlayer
from app.db.models import (
    AccountToken,
    Avatar,
    LedgerEntry,
    LedgerReason,
    TokenPurpose,
    User,
    UserStatus,
    utcnow,
)
from app.db.players import PlayerNote
from app.integrity import signins
from app.offload import Offload


async def confirm_password(user: User, password: str, settings: Settings) -> None:
    """Raise :class:`WrongPassword` unless ``password`` is the user's current one."""
    matches, _ = await verify_password(password, user.password_hash, settings)
    if not matches:
        raise WrongPassword("the current password is wrong")


async def rename(session: AsyncSession, user: User, display_name: str) -> User:
    """Change the display name (unique, case-insensitively)."""
    await ensure_display_name_free(session, display_name, except_user=user.id)
    user.display_name = display_name
    user.display_name_key = display_name_key(display_name)
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise DisplayNameTaken("this display name is taken", display_name=display_name) from None
    return user


def settings_of(user: User) -> PlayerSettings:
    """The account's settings, each one not set yet at its default (a setting no longer
    offered is left out)."""
    stored = user.settings or {}
    return PlayerSettings(**{k: v for k, v in stored.items()
                             if k in PlayerSettings.model_fields})


async def change_settings(session: AsyncSession, user: User,
                          change: PlayerSettingsUpdate) -> PlayerSettings:
    """Store the settings ``change`` gives; the others keep their value.

    Changes sent at once (two boxes ticked quickly, two devices) each carry only their
    own setting, so the stored ones are read afresh under the row's write lock, taken
    first by writing the row unchanged (a row lock on PostgreSQL, the database's write
    lock on SQLite): no change is merged into settings another has replaced meanwhile."""
    stored = await session.scalar(
        update(User).where(User.id == user.id).values(settings=User.settings)
        .returning(User.settings).execution_options(synchronize_session=False))
    set_committed_value(user, "settings", stored)
    merged = settings_of(user).model_copy(update=change.model_dump(exclude_unset=True))
    defaults = PlayerSettings()
    user.settings = {k: v for k, v in merged.model_dump().items() if getattr(defaults, k) != v}
    await session.commit()
    return merged


async def set_avatar(
    session: AsyncSession, user: User, upload: bytes, *, slots: asyncio.Semaphore,
    offload: Offload,
) -> None:
    """Validate, re-encode (in ``offload``'s pool) and store an uploaded avatar (decoding
    waits for one of ``slots``)."""
    async with slots:
        image = await offload.run(normalise_avatar, upload)
    avatar = await session.get(Avatar, user.id)
    if avatar is None:
        session.add(Avatar(user_id=user.id, image=image, content_type=CONTENT_TYPE,
                           updated_at=utcnow()))
    else:
        avatar.image, avatar.content_type, avatar.updated_at = image, CONTENT_TYPE, utcnow()
    await session.commit()


async def avatar_of(session: AsyncSession, public_id: str, *, offload: Offload
                    ) -> tuple[bytes, str] | None:
    """The avatar image and content type of an account (generated, in ``offload``'s pool,
    if none was uploaded)."""
    row = (
        await session.execute(
            select(User.id, Avatar.image, Avatar.content_type)
            .outerjoin(Avatar, Avatar.user_id == User.id)
            .where(User.public_id == public_id)
        )
    ).first()
    if row is None:
        return None
    if row.image is None:
        return await offload.run(default_avatar, public_id), CONTENT_TYPE
    return bytes(row.image), str(row.content_type)


async def change_password(
    session: AsyncSession,
    settings: Settings,
    mailer: Mailer,
    hooks: AccountHooks,
    user: User,
    current_password: str,
    new_password: str,
) -> SessionToken:
    """Replace the password, end every other session and return a new one for this client."""
    await confirm_password(user, current_password, settings)
    assert user.email is not None
    check_password_policy(new_password, email=user.email, display_name=user.display_name)
    await set_password(session, settings, user, new_password)
    notify_password_changed(session, mailer, user)
    await session.commit()
    await hooks.run_after_revoke(user.id)
    return open_session(user, settings)


def mask_email(email: str) -> str:
    """``alice@example.com`` → ``a****@example.com``: enough to recognise, not to harvest."""
    local, _, domain = email.partition("@")
    return f"{local[:1]}{'*' * max(len(local) - 1, 1)}@{domain}"


async def request_email_change(
    session: AsyncSession,
    settings: Settings,
    mailer: Mailer,
    user: User,
    current_password: str,
    new_email: str,
) -> None:
    """Mail a confirmation link to the new address and a notice to the current one."""
    await confirm_password(user, current_password, settings)
    await ensure_email_free(session, new_email)
    link = await issue_link(session, settings, user, TokenPurpose.CHANGE_EMAIL,
                            ttl_seconds=settings.verify_token_ttl_seconds, email=new_email)
    assert user.email is not None
    mailer.queue(session, mail.EMAIL_CHANGE_NEW, new_email, display_name=user.display_name,
                 link=link, new_email=new_email,
                 expires_in=describe_duration(settings.verify_token_ttl_seconds))
    mailer.queue(session, mail.EMAIL_CHANGE_OLD, user.email, display_name=user.display_name,
                 new_email_masked=mask_email(new_email))
    await session.commit()


def daily_credits_available_at(user: User, settings: Settings) -> datetime:
    """When the user may next claim daily credits."""
    if user.last_daily_credits_at is None:
        return user.created_at
    return user.last_daily_credits_at + timedelta(seconds=settings.daily_credits_cooldown_seconds)


async def claim_daily_credits(
    session: AsyncSession, settings: Settings, user: User
) -> LedgerEntry:
    """Grant the daily credits once per cooldown; concurrent claims get one grant."""
    if user.email_verified_at is None:
        raise EmailNotVerified("verify your e-mail address to claim daily credits")
    now = utcnow()
    ready_since = now - timedelta(seconds=settings.daily_credits_cooldown_seconds)
    claimed = await session.execute(
        update(User)
        .where(
            User.id == user.id,
            or_(User.last_daily_credits_at.is_(None), User.last_daily_credits_at <= ready_since),
        )
        .values(last_daily_credits_at=now)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], claimed).rowcount != 1:
        await session.refresh(user)
        available_at = daily_credits_available_at(user, settings)
        wait = max(1, int((available_at - now).total_seconds()))
        raise DailyCreditsNotReady(
            f"daily credits already claimed, come back in {describe_duration(wait)}",
            available_at=available_at.isoformat(),
            retry_after=wait,
        )
    set_committed_value(user, "last_daily_credits_at", now)
    entry = await ledger.credit(session, user.id, settings.daily_credits,
                                reason=LedgerReason.DAILY_CREDITS)
    await session.commit()
    return entry


async def delete_account(
    session: AsyncSession,
    settings: Settings,
    mailer: Mailer,
    hooks: AccountHooks,
    user: User,
    password: str,
) -> None:
    """Cash out of every table, erase personal data and keep only an anonymous row."""
    await confirm_password(user, password, settings)
    await hooks.run_before_delete(user.id)
    await session.refresh(user)
    email, display_name = user.email, user.display_name
    if user.balance > 0:
        await ledger.debit(session, user.id, user.balance, reason=LedgerReason.ACCOUNT_CLOSED)
    await erase(session, user)
    if email:
        mailer.queue(session, mail.ACCOUNT_DELETED, email, display_name=display_name,
                     deleted_at=utcnow().strftime("%Y-%m-%d %H:%M UTC"))
    await session.commit()
    await hooks.run_after_revoke(user.id)


async def erase(session: AsyncSession, user: User) -> None:
    """Remove everything that identifies ``user``; ids stay for the ledger and hand histories."""
    await session.execute(delete(AccountToken).where(AccountToken.user_id == user.id))
    await session.execute(delete(Avatar).where(Avatar.user_id == user.id))
    # Notes are personal data of their author and about their subject: gone either way.
    await session.execute(delete(PlayerNote).where(
        or_(PlayerNote.author_id == user.id, PlayerNote.subject_id == user.id)))
    # So are whom they ignored (or were ignored by) and the chat lines they said.
    await session.execute(delete(IgnoredPlayer).where(
        or_(IgnoredPlayer.user_id == user.id, IgnoredPlayer.ignored_id == user.id)))
    await session.execute(delete(ChatLine).where(ChatLine.user_id == user.id))
    # Where they signed in from: gone with the account (docs/PRIVACY.md).
    await signins.forget(session, user.id)
    user.mute_reason = None
    user.email = None
    user.display_name = None
    user.display_name_key = None
    user.password_hash = None
    user.email_verified_at = None
    user.ban_reason = None
    user.status = UserStatus.DELETED
    user.deleted_at = utcnow()
    await revoke_sessions(session, user)
