"""Rooms across processes: disconnecting every session in a room, wherever it is.

python-socketio disconnects one session id on any process (through the Redis
manager), but only the process holding a session knows its id. These managers
add one operation, :meth:`disconnect_room`: every process disconnects its own
members of the room. With Redis the request travels on the manager's channel as
a ``disconnect`` message that names a room instead of a session; a process
running an older version ignores it (no session has id ``None``).
"""

from __future__ import annotations

from typing import Any

import engineio.packet
import socketio

from app.realtime import codec

NAMESPACE = "/"


def _event_text(namespace: str, data: list[Any]) -> str:
    """A Socket.IO EVENT packet as text (``2`` + namespace + JSON): our payloads carry no
    binary, so the stock packet's walk looking for bytes is skipped."""
    prefix = "2" if namespace in ("/", "") else f"2{namespace},"
    return prefix + codec.dumps(data)


async def disconnect_here(manager: Any, room: str, namespace: str = NAMESPACE) -> int:
    """Disconnect every session of ``room`` that ``manager``'s process holds; how many."""
    members = [sid for sid, _eio_sid in manager.get_participants(namespace, room)]
    for sid in members:
        await manager.server.disconnect(sid, namespace=namespace, ignore_queue=True)
    return len(members)


class LocalRooms(socketio.AsyncManager):  # type: ignore[misc]
    """Rooms of a single process, sending one encoded packet to each member in turn.

    The stock manager spawns a task per recipient and waits for them all; handing
    a packet to a socket only queues it, so a plain loop does the same work without
    the tasks."""

    async def emit(self, event: str, data: Any, namespace: str, room: Any = None,
                   skip_sid: Any = None, callback: Any = None, to: Any = None,
                   **kwargs: Any) -> None:
        """Send ``event`` to ``to``/``room`` (a session, a room or a list of them)."""
        if callback is not None:
            await super().emit(event, data, namespace, room=room, skip_sid=skip_sid,
                               callback=callback, to=to, **kwargs)
            return
        room = to or room
        if namespace not in self.rooms:
            return
        skipped = skip_sid if isinstance(skip_sid, list) else [skip_sid]
        values = list(data) if isinstance(data, tuple) else [] if data is None else [data]
        frame = engineio.packet.Packet(engineio.packet.MESSAGE, _event_text(
            namespace, [event, *values]))
        for sid, eio_sid in list(self.get_participants(namespace, room)):
            if sid not in skipped:
                await self.server._send_eio_packet(eio_sid, frame)

    async def disconnect_room(self, room: str, namespace: str = NAMESPACE) -> None:
        """Disconnect every session in ``room``."""
        await disconnect_here(self, room, namespace)


class RedisRooms(socketio.AsyncRedisManager):  # type: ignore[misc]
    """Rooms shared by every process on one Redis channel."""

    async def disconnect_room(self, room: str, namespace: str = NAMESPACE) -> None:
        """Disconnect every session in ``room``, on this process and every other one."""
        await disconnect_here(self, room, namespace)
        await self._publish({"method": "disconnect", "sid": None, "room": room,
                             "namespace": namespace, "host_id": self.host_id})

    async def _handle_disconnect(self, message: dict[str, Any]) -> None:
        room = message.get("room")
        if message.get("sid") is None and isinstance(room, str):
            await disconnect_here(self, room, message.get("namespace") or NAMESPACE)
        else:
            await super()._handle_disconnect(message)
