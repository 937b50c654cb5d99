"""Putting the realtime side of one application together.

:func:`install` builds the Socket.IO server, the sessions, the table host and the
lobby over the tables' shared services, registers the tables' event handlers
(:mod:`app.realtime.handlers`) and the account hooks, then lets each feature built
on the tables (tournaments, admin) add its own, and mounts Socket.IO at
``/socket.io/`` in front of the FastAPI app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import socketio

from app.accounts.hooks import AccountHooks
from app.accounts.ratelimit import RateLimiter
from app.chat.safety import ChatSafety
from app.config import Settings
from app.db.engine import Database
from app.db.process_lock import ProcessLock
from app.metrics import Metrics
from app.realtime import hands_elsewhere
from app.realtime.chat import ChatKeeper
from app.realtime.cluster import Cluster
from app.realtime.connections import Connections, SocketAudience
from app.realtime.dispatch import Dispatcher
from app.realtime.handlers import connection, controls, lobby, play, seats
from app.realtime.hosting import TableHost
from app.realtime.leases import Leases, new_process_id
from app.realtime.lobby import Lobby
from app.realtime.moves import TableMoves
from app.realtime.server import Realtime, RealtimeApp, SocketIOMiddleware, create_socket_server
from app.table.store import TableStore
from app.table.table import TableServices

# A feature built on the tables: adds its events and its part of the process's life,
# and returns what the application keeps of it.
Feature = Callable[[Realtime], Any]


def install(
    app: RealtimeApp,
    settings: Settings,
    database: Database,
    *,
    limiter: RateLimiter,
    hooks: AccountHooks,
    metrics: Metrics,
    features: Mapping[str, Feature] | None = None,
) -> Realtime:
    """Create the realtime side of ``app``, with ``features``, and mount Socket.IO.

    What each feature's installation returns is kept on ``app.state`` under its name.
    """
    sio = create_socket_server(settings)
    connections = Connections()
    store = TableStore(database, house_bankroll=settings.house_initial_bankroll,
                       metrics=metrics)
    audience = SocketAudience(sio, connections)
    chat = ChatKeeper(ChatSafety(), database, settings)
    leases = Leases(database, process_id=new_process_id(),
                    lease_seconds=settings.lease_seconds)
    services = TableServices(audience=audience, store=store, settings=settings,
                             limiter=limiter, metrics=metrics, chat=chat.safety,
                             hand_over=leases.hand_over)
    host = TableHost(services, sio=sio, connections=connections,
                     lock=ProcessLock(database.engine), leases=leases)
    tables = Lobby(host)
    dispatcher = Dispatcher(sio, connections, host=host, lobby=tables,
                            moves=TableMoves(host, sio), limiter=limiter, settings=settings)
    realtime = Realtime(sio, connections, host, tables, dispatcher, database, settings,
                        limiter, chat)
    metrics.watch(tables=lambda: len(host.tables), connections=lambda: len(connections),
                  players=lambda: sum(len(t.state.humans()) for t in host.tables.values()))
    for family in (connection, lobby, seats, play, controls):
        family.register(realtime)
    if settings.redis_url:
        audience.cluster = chat.cluster = _join_cluster(realtime, settings.redis_url)
    realtime.register_hooks(hooks)
    for name, feature in (features or {}).items():
        setattr(app.state, name, feature(realtime))
    app.add_middleware(SocketIOMiddleware, server=sio)
    app.websockets = socketio.ASGIApp(sio)
    return realtime


def _join_cluster(realtime: Realtime, redis_url: str) -> Cluster:
    host, dispatcher = realtime.host, realtime.dispatcher

    async def remove_user(payload: dict[str, Any]) -> dict[str, Any]:
        await host.remove_user_here(int(payload["user_id"]), at_once=bool(payload["at_once"]))
        return {"ok": True}

    async def lobby_mine(payload: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "tables": realtime.lobby.mine_here(int(payload["user_id"]))}

    async def hands_in_play(payload: dict[str, Any]) -> dict[str, Any]:
        return await hands_elsewhere.answer(host, payload)

    async def news(body: dict[str, Any]) -> None:
        if realtime.chat.hear(body):
            return
        if body.get("kind") == "watching":  # whom they ignore, before their snapshots
            await realtime.chat.ready_all(
                int(s["viewer"]["user_id"]) for s in body.get("sessions") or ()
                if s.get("viewer"))
        await host.news(body)

    dispatcher.internal["internal:remove-user"] = remove_user
    dispatcher.internal["internal:lobby-mine"] = lobby_mine
    dispatcher.internal[hands_elsewhere.ASK] = hands_in_play
    host.cluster = Cluster(redis_url, host.leases.process_id,
                           name=realtime.settings.redis_channel,
                           on_request=dispatcher.forwarded, on_news=news,
                           rooms=realtime.sio.manager)
    return host.cluster
