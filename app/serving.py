"""How ``holdem serve`` runs the application under uvicorn: one config, used by tests too."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from app.config import Settings


def uvicorn_config(
    app: ASGIApp, settings: Settings, *, host: str, port: int, **overrides: Any
) -> uvicorn.Config:
    """The uvicorn configuration the server runs with.

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the
    proxies listed in ``FORWARDED_ALLOW_IPS``: uvicorn's own default trusts
    127.0.0.1, so anything on the host could pick its client address and slip
    past the per-IP rate limits.
    """
    trusted = settings.forwarded_allow_ips.strip()
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "info",
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
        # Per-message deflate nearly doubles memory per connection and raises p99
        # for messages this small (bench/RESULTS.md, "Realtime load").
        "ws_per_message_deflate": False,
    }
    options.update(overrides)
    return uvicorn.Config(app, **options)


class Server(uvicorn.Server):
    """uvicorn's server, exiting with status 0 after a graceful stop on SIGTERM.

    uvicorn raises a caught SIGTERM again once it has shut down, so the process
    ends "killed by SIGTERM" even after draining its tables cleanly; a deploy
    tool would read that as a crash. SIGINT keeps uvicorn's behaviour.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Capture signals as uvicorn does, forgetting a SIGTERM once it was handled."""
        with super().capture_signals():
            try:
                yield
            finally:
                self._captured_signals = [s for s in self._captured_signals
                                          if s != signal.SIGTERM]
