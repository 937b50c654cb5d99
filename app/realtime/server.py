"""The Socket.IO server beside FastAPI: its creation, mounting and authentication, and
:class:`Realtime`, the realtime side of one application.

:mod:`app.realtime.wiring` puts the pieces together. With ``REDIS_URL`` set, rooms are
shared between processes through Redis (``AsyncRedisManager``); otherwise they live in
this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import socketio
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from app.accounts.hooks import AccountHooks
from app.accounts.ratelimit import RateLimiter
from app.accounts.service import authenticate
from app.accounts.tokens import session_token_from
from app.config import Settings
from app.db.engine import Database
from app.errors import HoldemError, ServiceUnavailable
from app.hosting.host import TableHost
from app.hosting.ports import DirectedWork
from app.realtime import codec
from app.realtime.buffers import SocketServer
from app.realtime.chat import ChatKeeper
from app.realtime.cluster import Cluster
from app.realtime.connections import Connections, user_room
from app.realtime.dispatch import Dispatcher
from app.realtime.errors import ConnectionLimit
from app.realtime.hands_elsewhere import ended, hands_elsewhere, watched_elsewhere
from app.realtime.lobby import Lobby
from app.realtime.rooms import LocalRooms, RedisRooms
from app.realtime.seating import Seating
from app.realtime.watchers import Watchers
from app.table.errors import TableLimit
from app.table.state import Viewer

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


@dataclass
class Realtime:
    """The realtime side of one application: sockets, sessions and tables."""

    sio: socketio.AsyncServer
    connections: Connections
    host: TableHost
    lobby: Lobby
    watchers: Watchers
    seating: Seating
    dispatcher: Dispatcher
    database: Database
    settings: Settings
    limiter: RateLimiter
    chat: ChatKeeper
    # The other server processes (with ``REDIS_URL``).
    cluster: Cluster | None
    # Resumed and started when this process becomes the director; stopped first.
    directed: DirectedWork

    async def start(self) -> None:
        """Join the other processes and take this process's tables; on the process that
        runs the tournaments, load them before and start their clocks after."""
        if self.cluster is not None:
            await self.cluster.start()
        await self.chat.start()
        await self.host.start()

    async def drain(self) -> None:
        """A deploy stops this process (``SIGTERM``): every socket stays open while the
        hands in play end, here and those its sessions play at tables run elsewhere
        (:mod:`app.realtime.hands_elsewhere`); each session here is told
        ``server:restarting``; no new hand is dealt here. Returns once those hands have
        ended, or after ``DRAIN_SECONDS``."""
        deadline = self.host.begin_drain()
        await self.sio.emit("server:restarting", self.restarting(deadline),
                            to=list(self.connections.all_sids()))
        # The hands in play now: those dealt from now on elsewhere are not waited for.
        owners = self.host.owners
        elsewhere = await hands_elsewhere(
            owners, watched_elsewhere(self.sio, self.host.live), until=deadline)
        await self.host.drained()
        await ended(owners, elsewhere, deadline)
        # The hands' last messages, here and from elsewhere, are queued for the sockets.
        await self.sio.eio.written(deadline)

    def restarting(self, deadline: float | None = None) -> dict[str, Any]:
        """The body of ``server:restarting``: the most seconds until this process stops."""
        end = deadline if deadline is not None else self.host.begin_drain()
        # Rounded to the millisecond first: (now + 60) - now can come out a hair above 60.
        left = round(end - asyncio.get_running_loop().time(), 3)
        return {"seconds": max(0, math.ceil(left))}

    async def stop(self) -> None:
        """Stop the tournaments' clocks, drain and stop every table (their state is
        stored), and leave the other processes."""
        await self.directed.stop()
        await self.host.stop()
        await self.chat.stop()
        if self.cluster is not None:
            await self.cluster.stop()

    async def viewer_for(
        self, auth: Mapping[str, Any] | None, cookie_header: str | None, address: str
    ) -> Viewer | None:
        """The user a connection from ``address`` authenticates as (None when it sends no
        token), within the limits on connections per address and per account.

        Raises the account errors of :func:`app.accounts.service.authenticate`
        for a bad, expired, revoked or banned session, :class:`ConnectionLimit` and
        :class:`TableLimit`. Nothing awaits between the last check of this process's counts
        and the return, so a caller that records the connection at once keeps every limit
        exact; with other processes the account's sockets are counted in Redis first (a
        caller must give the count back with :meth:`account_socket_gone` when the socket
        closes).
        """
        token = session_token_from(auth if isinstance(auth, Mapping) else None, cookie_header)
        # Before any database work: a flood from one address is refused at no cost.
        self._check_address(address, anonymous=token is None)
        if token is None:
            return None
        async with self.database.sessions() as session:
            user = await authenticate(session, self.settings, token)
        viewer = Viewer(user.id, user.public_id, user.display_name or "player", user.role)
        await self._take_account_socket(viewer.user_id)
        try:
            # Again: others from this address may have connected while this one was checked.
            self._check_address(address, anonymous=False)
            if len(self.connections.sids(viewer.user_id)) >= self.settings.max_sockets_per_user:
                raise _too_many_sockets(self.settings.max_sockets_per_user)
        except HoldemError:
            await self.account_socket_gone(viewer.user_id)
            raise
        return viewer

    async def _take_account_socket(self, user_id: int) -> None:
        """With other processes: count one more socket of the user where every process
        counts them (Redis), refusing one beyond ``MAX_SOCKETS_PER_USER`` in all. Counted
        first and checked after, so connections racing on several processes never pass
        the limit together; a process that died stops counting once it is not live."""
        cluster = self.cluster
        if cluster is None:
            return
        limit = self.settings.max_sockets_per_user
        counts = await self._sockets_changed(cluster, user_id, 1)
        try:
            live = await self._live(cluster, user_id, counts)
        except Exception:
            await self.account_socket_gone(user_id)
            raise
        if sum(n for p, n in counts.items() if p in live) > limit:
            await self.account_socket_gone(user_id)
            raise _too_many_sockets(limit)

    async def _live(self, cluster: Cluster, user_id: int, counts: dict[str, int]) -> set[str]:
        """The processes whose counts count: the live ones. A process not known here is
        looked up (it may have started since the last heartbeat); one that is gone has its
        count dropped."""
        live = self.host.ownership.alive | {cluster.process_id}
        if all(p in live for p, n in counts.items() if n > 0):
            return live
        live = {p.id for p in await self.host.leases.peers()} | {cluster.process_id}
        if gone := [p for p in counts if p not in live]:
            await cluster.forget_socket_counts(user_id, gone)
        return live

    async def account_socket_gone(self, user_id: int) -> None:
        """A socket of the user that was counted closed (or was refused after all)."""
        if self.cluster is not None:
            with contextlib.suppress(ServiceUnavailable):
                await self._sockets_changed(self.cluster, user_id, -1)

    @staticmethod
    async def _sockets_changed(cluster: Cluster, user_id: int, change: int) -> dict[str, int]:
        try:
            return await cluster.count_sockets(user_id, change)
        except Exception as error:
            log.warning("counting the sockets of user %s failed: %r", user_id, error)
            raise ServiceUnavailable("the server cannot count your connections: try again "
                                     "in a few seconds", retry_after=5) from error

    def _check_address(self, address: str, *, anonymous: bool) -> None:
        settings, connections = self.settings, self.connections
        if connections.at_address(address) >= settings.max_sockets_per_address:
            raise ConnectionLimit("too many connections from your address: close another tab",
                                  limit=settings.max_sockets_per_address)
        limit = settings.max_anonymous_sockets_per_address
        if anonymous and connections.at_address(address, anonymous=True) >= limit:
            raise ConnectionLimit("too many connections without a login from your address: "
                                  "log in, or close another tab", limit=limit)

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
            await self.host.remove_user(user_id, at_once=True)

        async def after_ban(user_id: int) -> None:
            await self.host.remove_user(user_id, at_once=False)

        hooks.before_delete.append(before_delete)
        hooks.after_ban.append(after_ban)
        hooks.after_revoke.append(self.end_sessions)


def _too_many_sockets(limit: int) -> TableLimit:
    return TableLimit("too many connections for one account: close another tab", limit=limit)


def refusal(error: HoldemError) -> socketio.exceptions.ConnectionRefusedError:
    """The ``connect_error`` a client gets: ``{"message", "data": {"code", "message"}}``."""
    return socketio.exceptions.ConnectionRefusedError(error.message, error.to_dict())
