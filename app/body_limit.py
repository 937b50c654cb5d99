"""Request bodies are bounded per route before they are read: 413 ``payload_too_large``.

The declared ``Content-Length`` is checked before the application runs, so an
oversized body is refused unread, even where the answer would have been a 401
or a 429. Bodies without a length (chunked) are counted as they stream in and
refused at the first byte over the limit, so no request ever holds more than
its route's limit in memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

KIB = 1024
# REST bodies are small JSON documents.
JSON_BODY_BYTES = 64 * KIB
# engine.io's own default buffer size (python-engineio ``max_http_buffer_size``).
SOCKET_BODY_BYTES = 1_000_000


class BodyTooLarge(HTTPException):
    """The request body is over its route's limit (413 ``payload_too_large``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request body must be at most {limit} bytes")
        self.limit = limit


@dataclass(frozen=True)
class BodyLimits:
    """The byte limit of each route: exact paths, then path prefixes, then the default."""

    default: int = JSON_BODY_BYTES
    paths: Mapping[str, int] = field(default_factory=dict)
    prefixes: Mapping[str, int] = field(default_factory=dict)

    def of(self, path: str) -> int:
        """The limit for a request to ``path``."""
        if path in self.paths:
            return self.paths[path]
        for prefix, limit in self.prefixes.items():
            if path.startswith(prefix):
                return limit
        return self.default


def declared_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``; ``-1`` when it is not a number."""
    raw = Headers(scope=scope).get("content-length")
    if raw is None:
        return None
    return int(raw) if raw.strip().isdigit() else -1


def too_large_response(error: BodyTooLarge) -> JSONResponse:
    """The one error shape, with the limit.

    The connection stays open: uvicorn discards the rest of the body without keeping it,
    and the client reads this answer instead of a reset in the middle of its upload.
    """
    body = {"error": {"code": "payload_too_large", "message": error.detail,
                      "max_bytes": error.limit}}
    return JSONResponse(body, status_code=413)


class BodyLimitMiddleware:
    """Refuse request bodies over the route's limit before the application reads them."""

    def __init__(self, app: ASGIApp, *, limits: BodyLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.of(scope["path"])
        length = declared_length(scope)
        if length is not None and not 0 <= length <= limit:
            await too_large_response(BodyTooLarge(limit))(scope, receive, send)
            return
        received = 0
        refused: BodyTooLarge | None = None
        started = False

        async def limited_receive() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = BodyTooLarge(limit)
                    raise refused
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused is None:
                started = started or message["type"] == "http.response.start"
                await send(message)
            elif not started:
                # Whatever the application answers to a cut-off body (engine.io says 500),
                # the client is told why.
                started = True
                await too_large_response(refused)(scope, receive, send)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except BodyTooLarge as error:
            if started:
                raise
            await too_large_response(error)(scope, receive, send)
