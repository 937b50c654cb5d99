"""Who is connected to this process: each Socket.IO session and the user behind it.

A user connected from two tabs has two sessions and is one player: table
actors look players up by user id and reach every tab through the private
``user:<id>`` room.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import socketio

from app.realtime.rooms import event_text, send_here
from app.table.state import Viewer

if TYPE_CHECKING:
    from app.realtime.cluster import Cluster


def user_room(user_id: int) -> str:
    """The private room of one user (every tab they have open)."""
    return f"user:{user_id}"


LOBBY_ROOM = "lobby"


class Connections:
    """Sessions of this process, by session id and by user."""

    def __init__(self) -> None:
        self._viewers: dict[str, Viewer | None] = {}
        self._sids: dict[int, set[str]] = {}
        self._addresses: dict[str, str] = {}
        # Sessions by client address: all of them, and the anonymous ones.
        self._at: Counter[str] = Counter()
        self._anonymous_at: Counter[str] = Counter()

    def add(self, sid: str, viewer: Viewer | None, address: str = "unknown") -> None:
        """Record a new session (``address``: the client's, for per-address limits)."""
        self._viewers[sid] = viewer
        self._addresses[sid] = address
        self._at[address] += 1
        if viewer is None:
            self._anonymous_at[address] += 1
        else:
            self._sids.setdefault(viewer.user_id, set()).add(sid)

    def remove(self, sid: str) -> Viewer | None:
        """Forget a session; returns who it was."""
        if sid not in self._viewers:
            return None
        address = self._addresses.pop(sid)
        _discount(self._at, address)
        viewer = self._viewers.pop(sid)
        if viewer is None:
            _discount(self._anonymous_at, address)
        else:
            sids = self._sids.get(viewer.user_id, set())
            sids.discard(sid)
            if not sids:
                self._sids.pop(viewer.user_id, None)
        return viewer

    def address(self, sid: str) -> str:
        """The client address a session connected from."""
        return self._addresses.get(sid, "unknown")

    def at_address(self, address: str, *, anonymous: bool = False) -> int:
        """How many sessions (only anonymous ones: ``anonymous``) this address holds here."""
        return (self._anonymous_at if anonymous else self._at)[address]

    def viewer(self, sid: str) -> Viewer | None:
        """The user of a session (None when anonymous or unknown)."""
        return self._viewers.get(sid)

    def sids(self, user_id: int) -> list[str]:
        """Every session of a user in this process."""
        return sorted(self._sids.get(user_id, ()))

    def is_connected(self, user_id: int) -> bool:
        """Whether the user has at least one session here."""
        return user_id in self._sids

    def all_sids(self) -> list[str]:
        """Every session of this process."""
        return list(self._viewers)

    def __len__(self) -> int:
        return len(self._viewers)

    def __contains__(self, sid: object) -> bool:
        return sid in self._viewers


def _discount(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


class SocketAudience:
    """What a table's messages go through: this process's Socket.IO server, and its
    sessions for who is connected here (see :class:`app.table.broadcast.Audience`).

    A message is encoded once. This process's sessions get it straight away; with
    other processes (:attr:`cluster`), each process holding some of the other sessions
    gets it once, on its own channel, and a session whose process is not known is
    reached through the Socket.IO manager."""

    def __init__(self, sio: socketio.AsyncServer, connections: Connections,
                 cluster: Cluster | None = None) -> None:
        self._sio = sio
        self._connections = connections
        self.cluster = cluster

    async def send(self, event: str, data: dict[str, Any], sids: list[str]) -> None:
        """Send one message to these sessions."""
        text = event_text(event, [data])
        here = [sid for sid in sids if sid in self._connections]
        if here:
            await send_here(self._sio, text, here)
        if len(here) == len(sids):
            return
        elsewhere: dict[str | None, list[str]] = {}
        for sid in sids:
            if sid not in self._connections:
                process = self.cluster.where(sid) if self.cluster is not None else None
                elsewhere.setdefault(process, []).append(sid)
        for process, theirs in elsewhere.items():
            if process is None or self.cluster is None:
                await self._sio.emit(event, data, to=theirs)
            else:
                await self.cluster.deliver(process, theirs, text)

    async def send_to_user(self, user_id: int, event: str, data: dict[str, Any]) -> None:
        """Send one message to every session of one user, on every process."""
        await self._sio.emit(event, data, room=user_room(user_id))

    def is_connected(self, user_id: int) -> bool:
        """Whether the user has a session on this process."""
        return self._connections.is_connected(user_id)
