"""Who watches which table, here and, with other processes, in each table's watch room.

A session that joins or sits at a table watches it: when the session ends, the table is
told (:meth:`Watchers.disconnected`). With other processes the session also enters the
table's watch room, kept where every process sees it, so whoever runs the table next
finds its sessions: when a process takes a table over (the ``adopted`` news), the
processes holding its watchers send them (:meth:`Watchers.sessions_of`), and the new
owner re-joins each one (:meth:`Watchers.rejoin`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import socketio

from app.hosting.live import LiveTables
from app.realtime.cluster import Cluster, viewer_to_dict
from app.realtime.connections import Connections
from app.table.commands import Disconnected, Join
from app.table.state import Viewer


class Watchers:
    """The tables each session of this process watches."""

    def __init__(self, live: LiveTables, *, sio: socketio.AsyncServer,
                 connections: Connections, cluster: Cluster | None) -> None:
        self.live = live
        self.sio = sio
        self.connections = connections
        self.cluster = cluster
        self._watching: defaultdict[str, set[str]] = defaultdict(set)

    async def watching(self, sid: str, table_id: str) -> None:
        """Remember that a session watches a table (told when it disconnects); with other
        processes, the session also joins the table's room (see :meth:`_room`)."""
        self._watching[sid].add(table_id)
        await self._room(sid, table_id, entered=True)

    async def unwatching(self, sid: str, table_id: str) -> None:
        """Forget that a session watches a table."""
        self._watching[sid].discard(table_id)
        await self._room(sid, table_id, entered=False)

    async def _room(self, sid: str, table_id: str, *, entered: bool) -> None:
        """Enter or leave a table's watch room on the session's own process: here, or with
        the answer to the forwarded request (so before its ack, even if this process dies
        right after answering), or else through the Socket.IO manager."""
        if self.cluster is None:
            return
        room = watch_room(table_id)
        if sid not in self.connections and self.cluster.carry_room(sid, room,
                                                                   entered=entered):
            return
        if entered:
            await self.sio.enter_room(sid, room)
        else:
            await self.sio.leave_room(sid, room)

    async def disconnected(self, sid: str, viewer: Viewer | None) -> None:
        """A session ended: tell every table it watched."""
        for table_id in self._watching.pop(sid, set()):
            table = self.live.tables.get(table_id)
            if table is not None and not table.closed:
                table.tell(Disconnected(sid, viewer.user_id if viewer else None))

    def sessions_of(self, table_id: str) -> list[dict[str, Any]]:
        """The sessions of every process in a table's watch room, with their viewers as
        this process knows them."""
        return [{"sid": sid, "viewer": viewer_to_dict(self.connections.viewer(sid))}
                for sid, _ in self.sio.manager.get_participants("/", watch_room(table_id))]

    async def rejoin(self, table_id: str, sessions: list[tuple[str, Viewer | None]]) -> None:
        """Sessions that watched a table before it came to this process watch it again
        (each gets a snapshot and the messages from then on)."""
        table = self.live.tables.get(table_id)
        if table is None or table.closed:
            return
        # After a void, the messages since the table came here (the hand_voided first),
        # else a snapshot: the sessions saw at most what the last owner stored.
        since = self.live.voided_at.get(table_id)
        for sid, viewer in sessions:
            if table.admitted(viewer):
                await table.ask(Join(sid, viewer, None, since))
                await self.watching(sid, table_id)


def watch_room(table_id: str) -> str:
    """The Socket.IO room of the sessions watching a table (kept with other processes)."""
    return f"watch:{table_id}"
