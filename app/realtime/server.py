"""The Socket.IO server beside FastAPI: creation, mounting, authentication, wiring.

:func:`install` builds the server for one application, registers the tables'
event handlers and the account hooks, and mounts Socket.IO at ``/socket.io/`` in
front of the FastAPI app. Features built on the tables (tournaments, admin)
register their own events on :attr:`Realtime.events` afterwards. With
``REDIS_URL`` set, rooms are shared between processes through Redis
(``AsyncRedisManager``); otherwise they live in this process.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import socketio
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from app.accounts.hooks import AccountHooks
from app.accounts.ratelimit import RateLimiter
from app.accounts.service import authenticate
from app.accounts.tokens import session_token_from
from app.config import Settings
from app.db.engine import Database, is_unavailable
from app.db.process_lock import ProcessLock
from app.errors import HoldemError, ServiceUnavailable
from app.metrics import Metrics
from app.realtime import codec
from app.realtime.buffers import SocketServer
from app.realtime.cluster import Cluster
from app.realtime.connections import Connections, Viewer, user_room
from app.realtime.core import TableServices
from app.realtime.errors import TableLimit
from app.realtime.leases import Leases, new_process_id
from app.realtime.lobby import TableService
from app.realtime.rooms import LocalRooms, RedisRooms
from app.realtime.store import TableStore

if TYPE_CHECKING:
    from app.realtime.events import Events

log = logging.getLogger(__name__)

SOCKET_PATH = "/socket.io/"


def create_socket_server(settings: Settings) -> socketio.AsyncServer:
    """An ASGI Socket.IO server with the orjson codec; rooms go through Redis when
    ``REDIS_URL`` is set; a client leaving more than ``SOCKET_BUFFER_BYTES`` unread is
    disconnected."""
    manager = (RedisRooms(settings.redis_url, channel=settings.redis_channel)
               if settings.redis_url else LocalRooms())
    return SocketServer(
        async_mode="asgi", client_manager=manager, logger=False, engineio_logger=False,
        max_buffered_bytes=settings.socket_buffer_bytes, json=codec,
    )


class SocketIOMiddleware:
    """Serves ``/socket.io/`` with the Socket.IO server and everything else with the app."""

    def __init__(self, app: ASGIApp, *, server: socketio.AsyncServer) -> None:
        self._asgi = socketio.ASGIApp(server, other_asgi_app=app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._asgi(scope, receive, send)


class RealtimeApp(FastAPI):
    """The application, which hands Socket.IO's WebSockets to the Socket.IO server before
    its HTTP middlewares.

    A WebSocket lasts as long as its player stays. Through the middleware stack, each
    layer (error pages, body limits, security headers, telemetry) would keep a suspended
    call per connection and pass every frame sent through its own ``send``, for rules
    that apply to HTTP only. Socket.IO's HTTP requests (long-polling) still go through
    them all, via :class:`SocketIOMiddleware`.
    """

    websockets: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (self.websockets is not None and scope["type"] == "websocket"
                and scope["path"].startswith(SOCKET_PATH)):
            await self.websockets(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


class Directed(Protocol):
    """Work only the director process runs (the tournaments' clocks)."""

    async def resume(self) -> None:
        """Load what is stored (before the tables are restored)."""

    def start(self) -> None:
        """Start running (after the tables are restored)."""

    async def stop(self) -> None:
        """Stop running (before the tables stop)."""


@dataclass
class Realtime:
    """The realtime side of one application: sockets, sessions and tables."""

    sio: socketio.AsyncServer
    connections: Connections
    tables: TableService
    database: Database
    settings: Settings
    limiter: RateLimiter
    # With REDIS_URL: the other server processes.
    cluster: Cluster | None = None
    # Resumed and started when this process becomes the director; stopped first.
    directed: list[Directed] = field(default_factory=list)
    # The client→server events (set by :func:`install`).
    events: Events = field(init=False)

    async def start(self) -> None:
        """Join the other processes, take this process's tables, then resume the
        tournaments (on the process that runs them)."""
        if self.cluster is not None:
            await self.cluster.start()
        self.tables.on_director = self._direct
        await self.tables.start()
        if self.tables.director:
            await self._direct()

    async def _direct(self) -> None:
        for work in self.directed:
            await work.resume()
            work.start()

    async def stop(self) -> None:
        """Stop the tournaments' clocks, drain and stop every table (their state is
        stored), and leave the other processes."""
        for work in self.directed:
            await work.stop()
        await self.tables.stop()
        if self.cluster is not None:
            await self.cluster.stop()

    async def viewer_for(
        self, auth: Mapping[str, Any] | None, cookie_header: str | None
    ) -> Viewer | None:
        """The user a connection authenticates as (None when it sends no token).

        Raises the account errors of :func:`app.accounts.service.authenticate`
        for a bad, expired, revoked or banned session.
        """
        token = session_token_from(auth if isinstance(auth, Mapping) else None, cookie_header)
        if token is None:
            return None
        try:
            async with self.database.sessions() as session:
                user = await authenticate(session, self.settings, token)
        except Exception as error:
            if is_unavailable(error):
                raise ServiceUnavailable("the server cannot reach its database: try again in "
                                         "a few seconds", retry_after=5) from error
            raise
        viewer = Viewer(user.id, user.public_id, user.display_name or "player", user.role)
        if len(self.connections.sids(viewer.user_id)) >= self.settings.max_sockets_per_user:
            raise TableLimit("too many connections for one account: close another tab",
                             limit=self.settings.max_sockets_per_user)
        return viewer

    async def end_sessions(self, user_id: int) -> None:
        """Tell every session of a user that it ended and disconnect it, on every process."""
        room = user_room(user_id)
        await self.sio.emit("user:notice", {"kind": "session_ended", "table_id": None},
                            room=room)
        await self.sio.manager.disconnect_room(room)

    def register_hooks(self, hooks: AccountHooks) -> None:
        """Cash a deleted player out of every table; take a banned one away; disconnect
        every socket of a user whose sessions were revoked."""

        async def before_delete(user_id: int) -> None:
            await self.tables.remove_user(user_id, at_once=True)

        async def after_ban(user_id: int) -> None:
            await self.tables.remove_user(user_id, at_once=False)

        hooks.before_delete.append(before_delete)
        hooks.after_ban.append(after_ban)
        hooks.after_revoke.append(self.end_sessions)


def install(
    app: RealtimeApp,
    settings: Settings,
    database: Database,
    *,
    limiter: RateLimiter,
    hooks: AccountHooks,
    metrics: Metrics,
) -> Realtime:
    """Create the realtime side of ``app`` and mount Socket.IO in front of it."""
    from app.realtime import events

    sio = create_socket_server(settings)
    connections = Connections()
    store = TableStore(database, house_bankroll=settings.house_initial_bankroll,
                       metrics=metrics)
    services = TableServices(sio=sio, connections=connections, store=store,
                             settings=settings, limiter=limiter, metrics=metrics)
    leases = Leases(database, process_id=new_process_id(),
                    lease_seconds=settings.lease_seconds)
    tables = TableService(services, lock=ProcessLock(database.engine), leases=leases)
    realtime = Realtime(sio, connections, tables, database, settings, limiter)
    metrics.watch(tables=lambda: len(tables.tables), connections=lambda: len(connections),
                  players=lambda: sum(len(t.state.humans()) for t in tables.tables.values()))
    handlers = realtime.events = events.register(realtime)
    if settings.redis_url:

        async def remove_user(payload: dict[str, Any]) -> dict[str, Any]:
            await tables.remove_user_here(int(payload["user_id"]),
                                          at_once=bool(payload["at_once"]))
            return {"ok": True}

        handlers.internal["internal:remove-user"] = remove_user
        realtime.cluster = tables.cluster = Cluster(
            settings.redis_url, leases.process_id, name=settings.redis_channel,
            on_request=handlers.forwarded,
            on_news=tables.news)
    realtime.register_hooks(hooks)
    app.add_middleware(SocketIOMiddleware, server=sio)
    app.websockets = socketio.ASGIApp(sio)
    return realtime


def refusal(error: HoldemError) -> socketio.exceptions.ConnectionRefusedError:
    """The ``connect_error`` a client gets: ``{"message", "data": {"code", "message"}}``."""
    return socketio.exceptions.ConnectionRefusedError(error.message, error.to_dict())
