"""Watching one table: joining it (a snapshot, or the events missed since a ``seq``),
unwatching, a session that ended, and the session that sits down without watching yet.

A player whose last session ends keeps the seat; the table is told
(``player_connection``), and on their turn a short grace to come back starts (see
:mod:`app.table.clock`); a session of theirs that joins again ends it.
"""

from __future__ import annotations

from app.table import commands as c
from app.table import projection
from app.table.acks import Joined, Sat, SeatAsked, Unwatched
from app.table.admission import check_invite
from app.table.chat import TableChat
from app.table.clock import Clock
from app.table.core import TableCore
from app.table.events import PlayerConnection
from app.table.preactions import PreActions
from app.table.seats import Seats
from app.table.state import Viewer


class Watching:
    """Who watches one table, and what they are sent when they come."""

    def __init__(self, core: TableCore, *, clock: Clock, seats: Seats,
                 preactions: PreActions, talk: TableChat) -> None:
        self.core = core
        self.clock = clock
        self.seats = seats
        self.preactions = preactions
        self.talk = talk

    async def join(self, command: c.Join) -> Joined:
        """Watch the table: a snapshot (or the missed events) now, every event after."""
        core, viewer, sid = self.core, command.viewer, command.sid
        check_invite(core.state, core.watchers, viewer, command.invite_code)
        self._watch(sid, viewer)
        user_id = viewer.user_id if viewer else None
        since = command.since_seq
        missed = core.out.missed(since, user_id) if since is not None else None
        if missed is None:
            self.snapshot_to(sid, user_id)
        else:
            for name, body in missed:
                core.out.to_session(sid, name, body)
            if user_id is not None:
                self.preactions.resend(sid, user_id)
        player = core.state.player_of(user_id) if user_id is not None else None
        if player is not None and player.user_id in core.away:
            core.away.discard(player.user_id)
            core.event(PlayerConnection(seat=player.seat, connected=True))
            self.clock.player_back(player)
        return Joined(table_id=core.id, seq=core.state.seq,
                      replayed=None if missed is None else len(missed))

    def snapshot_to(self, sid: str, user_id: int | None) -> None:
        """Send session ``sid`` (of ``user_id``) the table as they may see it now."""
        self.core.out.to_session(sid, "table:snapshot",
                                 projection.snapshot(self.core, self.clock, user_id,
                                                     chat=self.talk.lines_for(user_id)))

    def _watch(self, sid: str, viewer: Viewer | None) -> None:
        self.core.watchers[sid] = viewer.user_id if viewer else None

    async def unwatch(self, command: c.Unwatch) -> Unwatched:
        """Stop watching (a seat, if any, is kept: leave it with ``table:leave``)."""
        self.core.watchers.pop(command.sid, None)
        return Unwatched(table_id=self.core.id)

    async def disconnected(self, command: c.Disconnected) -> None:
        """A session ended: the seat stays; on the player's turn, a short grace to come
        back starts (see :meth:`Clock.player_away`)."""
        core, user_id = self.core, command.user_id
        core.watchers.pop(command.sid, None)
        if user_id is None or core.connected(user_id):
            return
        player = core.state.player_of(user_id)
        if player is not None:
            core.away.add(user_id)
            core.event(PlayerConnection(seat=player.seat, connected=False))
            self.clock.player_away(player)

    async def sit(self, command: c.Sit) -> Sat | SeatAsked:
        """Take a seat, buying in from the balance (a bot gives its seat up); a session
        not watching yet starts watching, and gets its snapshot.

        A refused request changes nothing: the session starts watching only once
        the buy-in is committed."""
        core, viewer, sid = self.core, command.viewer, command.sid
        check_invite(core.state, core.watchers, viewer, command.invite_code)
        self.seats.check(viewer, command.seat, command.buy_in)
        watching = sid in core.watchers
        if not watching:
            self._watch(sid, viewer)
            self.snapshot_to(sid, viewer.user_id)
        try:
            return await self.seats.sit(viewer, command.seat, command.buy_in)
        except Exception:
            if not watching:
                core.watchers.pop(sid, None)
            raise
