"""Sign-up, verification, login, logout and password reset; resolving a session to a user."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable, Collection
from datetime import timedelta
from typing import Any, cast
from urllib.parse import urlencode

from sqlalchemy import delete, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import mail
from app.accounts.errors import (
    AccountBanned,
    DisplayNameTaken,
    EmailTaken,
    InvalidCredentials,
    NotAuthenticated,
    TokenExpired,
    TokenInvalid,
    TokenUsed,
)
from app.accounts.hooks import AccountHooks
from app.accounts.mail import Mailer
from app.accounts.passwords import check_password_policy, hash_password, verify_password
from app.accounts.schemas import UserCreate, display_name_key
from app.accounts.tokens import (
    SessionToken,
    decode_session_token,
    fingerprint_in,
    hash_link_token,
    issue_session_token,
    link_fingerprint,
    new_link_token,
)
from app.config import Settings
from app.db import ledger
from app.db.engine import Database
from app.db.integrity import SignInKind
from app.db.models import AccountToken, LedgerReason, TokenPurpose, User, UserStatus, utcnow
from app.integrity.signins import Seen

log = logging.getLogger(__name__)

LINK_PATHS = {
    TokenPurpose.VERIFY_EMAIL: "/auth/verify-email",
    TokenPurpose.CHANGE_EMAIL: "/auth/verify-email",
    TokenPurpose.RESET_PASSWORD: "/auth/reset-password",
}


def describe_duration(seconds: int) -> str:
    """``3600`` → ``"1 hour"``, ``172800`` → ``"2 days"``, ``5400`` → ``"90 minutes"``."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


async def user_by_email(session: AsyncSession, email: str) -> User | None:
    """The account using ``email`` (already normalised), if any."""
    return await session.scalar(select(User).where(User.email == email))


async def ensure_email_free(session: AsyncSession, email: str) -> None:
    """Raise :class:`EmailTaken` when any account uses ``email``."""
    if await user_by_email(session, email) is not None:
        raise EmailTaken("an account already uses this e-mail address")


async def ensure_display_name_free(
    session: AsyncSession, name: str, *, except_user: int | None = None
) -> None:
    """Raise :class:`DisplayNameTaken` when another account uses ``name`` (any case)."""
    owner = await session.scalar(
        select(User.id).where(User.display_name_key == display_name_key(name))
    )
    if owner is not None and owner != except_user:
        raise DisplayNameTaken("this display name is taken", display_name=name)


async def issue_link(
    session: AsyncSession,
    settings: Settings,
    user: User,
    purpose: TokenPurpose,
    *,
    ttl_seconds: int,
    email: str | None = None,
    next_path: str | None = None,
) -> str:
    """Store a new single-use token for ``user`` and return the link that carries it
    (and ``next_path``, the page the link's page leads on to).

    The token is bound to the account's current address and password: see
    :func:`app.accounts.tokens.link_fingerprint`.
    """
    token, digest = new_link_token(
        link_fingerprint(user.id, user.email, user.password_hash, settings))
    now = utcnow()
    session.add(
        AccountToken(
            user_id=user.id,
            purpose=purpose,
            token_hash=digest,
            new_email=email,
            created_at=now,
            expires_at=now + timedelta(seconds=ttl_seconds),
        )
    )
    link = f"{settings.public_url.rstrip('/')}{LINK_PATHS[purpose]}?token={token}"
    return f"{link}&{urlencode({'next': next_path})}" if next_path else link


async def find_link_token(
    session: AsyncSession, token: str, purposes: Collection[TokenPurpose]
) -> AccountToken:
    """The stored token behind ``token`` if it is for one of ``purposes``, unused and fresh."""
    record = await session.scalar(
        select(AccountToken).where(AccountToken.token_hash == hash_link_token(token))
    )
    if record is None or record.purpose not in purposes:
        raise TokenInvalid("this link is not valid")
    if record.used_at is not None:
        raise TokenUsed("this link was already used")
    if record.expires_at <= utcnow():
        raise TokenExpired("this link has expired, ask for a new one")
    return record


async def consume_link_token(session: AsyncSession, record: AccountToken) -> None:
    """Mark a token used, exactly once even when two requests race for it."""
    result = await session.execute(
        update(AccountToken)
        .where(AccountToken.id == record.id, AccountToken.used_at.is_(None))
        .values(used_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], result).rowcount != 1:
        raise TokenUsed("this link was already used")


async def active_user_for(
    session: AsyncSession, settings: Settings, record: AccountToken, token: str
) -> User:
    """The owner of a link token: still active, with the address and password the link
    was mailed for."""
    user = await session.get(User, record.user_id)
    if user is None or user.status is not UserStatus.ACTIVE:
        raise TokenInvalid("this link is not valid")
    expected = link_fingerprint(user.id, user.email, user.password_hash, settings)
    if not hmac.compare_digest(fingerprint_in(token), expected):
        raise TokenInvalid("the account's e-mail address or password changed since this link "
                           "was sent: ask for a new one")
    return user


async def signup(
    session: AsyncSession, settings: Settings, mailer: Mailer, data: UserCreate, seen: Seen,
) -> None:
    """Create an account, grant the starting credits and mail the verification link (and
    record where the sign-up came from, ``seen``).

    An address that already has an account gets a notice instead and the caller sees no
    difference (the password is hashed either way, so the time taken tells nothing).
    """
    check_password_policy(data.password, email=data.email, display_name=data.display_name)
    await ensure_display_name_free(session, data.display_name)
    password_hash = await hash_password(data.password, settings)
    existing = await user_by_email(session, data.email)
    if existing is not None:
        notify_signup_attempt(session, mailer, existing)
        await session.commit()
        return
    user = User(
        email=data.email,
        display_name=data.display_name,
        display_name_key=display_name_key(data.display_name),
        password_hash=password_hash,
        created_at=utcnow(),
    )
    session.add(user)
    try:
        await session.flush()
    except IntegrityError:
        await session.rollback()
        await ensure_display_name_free(session, data.display_name)
        existing = await user_by_email(session, data.email)
        if existing is None:
            raise
        notify_signup_attempt(session, mailer, existing)  # an account was made meanwhile
        await session.commit()
        return
    if settings.starting_credits > 0:
        await ledger.credit(session, user.id, settings.starting_credits,
                            reason=LedgerReason.SIGNUP_GRANT)
    seen.record(session, user.id, SignInKind.SIGNUP)
    await send_verification(session, settings, mailer, user, commit=True, next_path=data.next)


def notify_signup_attempt(session: AsyncSession, mailer: Mailer, user: User) -> None:
    """Tell the owner of an address that someone tried to sign up with it (not committed)."""
    assert user.email is not None
    mailer.queue(session, mail.SIGNUP_EXISTING, user.email, display_name=user.display_name)


async def send_verification(
    session: AsyncSession, settings: Settings, mailer: Mailer, user: User, *, commit: bool,
    next_path: str | None = None,
) -> None:
    """Issue a verification link for the user's address and mail it (in the same
    transaction, committed when ``commit``); the confirmed page leads on to ``next_path``."""
    link = await issue_link(session, settings, user, TokenPurpose.VERIFY_EMAIL,
                            ttl_seconds=settings.verify_token_ttl_seconds, email=user.email,
                            next_path=next_path)
    assert user.email is not None
    mailer.queue(session, mail.VERIFY, user.email, display_name=user.display_name, link=link,
                 expires_in=describe_duration(settings.verify_token_ttl_seconds))
    if commit:
        await session.commit()


async def request_verification(
    session: AsyncSession, settings: Settings, mailer: Mailer, email: str
) -> None:
    """Mail a fresh verification link when ``email`` belongs to an unverified active account."""
    user = await user_by_email(session, email)
    if user is None or user.status is not UserStatus.ACTIVE or user.email_verified_at:
        return
    await send_verification(session, settings, mailer, user, commit=True)


async def verify_email(
    session: AsyncSession, settings: Settings, mailer: Mailer, token: str
) -> User:
    """Apply a verification or e-mail-change link."""
    record = await find_link_token(
        session, token, (TokenPurpose.VERIFY_EMAIL, TokenPurpose.CHANGE_EMAIL)
    )
    user = await active_user_for(session, settings, record, token)
    if record.purpose is TokenPurpose.CHANGE_EMAIL:
        return await _apply_email_change(session, user, record)
    if record.new_email != user.email:
        raise TokenInvalid("this link was for an address the account no longer uses")
    await consume_link_token(session, record)
    first_time = user.email_verified_at is None
    if first_time:
        user.email_verified_at = utcnow()
        if user.email:
            mailer.queue(session, mail.WELCOME, user.email, display_name=user.display_name,
                         balance=user.balance)
    await session.commit()
    return user


async def _apply_email_change(session: AsyncSession, user: User, record: AccountToken) -> User:
    assert record.new_email is not None
    await ensure_email_free(session, record.new_email)
    await consume_link_token(session, record)
    user.email = record.new_email
    user.email_verified_at = utcnow()
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise EmailTaken("an account already uses this e-mail address") from None
    return user


async def login(
    session: AsyncSession, settings: Settings, email: str, password: str, seen: Seen,
) -> tuple[User, SessionToken]:
    """Check the credentials and open a session, recording where it came from (``seen``);
    banned accounts are refused."""
    user = await user_by_email(session, email)
    matches, new_hash = await verify_password(
        password, user.password_hash if user else None, settings
    )
    if user is None or not matches or user.status is UserStatus.DELETED:
        raise InvalidCredentials("wrong e-mail or password")
    if user.status is UserStatus.BANNED:
        raise AccountBanned("this account is banned", reason=user.ban_reason)
    if new_hash is not None:
        user.password_hash = new_hash
    seen.record(session, user.id, SignInKind.LOGIN)
    await session.commit()
    return user, open_session(user, settings)


def open_session(user: User, settings: Settings) -> SessionToken:
    """A session token for ``user`` at their current token version."""
    return issue_session_token(user.id, user.token_version, settings, now=utcnow())


async def authenticate(session: AsyncSession, settings: Settings, token: str) -> User:
    """The active user a session token belongs to.

    Raises :class:`NotAuthenticated` for a bad, expired or revoked token (or a
    deleted account) and :class:`AccountBanned` for a banned account. The
    Socket.IO connect handler calls this with the token from
    :func:`app.accounts.tokens.session_token_from`.
    """
    claims = decode_session_token(token, settings)
    user = await session.get(User, claims.user_id, populate_existing=True)
    if user is None or user.status is UserStatus.DELETED or user.token_version != claims.version:
        raise NotAuthenticated("session expired or revoked, log in again")
    if user.status is UserStatus.BANNED:
        raise AccountBanned("this account is banned", reason=user.ban_reason)
    return user


async def revoke_sessions(session: AsyncSession, user: User) -> None:
    """Invalidate every session token issued to ``user`` so far (not committed).

    Once committed, call ``hooks.run_after_revoke(user.id)``: open sockets
    authenticated with the old tokens are ended there.
    """
    user.token_version = user.token_version + 1


async def logout(session: AsyncSession, hooks: AccountHooks, user: User) -> None:
    """End the user's sessions (every device: tokens carry a per-user version)."""
    await revoke_sessions(session, user)
    await session.commit()
    await hooks.run_after_revoke(user.id)


async def forgot_password(
    session: AsyncSession, settings: Settings, mailer: Mailer, email: str
) -> None:
    """Mail a one-hour reset link when ``email`` belongs to an active account; else nothing."""
    user = await user_by_email(session, email)
    if user is None or user.status is not UserStatus.ACTIVE:
        return
    await session.execute(
        delete(AccountToken).where(
            AccountToken.user_id == user.id,
            AccountToken.purpose == TokenPurpose.RESET_PASSWORD,
            AccountToken.used_at.is_(None),
        )
    )
    link = await issue_link(session, settings, user, TokenPurpose.RESET_PASSWORD,
                            ttl_seconds=settings.reset_token_ttl_seconds)
    assert user.email is not None
    mailer.queue(session, mail.PASSWORD_RESET, user.email, display_name=user.display_name,
                 link=link, expires_in=describe_duration(settings.reset_token_ttl_seconds))
    await session.commit()


async def reset_password(
    session: AsyncSession,
    settings: Settings,
    mailer: Mailer,
    hooks: AccountHooks,
    token: str,
    new_password: str,
) -> None:
    """Set a new password from a reset link and end every session."""
    record = await find_link_token(session, token, (TokenPurpose.RESET_PASSWORD,))
    user = await active_user_for(session, settings, record, token)
    assert user.email is not None
    check_password_policy(new_password, email=user.email, display_name=user.display_name)
    await consume_link_token(session, record)
    await set_password(session, settings, user, new_password)
    if user.email_verified_at is None:
        user.email_verified_at = utcnow()
    notify_password_changed(session, mailer, user)
    await session.commit()
    await hooks.run_after_revoke(user.id)


async def set_password(
    session: AsyncSession, settings: Settings, user: User, password: str
) -> None:
    """Store a new password and revoke every session (not committed)."""
    user.password_hash = await hash_password(password, settings)
    await revoke_sessions(session, user)


def notify_password_changed(session: AsyncSession, mailer: Mailer, user: User) -> None:
    """Tell the owner their password changed, in case it was not them (not committed)."""
    assert user.email is not None
    mailer.queue(session, mail.PASSWORD_CHANGED, user.email, display_name=user.display_name,
                 changed_at=utcnow().strftime("%Y-%m-%d %H:%M UTC"))


async def in_new_session(
    database: Database, work: Callable[[AsyncSession], Awaitable[None]]
) -> None:
    """Run ``work`` with its own session after the response went out; log any failure."""
    try:
        async with database.sessions() as session:
            await work(session)
    except Exception:
        log.exception("background account work failed")
