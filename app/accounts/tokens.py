"""Session JWTs, their CSRF companions, and the single-use tokens mailed in links.

A session token is an HS256 JWT carrying the user id and the user's token
version; bumping the version (logout, password change or reset, ban, deletion)
revokes every older token. Browsers keep it in an HttpOnly cookie; other
clients send it as ``Authorization: Bearer``. Socket.IO clients may pass it as
``auth={"token": ...}`` or rely on the cookie: see :func:`session_token_from`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.cookies import CookieError, SimpleCookie

import jwt

from app.accounts.errors import NotAuthenticated
from app.config import Settings

SESSION_COOKIE = "holdem_session"
CSRF_COOKIE = "holdem_csrf"
CSRF_HEADER = "X-CSRF-Token"
ALGORITHM = "HS256"
TOKEN_TYPE = "session"
LINK_SEPARATOR = "."


@dataclass(frozen=True)
class SessionToken:
    """A freshly issued session: the JWT, its id, expiry and CSRF token."""

    token: str
    jti: str
    expires_at: datetime
    csrf_token: str


@dataclass(frozen=True)
class SessionClaims:
    """What a valid session JWT says."""

    user_id: int
    version: int
    jti: str
    expires_at: datetime


def csrf_token_for(jti: str, settings: Settings) -> str:
    """The CSRF token bound to one session (an HMAC of its id)."""
    digest = hmac.new(settings.secret_key.encode(), f"csrf:{jti}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()


def csrf_matches(given: str | None, jti: str, settings: Settings) -> bool:
    """Whether ``given`` is the CSRF token of session ``jti``."""
    return given is not None and hmac.compare_digest(given, csrf_token_for(jti, settings))


def issue_session_token(
    user_id: int, token_version: int, settings: Settings, *, now: datetime
) -> SessionToken:
    """Sign a session JWT for a user at their current token version."""
    jti = uuid.uuid4().hex
    expires_at = now + timedelta(seconds=settings.session_ttl_seconds)
    claims = {
        "sub": str(user_id),
        "ver": token_version,
        "jti": jti,
        "typ": TOKEN_TYPE,
        "iat": int(now.timestamp()),
        "exp": int(expires_at.timestamp()),
    }
    token = jwt.encode(claims, settings.secret_key, algorithm=ALGORITHM)
    return SessionToken(token, jti, expires_at, csrf_token_for(jti, settings))


def decode_session_token(token: str, settings: Settings) -> SessionClaims:
    """Check a session JWT's signature, expiry and shape; :class:`NotAuthenticated` if bad."""
    try:
        claims = jwt.decode(
            token,
            settings.secret_key,
            algorithms=[ALGORITHM],
            options={"require": ["sub", "ver", "jti", "exp", "typ"]},
        )
        if claims["typ"] != TOKEN_TYPE:
            raise NotAuthenticated("not a session token")
        return SessionClaims(
            user_id=int(claims["sub"]),
            version=int(claims["ver"]),
            jti=str(claims["jti"]),
            expires_at=datetime.fromtimestamp(claims["exp"], UTC),
        )
    except jwt.ExpiredSignatureError:
        raise NotAuthenticated("session expired, log in again") from None
    except (jwt.InvalidTokenError, ValueError, TypeError):
        raise NotAuthenticated("invalid session token") from None


def session_token_from(
    auth: Mapping[str, object] | None = None, cookie_header: str | None = None
) -> str | None:
    """The session token of a Socket.IO connection: ``auth={"token"}`` or the cookie."""
    if auth and isinstance(auth.get("token"), str):
        return str(auth["token"])
    if not cookie_header:
        return None
    try:
        cookies = SimpleCookie(cookie_header)
    except CookieError:
        return None
    morsel = cookies.get(SESSION_COOKIE)
    return morsel.value if morsel else None


def link_fingerprint(user_id: int, email: str | None, password_hash: str | None,
                     settings: Settings) -> str:
    """What a mailed link is bound to: the account's address and password, as an HMAC.

    A link stops working when either changes (a rehash of the same password at login
    counts as a change: links mailed before it must be asked for again).
    """
    bound = f"link:{user_id}:{email or ''}:{password_hash or ''}"
    digest = hmac.new(settings.secret_key.encode(), bound.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def new_link_token(fingerprint: str) -> tuple[str, str]:
    """A random token carrying ``fingerprint`` for an e-mailed link, and the hash to store
    instead of it (the stored hash covers the fingerprint, so it cannot be swapped)."""
    token = f"{secrets.token_urlsafe(32)}{LINK_SEPARATOR}{fingerprint}"
    return token, hash_link_token(token)


def fingerprint_in(token: str) -> str:
    """The fingerprint part of a link token (empty for a token without one)."""
    _, separator, fingerprint = token.rpartition(LINK_SEPARATOR)
    return fingerprint if separator else ""


def hash_link_token(token: str) -> str:
    """The stored form of a link token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()
