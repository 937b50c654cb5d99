"""Putting the realtime side of one application together.

:func:`install` builds the Socket.IO server, the sessions, the table host and the
lobby over the tables' shared services, registers the tables' event handlers
(:mod:`app.realtime.handlers`) and the account hooks, then lets each feature built
on the tables (tournaments, admin) add its own, and mounts Socket.IO at
``/socket.io/`` in front of the FastAPI app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import socketio

from app.accounts.hooks import AccountHooks
from app.accounts.ratelimit import RateLimiter
from app.chat.safety import ChatSafety
from app.config import Settings
from app.db.engine import Database
from app.db.process_lock import ProcessLock
from app.hosting.host import TableHost
from app.hosting.leases import Leases, new_process_id
from app.hosting.listing import Listing
from app.hosting.live import LiveTables
from app.hosting.moves import TableMoves
from app.hosting.owners import Owners
from app.hosting.ownership import Ownership
from app.hosting.ports import DirectedWork
from app.metrics import Metrics
from app.realtime import hands_elsewhere
from app.realtime.chat import ChatKeeper
from app.realtime.cluster import Cluster
from app.realtime.connections import LOBBY_ROOM, Connections, SocketAudience
from app.realtime.dispatch import Dispatcher
from app.realtime.handlers import connection, controls, play, seats
from app.realtime.handlers import lobby as lobby_events
from app.realtime.lobby import Lobby
from app.realtime.news import TableNews
from app.realtime.routing import connection_table
from app.realtime.seating import Seating
from app.realtime.server import Realtime, RealtimeApp, SocketIOMiddleware, create_socket_server
from app.realtime.watchers import Watchers
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

    Every part is built once, here, with its collaborators; a part that calls one built
    after it does so through a closure over that name below. What each feature's
    installation returns is kept on ``app.state`` under its name.
    """
    sio = create_socket_server(settings)
    connections = Connections()
    process_id = new_process_id()
    cluster = None
    if settings.redis_url:
        cluster = Cluster(settings.redis_url, process_id, name=settings.redis_channel,
                          on_request=lambda *request: dispatcher.forwarded(*request),
                          on_news=lambda body: news(body), rooms=sio.manager)
    chat = ChatKeeper(ChatSafety(), database, settings, cluster=cluster)
    audience = SocketAudience(sio, connections, cluster)
    store = TableStore(database, house_bankroll=settings.house_initial_bankroll,
                       metrics=metrics)
    services = TableServices(
        audience=audience, store=store, settings=settings, limiter=limiter, metrics=metrics,
        chat=chat.safety, on_summary=lambda table_id, summary: host.table_changed(
            table_id, summary),
        on_lost=lambda table_id: ownership.lost(table_id),
        hand_over=lambda table_id, token, to: leases.hand_over(table_id, token, to))
    live = LiveTables()
    leases = Leases(database, process_id=process_id, lease_seconds=settings.lease_seconds)
    directed = DirectedWork()
    ownership = Ownership(services, live, leases=leases, lock=ProcessLock(database.engine),
                          peers=cluster, directed=directed)
    owners = Owners(ownership, cluster)

    async def tell_lobby(event: str, body: dict[str, Any]) -> None:
        await sio.emit(event, body, room=LOBBY_ROOM)

    listing = Listing(live, leases=leases, peers=cluster, notice=tell_lobby)
    host = TableHost(services, live=live, ownership=ownership, owners=owners,
                     listing=listing)
    watchers = Watchers(live, sio=sio, connections=connections, cluster=cluster)
    moves = TableMoves(ownership, cooldown=settings.table_move_cooldown,
                       connection_table=lambda sid: connection_table(sio.get_environ(sid)))
    seating = Seating(watchers)
    lobby = Lobby(host, seating)
    dispatcher = Dispatcher(sio, connections, host=host, lobby=lobby, moves=moves,
                            cluster=cluster, limiter=limiter, settings=settings)
    realtime = Realtime(sio, connections, host, lobby, watchers, seating, dispatcher, database,
                        settings, limiter, chat, cluster, directed)
    news = _news(realtime, TableNews(ownership=ownership, owners=owners, moves=moves,
                                     watchers=watchers, cluster=cluster))
    metrics.watch(tables=lambda: len(live), connections=lambda: len(connections),
                  players=lambda: sum(len(t.state.humans()) for t in live.tables.values()))
    for family in (connection, lobby_events, seats, play, controls):
        family.register(realtime)
    if cluster is not None:
        _answer_other_processes(realtime)
    realtime.register_hooks(hooks)
    for name, feature in (features or {}).items():
        setattr(app.state, name, feature(realtime))
    app.add_middleware(SocketIOMiddleware, server=sio)
    app.websockets = socketio.ASGIApp(sio)
    return realtime


def _answer_other_processes(realtime: Realtime) -> None:
    host, internal = realtime.host, realtime.dispatcher.internal

    async def remove_user(payload: dict[str, Any]) -> dict[str, Any]:
        await host.remove_user_here(int(payload["user_id"]), at_once=bool(payload["at_once"]))
        return {"ok": True}

    async def lobby_mine(payload: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "tables": realtime.lobby.mine_here(int(payload["user_id"]))}

    async def hands_in_play(payload: dict[str, Any]) -> dict[str, Any]:
        return await hands_elsewhere.answer(host.live, payload)

    internal["internal:remove-user"] = remove_user
    internal["internal:lobby-mine"] = lobby_mine
    internal[hands_elsewhere.ASK] = hands_in_play


def _news(realtime: Realtime, tables: TableNews) -> Callable[[dict[str, Any]],
                                                              Awaitable[None]]:
    """What every process hears: chat news first, then the tables'."""

    async def hear(body: dict[str, Any]) -> None:
        if realtime.chat.hear(body):
            return
        if body.get("kind") == "watching":  # whom they ignore, before their snapshots
            await realtime.chat.ready_all(
                int(s["viewer"]["user_id"]) for s in body.get("sessions") or ()
                if s.get("viewer"))
        await tables.hear(body)

    return hear
