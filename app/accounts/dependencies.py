"""Shared request checks as FastAPI dependencies, with ``Annotated`` aliases.

``DbSession`` is one session per request; ``CurrentUser`` resolves the session
token (``Authorization: Bearer`` first, then the cookie, which also needs the
CSRF header on state-changing methods); ``AdminUser`` also requires the admin role.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.errors import AdminRequired, CsrfFailed, NotAuthenticated
from app.accounts.hooks import AccountHooks
from app.accounts.mail import Mailer
from app.accounts.ratelimit import RateLimiter
from app.accounts.service import authenticate
from app.accounts.tokens import CSRF_HEADER, SESSION_COOKIE, csrf_matches, decode_session_token
from app.config import RateLimit, Settings
from app.db.engine import Database
from app.db.models import Role, User
from app.integrity.signins import (
    DEVICE_COOKIE,
    DEVICE_COOKIE_SECONDS,
    Seen,
    device_mark,
    new_device_token,
    valid_device_token,
)
from app.offload import Offload

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

bearer_scheme = HTTPBearer(auto_error=False, description="The access_token from /auth/login")
cookie_scheme = APIKeyCookie(name=SESSION_COOKIE, auto_error=False,
                             description="Set by /auth/login; needs the X-CSRF-Token header")


def get_settings_of_app(request: Request) -> Settings:
    """The settings the application was built with."""
    settings: Settings = request.app.state.settings
    return settings


def get_mailer(request: Request) -> Mailer:
    """The application's mailer."""
    mailer: Mailer = request.app.state.mailer
    return mailer


def get_hooks(request: Request) -> AccountHooks:
    """The hooks other features registered for account events."""
    hooks: AccountHooks = request.app.state.account_hooks
    return hooks


def get_rate_limiter(request: Request) -> RateLimiter:
    """The application's rate limiter."""
    limiter: RateLimiter = request.app.state.rate_limiter
    return limiter


def get_avatar_slots(request: Request) -> asyncio.Semaphore:
    """How many avatar uploads may decode at once in this process."""
    slots: asyncio.Semaphore = request.app.state.avatar_slots
    return slots


def get_offload(request: Request) -> Offload:
    """The application's pool for heavy work beside the tables (:mod:`app.offload`)."""
    offload: Offload = request.app.state.offload
    return offload


def get_database(request: Request) -> Database:
    """The application's database (for work that outlives the request's session)."""
    database: Database = request.app.state.database
    return database


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    """A session for this request, closed (rolling back anything uncommitted) after it."""
    database: Database = request.app.state.database
    async with database.sessions() as session:
        yield session


AppSettings = Annotated[Settings, Depends(get_settings_of_app)]
DbSession = Annotated[AsyncSession, Depends(get_db)]
DatabaseDep = Annotated[Database, Depends(get_database)]
MailerDep = Annotated[Mailer, Depends(get_mailer)]
Hooks = Annotated[AccountHooks, Depends(get_hooks)]
Limiter = Annotated[RateLimiter, Depends(get_rate_limiter)]
AvatarSlots = Annotated[asyncio.Semaphore, Depends(get_avatar_slots)]
OffloadDep = Annotated[Offload, Depends(get_offload)]


def client_ip(request: Request) -> str:
    """The caller's address (the proxy's forwarded one only from ``FORWARDED_ALLOW_IPS``)."""
    return request.client.host if request.client else "unknown"


ClientIp = Annotated[str, Depends(client_ip)]


def seen_from(request: Request, response: Response, settings: AppSettings) -> Seen:
    """Where this sign-up or login comes from: the address, the device mark (the device
    cookie's digest; a request without a valid cookie gets a new one on this response) and
    the user agent."""
    token = valid_device_token(request.cookies.get(DEVICE_COOKIE))
    if token is None:
        token = new_device_token()
        response.set_cookie(DEVICE_COOKIE, token, max_age=DEVICE_COOKIE_SECONDS, httponly=True,
                            secure=not settings.is_development, samesite="lax", path="/")
    return Seen(address=client_ip(request), device=device_mark(token),
                user_agent=request.headers.get("user-agent", ""))


SeenFrom = Annotated[Seen, Depends(seen_from)]


def per_ip(action: str, setting: str) -> Any:
    """A dependency counting one ``action`` attempt against the IP limit named ``setting``."""

    async def check(request: Request, limiter: Limiter, settings: AppSettings) -> None:
        limit: RateLimit = getattr(settings, setting)
        await limiter.hit(f"{action}:ip", client_ip(request), limit)

    return Depends(check)


async def current_user(
    request: Request,
    session: DbSession,
    settings: AppSettings,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)],
    cookie: Annotated[str | None, Depends(cookie_scheme)],
) -> User:
    """The signed-in user; bearer tokens skip CSRF, cookie sessions must send it."""
    if bearer is not None:
        return await authenticate(session, settings, bearer.credentials)
    if cookie is None:
        raise NotAuthenticated("log in first")
    if request.method not in SAFE_METHODS:
        claims = decode_session_token(cookie, settings)
        if not csrf_matches(request.headers.get(CSRF_HEADER), claims.jti, settings):
            raise CsrfFailed(f"send the {CSRF_HEADER} header from login with this request")
    return await authenticate(session, settings, cookie)


CurrentUser = Annotated[User, Depends(current_user)]


async def admin_user(user: CurrentUser) -> User:
    """The signed-in user, who must be an admin."""
    if user.role is not Role.ADMIN:
        raise AdminRequired("admins only")
    return user


AdminUser = Annotated[User, Depends(admin_user)]
