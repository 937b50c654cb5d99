"""Connecting and disconnecting: who a session is, and events nobody handles."""

from __future__ import annotations

import logging
from typing import Any

from app.errors import HoldemError
from app.realtime.cluster import viewer_to_dict
from app.realtime.connections import user_room
from app.realtime.dispatch import (
    RESERVED_EVENTS,
    SOCKET_LIMIT,
    Result,
    client_address,
    nack,
    reserved,
)
from app.realtime.routing import raw_query, routed_table
from app.realtime.server import Realtime, refusal
from app.table.errors import InvalidPayload

log = logging.getLogger(__name__)


def register(realtime: Realtime) -> None:
    """Handle ``connect``, ``disconnect`` and every event no handler is registered for."""
    sio, connections = realtime.sio, realtime.connections

    def sent_by_client(sid: str) -> bool:
        # python-socketio calls these handlers while the session is still connecting
        # or already disconnecting; a fully connected session means a client emitted
        # the reserved name itself.
        return bool(sio.manager.is_connected(sid, "/"))

    async def connect(sid: str, *args: Any) -> Result | None:
        if sent_by_client(sid):
            return reserved("connect")
        environ: dict[str, Any] = args[0] if args and isinstance(args[0], dict) else {}
        auth = args[1] if len(args) > 1 else None
        address = client_address(environ)
        try:
            # A query the proxy could read otherwise than this server is refused first.
            routed_table(raw_query(environ))
            viewer = await realtime.viewer_for(auth, environ.get("HTTP_COOKIE"), address)
        except HoldemError as error:
            log.info("connection refused: %s", error.code)
            raise refusal(error) from None
        connections.add(sid, viewer, address)
        if viewer is not None:
            await sio.enter_room(sid, user_room(viewer.user_id))
        return None

    async def disconnect(sid: str, *_reason: Any) -> Result | None:
        if sent_by_client(sid):
            return reserved("disconnect")
        realtime.limiter.forget(SOCKET_LIMIT, sid, realtime.settings.rate_limit_socket)
        viewer = connections.remove(sid)
        if viewer is not None:
            await realtime.account_socket_gone(viewer.user_id)
        await realtime.watchers.disconnected(sid, viewer)
        if realtime.cluster is not None:
            await realtime.cluster.news({"kind": "disconnected", "sid": sid,
                                         "viewer": viewer_to_dict(viewer)})
        return None

    async def unknown(event: str, sid: str, *_args: Any) -> Result:
        try:
            realtime.dispatcher.count(sid)
        except HoldemError as error:
            return nack(error)
        if event in RESERVED_EVENTS:
            return reserved(event)
        return nack(InvalidPayload(f"unknown event {event!r}", problems=[]))

    sio.on("connect", connect)
    sio.on("disconnect", disconnect)
    sio.on("*", unknown)
