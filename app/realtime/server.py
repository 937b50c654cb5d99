"""The Socket.IO server beside FastAPI: creation, mounting, authentication, wiring.

:func:`install` builds the server for one application, registers the event
handlers and the account hooks, and mounts Socket.IO at ``/socket.io/`` in
front of the FastAPI app. With ``REDIS_URL`` set, rooms are shared between
processes through Redis (``AsyncRedisManager``); otherwise they live in this
process.
"""

from __future__ import annotations

import logging
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
from app.errors import HoldemError
from app.realtime.connections import Connections, Viewer, user_room
from app.realtime.lobby import TableService
from app.realtime.store import TableStore
from app.realtime.table import TableServices

log = logging.getLogger(__name__)


def create_socket_server(settings: Settings) -> socketio.AsyncServer:
    """An ASGI Socket.IO server; rooms go through Redis when ``REDIS_URL`` is set."""
    manager = socketio.AsyncRedisManager(settings.redis_url) if settings.redis_url else None
    return socketio.AsyncServer(
        async_mode="asgi", client_manager=manager, logger=False, engineio_logger=False,
    )


class SocketIOMiddleware:
    """Serves ``/socket.io/`` with the Socket.IO server and everything else with the app."""

    def __init__(self, app: ASGIApp, *, server: socketio.AsyncServer) -> None:
        self._asgi = socketio.ASGIApp(server, other_asgi_app=app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._asgi(scope, receive, send)


@dataclass
class Realtime:
    """The realtime side of one application: sockets, sessions and tables."""

    sio: socketio.AsyncServer
    connections: Connections
    tables: TableService
    database: Database
    settings: Settings

    async def start(self) -> None:
        """Restore the stored tables."""
        await self.tables.start()

    async def stop(self) -> None:
        """Stop every table's task (their state is stored)."""
        await self.tables.stop()

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
        async with self.database.sessions() as session:
            user = await authenticate(session, self.settings, token)
        return Viewer(user.id, user.public_id, user.display_name or "player", user.role)

    async def end_sessions(self, user_id: int) -> None:
        """Disconnect every session of a user (after a ban)."""
        await self.sio.emit("user:notice", {"kind": "session_ended", "table_id": None},
                            room=user_room(user_id))
        for sid in self.connections.sids(user_id):
            await self.sio.disconnect(sid)

    def register_hooks(self, hooks: AccountHooks) -> None:
        """Cash a deleted player out of every table; take a banned one away and disconnect."""

        async def before_delete(user_id: int) -> None:
            await self.tables.remove_user(user_id, at_once=True)

        async def after_ban(user_id: int) -> None:
            await self.tables.remove_user(user_id, at_once=False)
            await self.end_sessions(user_id)

        hooks.before_delete.append(before_delete)
        hooks.after_ban.append(after_ban)


def install(
    app: FastAPI,
    settings: Settings,
    database: Database,
    *,
    limiter: RateLimiter,
    hooks: AccountHooks,
) -> Realtime:
    """Create the realtime side of ``app`` and mount Socket.IO in front of it."""
    from app.realtime import events

    sio = create_socket_server(settings)
    connections = Connections()
    services = TableServices(sio=sio, connections=connections, store=TableStore(database),
                             settings=settings, limiter=limiter)
    realtime = Realtime(sio, connections, TableService(services), database, settings)
    events.register(realtime)
    realtime.register_hooks(hooks)
    app.add_middleware(SocketIOMiddleware, server=sio)
    return realtime


def refusal(error: HoldemError) -> socketio.exceptions.ConnectionRefusedError:
    """The ``connect_error`` a client gets: ``{"message", "data": {"code", "message"}}``."""
    return socketio.exceptions.ConnectionRefusedError(error.message, error.to_dict())
