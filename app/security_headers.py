"""Headers on every response that tell browsers what our pages may do.

The pages load scripts, styles and images only from this origin (no inline script or
style: every page's code is a module under /static), talk only to this origin (REST and
Socket.IO), and may not be framed. Swagger UI at /docs and /redoc loads its code from a
CDN with an inline starter script, so those two pages get a policy that allows exactly that.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",  # blob: previews the chosen avatar before upload
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
DOCS_CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = "; ".join([
    "default-src 'self'",
    f"script-src 'self' 'unsafe-inline' {DOCS_CDN}",
    f"style-src 'self' {DOCS_CDN}",
    "img-src 'self' data: https://fastapi.tiangolo.com",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
])
DOCS_PATHS = frozenset({"/docs", "/redoc", "/docs/oauth2-redirect"})
COMMON = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def headers_for(path: str) -> dict[str, str]:
    """The security headers of a response to ``path``."""
    policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
    return {**COMMON, "Content-Security-Policy": policy}


class SecurityHeadersMiddleware:
    """Add :func:`headers_for` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
