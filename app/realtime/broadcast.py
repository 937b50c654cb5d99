"""Sending a table's events: one ``seq`` per message, private parts to their owner only.

A message meant for everyone goes to the ``table:<id>`` room. A message with a
private part (a player's hole cards, the actor's legal actions) goes in two
forms under the same ``seq``: the full one to the owner's ``user:<id>`` room,
the masked one to the table room skipping the owner's sessions. Recent
messages are kept so a client that reconnects with the last ``seq`` it saw
gets exactly what it missed, each in the form meant for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import socketio

from app.realtime.connections import Connections, table_room, user_room

REPLAY_KEPT = 512


@dataclass(frozen=True, slots=True)
class Sent:
    """One message as sent: its name, the public form and an optional private form."""

    seq: int
    name: str
    public: dict[str, Any]
    owner: int | None = None
    private: dict[str, Any] | None = None

    def form_for(self, user_id: int | None) -> dict[str, Any]:
        """What ``user_id`` (None: anonymous) received of this message."""
        if self.private is not None and user_id is not None and user_id == self.owner:
            return self.private
        return self.public


class Broadcaster:
    """Numbers one table's messages, sends them in order, remembers the last few hundred.

    :meth:`send` and :meth:`to_session` only queue; :meth:`flush` sends. The
    table saves its state between the two, so a client never sees a ``seq``
    that a restarted server would hand out again.
    """

    def __init__(
        self,
        sio: socketio.AsyncServer,
        connections: Connections,
        table_id: str,
        *,
        next_seq: Callable[[], int],
    ) -> None:
        self._sio = sio
        self._connections = connections
        self._table_id = table_id
        self._next_seq = next_seq
        self._kept: deque[Sent] = deque(maxlen=REPLAY_KEPT)
        self._pending: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    def send(
        self,
        name: str,
        body: dict[str, Any],
        *,
        owner: int | None = None,
        private: dict[str, Any] | None = None,
    ) -> int:
        """Queue ``body`` (plus ``table_id`` and a new ``seq``) for the table; returns the seq.

        With ``owner`` and ``private``, the owner's sessions get ``private`` instead.
        """
        seq = self._next_seq()
        public = {"table_id": self._table_id, "seq": seq, **body}
        full = {"table_id": self._table_id, "seq": seq, **private} if private else None
        sent = Sent(seq, name, public, owner if full else None, full)
        self._kept.append(sent)
        room = table_room(self._table_id)
        if sent.owner is None or full is None:
            self._pending.append((name, public, {"room": room}))
            return seq
        skip = self._connections.sids(sent.owner)
        self._pending.append((name, public, {"room": room, "skip_sid": skip or None}))
        self._pending.append((name, full, {"room": user_room(sent.owner)}))
        return seq

    def to_session(self, sid: str, name: str, body: dict[str, Any]) -> None:
        """Queue one message for one session only (a snapshot, a replayed event)."""
        self._pending.append((name, body, {"to": sid}))

    def to_user(self, user_id: int, name: str, body: dict[str, Any]) -> None:
        """Queue one message for every session of one user (a notice)."""
        self._pending.append((name, body, {"room": user_room(user_id)}))

    async def flush(self) -> None:
        """Send everything queued, in order."""
        pending, self._pending = self._pending, []
        for name, body, target in pending:
            await self._sio.emit(name, body, **target)

    def missed(
        self, since_seq: int, user_id: int | None
    ) -> list[tuple[str, dict[str, Any]]] | None:
        """Messages after ``since_seq`` in the form ``user_id`` gets, or None if some are gone."""
        if not self._kept:
            return None
        if not self._kept[0].seq - 1 <= since_seq <= self._kept[-1].seq:
            return None
        return [(s.name, s.form_for(user_id)) for s in self._kept if s.seq > since_seq]
