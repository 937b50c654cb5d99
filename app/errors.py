"""The base of every error a user can act on: a stable code and a human message."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field


class HoldemError(Exception):
    """An error with a stable machine ``code``, a human ``message`` and details.

    Subclasses set ``code`` (and ``status`` for HTTP); details are extra
    JSON-safe fields a client can use, such as ``{"min": 200}``.
    """

    code: ClassVar[str] = "error"
    status: ClassVar[int] = 400

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        """The JSON error body: ``{"code", "message", **details}``."""
        return {"code": self.code, "message": self.message, **self.details}


class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code``, a human ``message`` and the error's own fields."""

    model_config = ConfigDict(extra="allow")

    code: str = Field(examples=["rate_limited"])
    message: str = Field(examples=["too many attempts, try again in 30 s"])


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: ErrorDetail


ERROR_DESCRIPTIONS = {
    400: "Bad request: a link token that is unknown, used or expired, or cards that do not "
         "parse",
    401: "Not signed in, or the session expired or was revoked",
    403: "Signed in but not allowed (wrong password, banned, not an admin, no CSRF header)",
    404: "No such resource",
    409: "Conflicts with the current state (a taken name, credits not ready yet)",
    413: "The request body is over this route's limit (see max_bytes)",
    422: "The request is invalid: each problem is listed with its location",
    429: "Too many attempts: retry after Retry-After seconds",
}
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a router whose routes may answer ``statuses``."""
    # Errors are JSON even from routes whose success is not (hand histories as text).
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    return {
        status: {"model": ErrorBody, "description": ERROR_DESCRIPTIONS[status],
                 "content": content, **({"headers": RETRY_AFTER} if status == 429 else {})}
        for status in statuses
    }


class ServiceUnavailable(HoldemError):
    """The server cannot reach its database right now: try again shortly (``retry_after``)."""

    code = "service_unavailable"
    status = 503
