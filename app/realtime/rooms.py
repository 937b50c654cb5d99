"""Rooms across processes: disconnecting every session in a room, wherever it is, and
handing one encoded packet to this process's sessions.

python-socketio disconnects one session id on any process (through the Redis
manager), but only the process holding a session knows its id. These managers
add one operation, :meth:`disconnect_room`: every process disconnects its own
members of the room. With Redis the request travels on the manager's channel as
a ``disconnect`` message that names a room instead of a session; a process
running an older version ignores it (no session has id ``None``).

A table's messages do not go through a manager: :func:`event_text` encodes one
once and :func:`send_here` hands it to the sessions of this process; the
sessions of other processes get it on their process's channel
(:mod:`app.realtime.cluster`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import engineio.packet
import socketio

from app.realtime import codec

NAMESPACE = "/"


def event_text(event: str, values: list[Any], namespace: str = NAMESPACE) -> str:
    """A Socket.IO EVENT packet as text (``2`` + namespace + JSON): our payloads carry no
    binary, so the stock packet's walk looking for bytes is skipped."""
    prefix = "2" if namespace in ("/", "") else f"2{namespace},"
    return prefix + codec.dumps([event, *values])


async def send_here(server: socketio.AsyncServer, text: str, sids: list[str],
                    namespace: str = NAMESPACE) -> None:
    """Hand one encoded packet to each of these sessions that this process holds."""
    frame = engineio.packet.Packet(engineio.packet.MESSAGE, text)
    manager = server.manager
    for sid in sids:
        eio_sid = manager.eio_sid_from_sid(sid, namespace)
        if eio_sid is not None:
            await server._send_eio_packet(eio_sid, frame)


async def disconnect_here(manager: Any, room: str, namespace: str = NAMESPACE) -> int:
    """Disconnect every session of ``room`` that ``manager``'s process holds; how many."""
    members = [sid for sid, _eio_sid in manager.get_participants(namespace, room)]
    for sid in members:
        await manager.server.disconnect(sid, namespace=namespace, ignore_queue=True)
    return len(members)


class IndexedRooms:
    """Room bookkeeping that knows each session's rooms, mixed into a python-socketio
    manager: the stock one finds a session's rooms by looking through every room of the
    namespace, and each session has a room of its own, so every disconnect walked every
    session (2 ms at 3,000 sessions; 9 s of stalled loop for 3,000 leaving together).
    Otherwise it keeps the stock manager's state exactly as that does."""

    rooms: dict[str, dict[Any, Any]]
    callbacks: dict[str, Any]
    pending_connect: dict[str, list[str]]
    pending_disconnect: dict[str, list[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rooms_of: dict[tuple[str, str], dict[Any, None]] = {}

    def basic_enter_room(self, sid: str, namespace: str, room: Any,
                         eio_sid: str | None = None) -> None:
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)  # type: ignore[misc]
        self._rooms_of.setdefault((namespace, sid), {})[room] = None

    def basic_leave_room(self, sid: str, namespace: str, room: Any) -> None:
        super().basic_leave_room(sid, namespace, room)  # type: ignore[misc]
        joined = self._rooms_of.get((namespace, sid))
        if joined is not None:
            joined.pop(room, None)
            if not joined:
                del self._rooms_of[(namespace, sid)]

    def basic_disconnect(self, sid: str, namespace: str, **kwargs: Any) -> None:
        if namespace not in self.rooms:
            return
        for room in list(self._rooms_of.get((namespace, sid), ())):
            self.basic_leave_room(sid, namespace, room)
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            if sid in pending.get(namespace, ()):
                pending[namespace].remove(sid)
                if not pending[namespace]:
                    del pending[namespace]

    def get_rooms(self, sid: str, namespace: str) -> list[Any]:
        """The rooms a session is in (the one of all sessions aside)."""
        return [r for r in self._rooms_of.get((namespace, sid), ()) if r is not None]


class LocalRooms(IndexedRooms, socketio.AsyncManager):  # type: ignore[misc]
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
        frame = engineio.packet.Packet(engineio.packet.MESSAGE, event_text(
            event, values, namespace))
        for sid, eio_sid in list(self.get_participants(namespace, room)):
            if sid not in skipped:
                await self.server._send_eio_packet(eio_sid, frame)

    async def disconnect_room(self, room: str, namespace: str = NAMESPACE) -> None:
        """Disconnect every session in ``room``."""
        await disconnect_here(self, room, namespace)


class RedisRooms(IndexedRooms, socketio.AsyncRedisManager):  # type: ignore[misc]
    """Rooms shared by every process on one Redis channel (users' and the lobby's)."""

    async def listen(self, timeout: float = 10) -> None:
        """Read the channel from now on (python-socketio starts at the first connection,
        and a process with none must still hear the others); returns once subscribed."""
        if not self.server.manager_initialized:
            self.server.manager_initialized = True
            self.initialize()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while getattr(self, "pubsub", None) is None or not self.pubsub.subscribed:
            if loop.time() > deadline:
                raise TimeoutError("the Socket.IO channel on Redis could not be subscribed")
            await asyncio.sleep(0.01)

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
