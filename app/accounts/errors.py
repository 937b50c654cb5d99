"""Errors a user can cause while managing an account, each with a stable code."""

from __future__ import annotations

from app.errors import HoldemError


class NotAuthenticated(HoldemError):
    """No session, or the session expired or was revoked."""

    code = "not_authenticated"
    status = 401


class InvalidCredentials(HoldemError):
    """The e-mail and password do not match an account."""

    code = "invalid_credentials"
    status = 401


class WrongPassword(HoldemError):
    """The current password given to confirm a change is wrong."""

    code = "wrong_password"
    status = 403


class AccountBanned(HoldemError):
    """The account is banned."""

    code = "account_banned"
    status = 403


class AdminRequired(HoldemError):
    """The route is for admins only."""

    code = "admin_required"
    status = 403


class CsrfFailed(HoldemError):
    """A cookie-authenticated change came without the matching CSRF header."""

    code = "csrf_failed"
    status = 403


class EmailNotVerified(HoldemError):
    """The action needs a verified e-mail address."""

    code = "email_not_verified"
    status = 403


class EmailTaken(HoldemError):
    """Another account uses this e-mail address."""

    code = "email_taken"
    status = 409


class DisplayNameTaken(HoldemError):
    """Another account uses this display name."""

    code = "display_name_taken"
    status = 409


class WeakPassword(HoldemError):
    """The password breaks the policy; ``reasons`` says how."""

    code = "weak_password"
    status = 422


class TokenInvalid(HoldemError):
    """The link's token is unknown or not for this action."""

    code = "token_invalid"
    status = 400


class TokenExpired(HoldemError):
    """The link's token is too old."""

    code = "token_expired"
    status = 400


class TokenUsed(HoldemError):
    """The link's token was already used."""

    code = "token_used"
    status = 400


class AvatarInvalid(HoldemError):
    """The upload is not a PNG, JPEG or WebP image that can be decoded."""

    code = "avatar_invalid"
    status = 422


class AvatarTooManyPixels(HoldemError):
    """The image is too wide, too tall or has too many pixels (read from its header)."""

    code = "avatar_too_many_pixels"
    status = 422


class AvatarTooLarge(HoldemError):
    """The upload is larger than the limit."""

    code = "avatar_too_large"
    status = 413


class DailyCreditsNotReady(HoldemError):
    """The daily credits were claimed too recently; ``available_at`` says when."""

    code = "daily_credits_not_ready"
    status = 409


class RateLimited(HoldemError):
    """Too many attempts; retry after ``retry_after`` seconds."""

    code = "rate_limited"
    status = 429

    @property
    def headers(self) -> dict[str, str]:
        """HTTP headers for the response: ``Retry-After``."""
        return {"Retry-After": str(self.details["retry_after"])}
