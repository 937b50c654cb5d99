"""Sending a table's events: one ``seq`` per message, private parts to their owner only.

Every message of a table goes to the sessions watching it. A message with a
private part (a player's hole cards, the actor's legal actions, the proof of a
hand's deck for the players dealt in) exists in two forms under the same
``seq``: the full one for the watching sessions of its owners, the masked one
for everyone else. A session that has not joined the table
receives neither, so a reconnecting client gets each message exactly once: in
the replay it asks for with ``since_seq``, or live after it. Recent messages
are kept so a client that reconnects with the last ``seq`` it saw gets exactly
what it missed, each in the form meant for it.

Nothing is sent before it is durable: messages are queued, *sealed* once the
state that produced them is stored, and only sealed messages are flushed. When
storing fails, :meth:`Broadcaster.rollback` forgets everything not sealed.

What one flush sends a session travels as one Socket.IO packet: the message
itself when there is one, else a ``table:batch`` holding them in order. Each
distinct packet is encoded once and handed to every session that gets it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

import orjson

REPLAY_KEPT = 128


class Audience(Protocol):
    """Whom a table's messages reach, and how: the sessions connected to this process and
    every session of one user (on any process). The socket edge provides it."""

    async def send(self, event: str, data: dict[str, Any], sids: list[str]) -> None:
        """Send one message to these sessions."""

    async def send_to_user(self, user_id: int, event: str, data: dict[str, Any]) -> None:
        """Send one message to every session of one user."""

    def is_connected(self, user_id: int) -> bool:
        """Whether the user has a session on this process."""


def _kept_json(body: dict[str, Any]) -> str:
    """``body`` as JSON text held in a string of its own size: the bytes orjson returns
    keep the whole buffer they were written in (4 KiB for a message of a few hundred
    bytes), which over a table's replay buffer would cost more than its players'
    connections."""
    return orjson.dumps(body).decode()


@dataclass(frozen=True, slots=True)
class Sent:
    """One message as sent, kept for replay: its name and its public and (optional)
    private forms as compact JSON, the private one for its ``owners`` (a tuple: a set of
    one would cost four times its size in every message kept)."""

    seq: int
    name: str
    public: str
    owners: tuple[int, ...] = ()
    private: str | None = None

    def form_for(self, user_id: int | None) -> dict[str, Any]:
        """What ``user_id`` (None: anonymous) received of this message."""
        if self.private is not None and user_id in self.owners:
            return cast(dict[str, Any], orjson.loads(self.private))
        return cast(dict[str, Any], orjson.loads(self.public))


@dataclass(frozen=True, slots=True)
class _Queued:
    """A message waiting to be sent: to the watchers (``sid`` None), to one session, or
    (``user``) to every session of one user."""

    name: str
    public: dict[str, Any]
    owners: tuple[int, ...] = ()
    private: dict[str, Any] | None = None
    sid: str | None = None
    user: int | None = None

    def form_for(self, sid: str, user_id: int | None) -> dict[str, Any] | None:
        if self.sid is not None:
            return self.public if sid == self.sid else None
        if self.private is not None and user_id in self.owners:
            return self.private
        return self.public


class Broadcaster:
    """Numbers one table's messages, sends them in order, remembers the last few hundred.

    :meth:`send` and :meth:`to_session` only queue; :meth:`seal` marks what is
    queued as durable; :meth:`flush` sends what is sealed. So a client never sees
    a ``seq`` that a restarted server would hand out again.
    """

    def __init__(
        self,
        audience: Audience,
        table_id: str,
        *,
        watchers: Mapping[str, int | None],
        next_seq: Callable[[], int],
    ) -> None:
        self._audience = audience
        self._table_id = table_id
        self._watchers = watchers
        self._next_seq = next_seq
        self._kept: deque[Sent] = deque(maxlen=REPLAY_KEPT)
        self._pending: list[_Queued] = []
        self._sealed = 0

    def send(
        self,
        name: str,
        body: dict[str, Any],
        *,
        owner: int | Iterable[int] | None = None,
        private: dict[str, Any] | None = None,
    ) -> int:
        """Queue ``body`` (plus ``table_id`` and a new ``seq``) for the table; returns the seq.

        With ``owner`` (one user, or several) and ``private``, the owners' sessions get
        ``private`` instead.
        """
        seq = self._next_seq()
        public = {"table_id": self._table_id, "seq": seq, **body}
        full = {"table_id": self._table_id, "seq": seq, **private} if private else None
        owners = (() if full is None or owner is None
                  else (owner,) if isinstance(owner, int) else tuple(owner))
        self._kept.append(Sent(seq, name, _kept_json(public), owners,
                               _kept_json(full) if full else None))
        self._pending.append(_Queued(name, public, owners, full))
        return seq

    def to_session(self, sid: str, name: str, body: dict[str, Any]) -> None:
        """Queue one message for one session only (a snapshot, a replayed event)."""
        self._pending.append(_Queued(name, body, sid=sid))

    def to_user(self, user_id: int, name: str, body: dict[str, Any]) -> None:
        """Queue one message for every session of one user (a notice)."""
        self._pending.append(_Queued(name, body, user=user_id))

    def seal(self) -> None:
        """Everything queued so far is durable: it may be sent."""
        self._sealed = len(self._pending)

    def rollback(self, seq: int) -> None:
        """Forget what was queued since the last :meth:`seal` (storing it failed);
        ``seq`` is the last durable seq."""
        del self._pending[self._sealed:]
        while self._kept and self._kept[-1].seq > seq:
            self._kept.pop()

    def forget_sent(self) -> None:
        """Keep nothing for replay (the table went on from another stored state than the
        one these messages led to): a client asking for what it missed gets a snapshot."""
        self._kept.clear()

    async def flush(self) -> None:
        """Send everything sealed, in order."""
        ready, self._pending = self._pending[:self._sealed], self._pending[self._sealed:]
        self._sealed = 0
        table: list[_Queued] = []
        for item in ready:
            if item.user is None:
                table.append(item)
                continue
            await self._send_to_sessions(table)
            table = []
            await self._audience.send_to_user(item.user, item.name, item.public)
        await self._send_to_sessions(table)

    async def _send_to_sessions(self, items: list[_Queued]) -> None:
        """One packet per session: sessions that get the same messages share it."""
        if not items:
            return
        sessions = dict(self._watchers)
        for item in items:
            if item.sid is not None:
                sessions.setdefault(item.sid, None)
        packets: dict[tuple[int, ...], tuple[list[dict[str, Any]], list[str]]] = {}
        for sid, user_id in sessions.items():
            forms = [(i, item.form_for(sid, user_id)) for i, item in enumerate(items)]
            chosen = [(i, form) for i, form in forms if form is not None]
            if not chosen:
                continue
            key = tuple(i if form is items[i].public else -1 - i for i, form in chosen)
            if key not in packets:
                packets[key] = ([{"event": items[i].name, "data": form}
                                 for i, form in chosen], [])
            packets[key][1].append(sid)
        for messages, sids in packets.values():
            if len(messages) == 1:
                await self._audience.send(messages[0]["event"], messages[0]["data"], sids)
            else:
                await self._audience.send("table:batch", {"table_id": self._table_id,
                                                          "messages": messages}, sids)

    def missed(
        self, since_seq: int, user_id: int | None
    ) -> list[tuple[str, dict[str, Any]]] | None:
        """Messages after ``since_seq`` in the form ``user_id`` gets, or None if some are gone."""
        if not self._kept:
            return None
        if not self._kept[0].seq - 1 <= since_seq <= self._kept[-1].seq:
            return None
        return [(s.name, s.form_for(user_id)) for s in self._kept if s.seq > since_seq]
