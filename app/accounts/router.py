"""REST routes of accounts: ``/auth/*`` (sessions and links) and ``/users/*`` (profile)."""

from __future__ import annotations

import hashlib
from typing import Annotated

from fastapi import (
    APIRouter,
    BackgroundTasks,
    File,
    Path,
    Query,
    Request,
    Response,
    UploadFile,
)

from app.accounts import profile, service
from app.accounts.avatars import MAX_UPLOAD_BYTES
from app.accounts.dependencies import (
    AppSettings,
    AvatarSlots,
    ClientIp,
    CurrentUser,
    DatabaseDep,
    DbSession,
    Hooks,
    Limiter,
    MailerDep,
    OffloadDep,
    SeenFrom,
    per_ip,
)
from app.accounts.errors import AvatarTooLarge
from app.accounts.ratelimit import throttled_login
from app.accounts.schemas import (
    AccountDelete,
    DailyCreditsPublic,
    EmailChange,
    EmailRequest,
    LedgerEntriesPublic,
    LedgerEntryPublic,
    LoginRequest,
    Message,
    PasswordChange,
    PasswordReset,
    PlayerSettings,
    PlayerSettingsUpdate,
    SessionPublic,
    SignupAccepted,
    TokenRequest,
    UserCreate,
    UserPrivate,
    UserUpdate,
)
from app.accounts.tokens import CSRF_COOKIE, SESSION_COOKIE, SessionToken
from app.accounts.views import ledger_page, user_private
from app.config import Settings
from app.db import ledger
from app.db.models import User
from app.errors import error_responses

auth_router = APIRouter(prefix="/auth", tags=["auth"],
                        responses=error_responses(400, 401, 403, 409, 413, 422, 429))
users_router = APIRouter(prefix="/users", tags=["users"],
                         responses=error_responses(401, 403, 404, 409, 413, 422, 429))

LINK_SENT = Message(message="If an account uses this address, an e-mail is on its way.")
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=200)]
# Public ids are 32 hex digits: anything else (a NUL included) never reaches the database.
PublicId = Annotated[str, Path(pattern=r"^[0-9a-f]{1,32}$", description="A user's public id")]


def set_session_cookies(response: Response, token: SessionToken, settings: Settings) -> None:
    """The session in an HttpOnly cookie, and its CSRF token in one scripts can read."""
    secure = not settings.is_development
    max_age = settings.session_ttl_seconds
    response.set_cookie(SESSION_COOKIE, token.token, max_age=max_age, httponly=True,
                        secure=secure, samesite="lax", path="/")
    response.set_cookie(CSRF_COOKIE, token.csrf_token, max_age=max_age, httponly=False,
                        secure=secure, samesite="lax", path="/")


def clear_session_cookies(response: Response, settings: Settings) -> None:
    """Remove both session cookies."""
    secure = not settings.is_development
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, path="/", secure=secure, samesite="lax",
                               httponly=name == SESSION_COOKIE)


def session_body(user: User, token: SessionToken, settings: Settings) -> SessionPublic:
    """The body of a response that opens a session."""
    return SessionPublic(access_token=token.token, expires_at=token.expires_at,
                         csrf_token=token.csrf_token, user=user_private(user, settings))


@auth_router.post("/signup", status_code=202,
                  dependencies=[per_ip("signup", "rate_limit_signup_ip")])
async def signup(
    data: UserCreate,
    session: DbSession,
    settings: AppSettings,
    mailer: MailerDep,
    limiter: Limiter,
    seen: SeenFrom,
) -> SignupAccepted:
    """Create an account and mail a verification link; a known address gets the same answer.

    The owner of a known address is told by mail that someone tried to sign up with it.
    """
    await limiter.hit("signup:account", data.email, settings.rate_limit_signup_account)
    await service.signup(session, settings, mailer, data, seen)
    return SignupAccepted(email=data.email, message=(
        f"Check {data.email} for a link to confirm the address, then log in."))


@auth_router.post("/verify-email", dependencies=[per_ip("verify", "rate_limit_verify_ip")])
async def verify_email(
    data: TokenRequest, session: DbSession, settings: AppSettings, mailer: MailerDep
) -> UserPrivate:
    """Confirm an address with the token from a verification or e-mail-change link."""
    user = await service.verify_email(session, settings, mailer, data.token)
    return user_private(user, settings)


@auth_router.post("/request-verify", status_code=202,
                  dependencies=[per_ip("verify", "rate_limit_verify_ip")])
async def request_verify(
    data: EmailRequest,
    background: BackgroundTasks,
    database: DatabaseDep,
    settings: AppSettings,
    mailer: MailerDep,
    limiter: Limiter,
) -> Message:
    """Send the verification link again (same answer whether or not the account exists)."""
    await limiter.hit("verify:account", data.email, settings.rate_limit_verify_account)
    background.add_task(service.in_new_session, database, lambda session:
                        service.request_verification(session, settings, mailer, data.email))
    return LINK_SENT


@auth_router.post("/login", dependencies=[per_ip("login", "rate_limit_login_ip")])
async def login(
    data: LoginRequest,
    response: Response,
    session: DbSession,
    settings: AppSettings,
    limiter: Limiter,
    ip: ClientIp,
    seen: SeenFrom,
) -> SessionPublic:
    """Open a session: an HttpOnly cookie for browsers, the token in the body for others."""
    user, token = await throttled_login(
        limiter, settings, email=data.email, ip=ip,
        attempt=lambda: service.login(session, settings, data.email, data.password,
                                    seen))
    set_session_cookies(response, token, settings)
    return session_body(user, token, settings)


@auth_router.post("/logout", status_code=204)
async def logout(
    user: CurrentUser,
    response: Response,
    session: DbSession,
    settings: AppSettings,
    hooks: Hooks,
) -> None:
    """End the session (every session of this account, open sockets included)."""
    await service.logout(session, hooks, user)
    clear_session_cookies(response, settings)


@auth_router.post("/forgot-password", status_code=202,
                  dependencies=[per_ip("forgot", "rate_limit_forgot_ip")])
async def forgot_password(
    data: EmailRequest,
    background: BackgroundTasks,
    database: DatabaseDep,
    settings: AppSettings,
    mailer: MailerDep,
    limiter: Limiter,
) -> Message:
    """E-mail a one-hour password reset link (same answer whether or not the account exists)."""
    await limiter.hit("forgot:account", data.email, settings.rate_limit_forgot_account)
    background.add_task(service.in_new_session, database, lambda session:
                        service.forgot_password(session, settings, mailer, data.email))
    return LINK_SENT


@auth_router.post("/reset-password", dependencies=[per_ip("verify", "rate_limit_verify_ip")])
async def reset_password(
    data: PasswordReset,
    session: DbSession,
    settings: AppSettings,
    mailer: MailerDep,
    hooks: Hooks,
) -> Message:
    """Set a new password with the token from a reset link; every session ends."""
    await service.reset_password(session, settings, mailer, hooks, data.token,
                                 data.new_password)
    return Message(message="Password changed. Log in with the new password.")


@users_router.get("/me")
async def read_me(user: CurrentUser, settings: AppSettings) -> UserPrivate:
    """The signed-in account."""
    return user_private(user, settings)


@users_router.patch("/me")
async def update_me(
    data: UserUpdate, user: CurrentUser, session: DbSession, settings: AppSettings
) -> UserPrivate:
    """Change the display name."""
    await profile.rename(session, user, data.display_name)
    return user_private(user, settings)


@users_router.patch("/me/settings")
async def update_my_settings(data: PlayerSettingsUpdate, user: CurrentUser,
                             session: DbSession) -> PlayerSettings:
    """Change some of your settings (those left out keep their value); they are also in
    ``GET /users/me``."""
    return await profile.change_settings(session, user, data)


@users_router.put("/me/avatar")
async def put_avatar(
    file: Annotated[UploadFile, File(description="PNG, JPEG or WebP, at most 1 MB")],
    user: CurrentUser,
    session: DbSession,
    settings: AppSettings,
    slots: AvatarSlots,
    offload: OffloadDep,
) -> UserPrivate:
    """Upload an avatar; it is re-encoded to 256x256 and served at the avatar URL."""
    upload = await file.read(MAX_UPLOAD_BYTES + 1)
    if len(upload) > MAX_UPLOAD_BYTES:
        raise AvatarTooLarge("avatar must be at most 1 MB", max_bytes=MAX_UPLOAD_BYTES)
    await profile.set_avatar(session, user, upload, slots=slots, offload=offload)
    return user_private(user, settings)


@users_router.get("/{public_id}/avatar", response_class=Response,
                  responses={200: {"content": {"image/webp": {}}}, 404: {}})
async def get_avatar(public_id: PublicId, request: Request, session: DbSession,
                     offload: OffloadDep) -> Response:
    """A user's avatar, or a generated one when none was uploaded."""
    found = await profile.avatar_of(session, public_id, offload=offload)
    if found is None:
        return Response(status_code=404)
    image, content_type = found
    etag = '"' + hashlib.sha256(image).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "public, no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(image, media_type=content_type, headers=headers)


@users_router.post("/me/password")
async def change_password(
    data: PasswordChange,
    response: Response,
    user: CurrentUser,
    session: DbSession,
    settings: AppSettings,
    mailer: MailerDep,
    hooks: Hooks,
) -> SessionPublic:
    """Change the password; other sessions end and this client gets a new session."""
    token = await profile.change_password(session, settings, mailer, hooks, user,
                                          data.current_password, data.new_password)
    set_session_cookies(response, token, settings)
    return session_body(user, token, settings)


@users_router.post("/me/email", status_code=202,
                   dependencies=[per_ip("email-change", "rate_limit_email_change_ip")])
async def change_email(
    data: EmailChange,
    user: CurrentUser,
    session: DbSession,
    settings: AppSettings,
    mailer: MailerDep,
    limiter: Limiter,
) -> Message:
    """Ask to change the address; it changes when the link sent to the new one is used."""
    await limiter.hit("email-change:account", str(user.id),
                      settings.rate_limit_email_change_account)
    await profile.request_email_change(session, settings, mailer, user,
                                       data.current_password, data.new_email)
    return Message(message=f"Confirm the change with the link sent to {data.new_email}.")


@users_router.delete("/me", status_code=204)
async def delete_me(
    data: AccountDelete,
    response: Response,
    user: CurrentUser,
    session: DbSession,
    settings: AppSettings,
    mailer: MailerDep,
    hooks: Hooks,
) -> None:
    """Delete the account: cash out of tables, erase personal data, send a goodbye."""
    await profile.delete_account(session, settings, mailer, hooks, user, data.password)
    clear_session_cookies(response, settings)


@users_router.get("/me/ledger")
async def read_ledger(
    user: CurrentUser, session: DbSession, page: Page = 1, per_page: PerPage = 50
) -> LedgerEntriesPublic:
    """The account's credit history, newest first, one page at a time."""
    entries, count = await ledger.entries_for(session, user.id, offset=(page - 1) * per_page,
                                              limit=per_page)
    return await ledger_page(session, entries, count, page=page, per_page=per_page)


@users_router.post("/me/daily-credits")
async def claim_daily_credits(
    user: CurrentUser, session: DbSession, settings: AppSettings
) -> DailyCreditsPublic:
    """Claim the free daily credits (once per cooldown; needs a verified address)."""
    entry = await profile.claim_daily_credits(session, settings, user)
    return DailyCreditsPublic(
        entry=LedgerEntryPublic.model_validate(entry),
        balance=entry.balance_after,
        next_available_at=profile.daily_credits_available_at(user, settings),
    )
