"""How ``holdem serve`` runs the application under uvicorn: one config, used by tests too."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import Any

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.collector import keep_collections_short
from app.config import Settings

log = logging.getLogger(__name__)


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, letting go of its parser once a connection becomes a
    WebSocket: the parser holds the protocol's callbacks and the protocol holds the
    parser, so otherwise every WebSocket leaves that pair behind as a garbage cycle
    that only a full collection frees (app/collector.py)."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]  # as uvicorn does on connection_lost


def connection_options(*, deflate: bool = False) -> dict[str, Any]:
    """How uvicorn serves connections (the benchmark servers serve theirs the same way).

    Per-message deflate nearly doubles memory per connection and raises p99 for
    messages this small (bench/RESULTS.md, "Realtime load"). WebSocket pings are left
    to Engine.IO, which pings every connection already: uvicorn's own would be a second
    timer and a second round trip per connection for the same question.
    """
    return {"http": HttpProtocol, "ws_ping_interval": None,
            "ws_per_message_deflate": deflate}


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
        **connection_options(),
    }
    options.update(overrides)
    return uvicorn.Config(app, **options)


class Server(uvicorn.Server):
    """uvicorn's server, draining before it stops on SIGTERM and then exiting with status 0.

    On SIGTERM uvicorn would stop listening and close every connection at once, then
    run the application's shutdown: players could neither finish the hands in play
    nor reconnect. With ``drain``, a SIGTERM runs it first, with every connection
    still served, and uvicorn's stop begins once it returns (a second SIGTERM, or
    SIGINT, stops at once).

    uvicorn raises a caught SIGTERM again once it has shut down, so the process
    ends "killed by SIGTERM" even after draining its tables cleanly; a deploy
    tool would read that as a crash. SIGINT keeps uvicorn's behaviour.
    """

    def __init__(self, config: uvicorn.Config, *,
                 drain: Callable[[], Awaitable[None]] | None = None,
                 freeze_every: float = 0) -> None:
        super().__init__(config)
        self._drain = drain
        self._draining: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._freeze_every = freeze_every

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until stopped (remembering the loop a SIGTERM's drain runs on), with
        the collector kept short every ``freeze_every`` seconds (0: left alone)."""
        self._loop = asyncio.get_running_loop()
        collector = (asyncio.create_task(
            keep_collections_short(self._freeze_every,
                                   connections=lambda: len(self.server_state.connections)),
            name="gc:freeze") if self._freeze_every > 0 else None)
        try:
            await super().serve(sockets)
        finally:
            if collector is not None:
                collector.cancel()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Drain on the first SIGTERM; otherwise stop as uvicorn does."""
        if (sig == signal.SIGTERM and self._drain is not None and self._loop is not None
                and self.started and self._draining is None and not self.should_exit):
            self._loop.call_soon_threadsafe(self._begin_drain)
            return
        super().handle_exit(sig, frame)

    def _begin_drain(self) -> None:
        if self._draining is None:
            self._draining = asyncio.ensure_future(self._drain_then_stop())

    async def _drain_then_stop(self) -> None:
        assert self._drain is not None
        try:
            await self._drain()
        except Exception:
            log.exception("draining failed; stopping now")
        finally:
            self.should_exit = True

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Capture signals as uvicorn does, forgetting a SIGTERM once it was handled."""
        with super().capture_signals():
            try:
                yield
            finally:
                self._captured_signals = [s for s in self._captured_signals
                                          if s != signal.SIGTERM]
