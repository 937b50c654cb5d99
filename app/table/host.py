"""The host's controls of a home game: pause and resume, approving seats at a private
table, standing a player up, the stakes and the clock from the next hand, handing the
host role on, and keeping an away player's seat for a time.

Only the table's host (``TableConfig.host``) or an admin may use them. Each applied
control is one ``host_control`` table event, with who applied it and why, sent to
everyone at the table and kept in the table's host log (``HostDesk.log``, stored with the
table's state, shown in every snapshot). What a control leaves behind (the pause, the
approval queue, away deadlines) is the :class:`~app.table.host_desk.HostDesk`, so a
restart keeps it.

Chips only move through the table's own paths: a removed player stands up as one who
leaves (at the end of the hand they are in), an approved request buys in as ``table:sit``
does. A ``table:sit`` at a table whose host approves seats is queued as a request by the
seats (:mod:`app.table.seats`); the controls here answer it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from app.db.models import Role
from app.poker.blinds import PlayerStatus
from app.poker.errors import InvalidHandSetup
from app.poker.state import Stakes
from app.table import commands as c
from app.table.acks import HostApplied
from app.table.core import TableCore, person_of
from app.table.errors import InvalidPayload, NoSuchRequest, NoSuchSeat, NotHost
from app.table.events import AwayEnded, HostControlled, PlayerPublic, SeatRequestClosed
from app.table.host_desk import HostDesk, SeatRequest
from app.table.seats import Seats
from app.table.state import Player, TableState, Viewer

Remove = Callable[[c.RemoveUser], Awaitable[None]]


class HostControls:
    """The host's controls of one table (requests run on the table's task)."""

    def __init__(self, core: TableCore, *, seats: Seats, schedule_start: Callable[[], None],
                 remove: Remove) -> None:
        """Controls over ``core``: ``seats`` seat an approved person as ``table:sit``
        does and sit an away player out; ``schedule_start()`` deals after a pause;
        ``remove(RemoveUser(user_id, at_once))`` stands one up as an admin's ban does."""
        self.core = core
        self.seats = seats
        self._schedule_start = schedule_start
        self._remove = remove
        self._controls: dict[str, Callable[..., Awaitable[HostApplied]]] = {
            "pause": self.pause, "resume": self.resume, "approval": self.set_approval,
            "approve": self.approve, "refuse": self.refuse, "remove": self.remove,
            "away": self.away, "stakes": self.stakes, "clock": self.clock,
            "hand_over": self.hand_over,
        }

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    async def apply(self, command: c.HostControl) -> HostApplied:
        """Apply the control named ``command.action`` with its ``args`` (the names of the
        parameters of the method of that control) and the ``reason`` shown to the table."""
        control = self._controls.get(command.action)
        if control is None:
            raise InvalidPayload(
                f"expected one of {sorted(self._controls)}, got {command.action!r}",
                problems=[])
        return await control(command.viewer, reason=command.reason, **command.args)

    @property
    def desk(self) -> HostDesk:
        """What the host has set."""
        return self.state.desk

    # ---- who may ---------------------------------------------------------------

    def _check_host(self, viewer: Viewer) -> None:
        if self.state.config.tournament is not None:
            raise NotHost("a tournament runs this table: it has no host controls")
        if not (self.state.config.hosted_by(viewer.user_id) or viewer.is_admin):
            raise NotHost("only the table's host can do that")

    def _applied(self, viewer: Viewer, action: str, reason: str, **details: Any
                 ) -> HostApplied:
        """Record and announce one applied control; the ack of the request."""
        core = self.core
        entry = {"action": action, "reason": reason, "by": person_of(viewer).public(),
                 "at": core.now(), "hand_number": self.state.hand_number, **details}
        self.desk.record(entry)
        core.touch()
        seq = core.event(HostControlled(**entry))
        return HostApplied(table_id=core.id, action=action, seq=seq)

    # ---- pause --------------------------------------------------------------------

    async def pause(self, viewer: Viewer, reason: str) -> HostApplied:
        """Deal no new hand until resumed (a hand in play is played to its end)."""
        self._check_host(viewer)
        self.desk.paused = True
        self.core.mailbox.cancel("start")
        return self._applied(viewer, "pause", reason,
                             at_hand_end=self.state.current is not None)

    async def resume(self, viewer: Viewer, reason: str) -> HostApplied:
        """Deal again after a pause."""
        self._check_host(viewer)
        self.desk.paused = False
        answer = self._applied(viewer, "resume", reason)
        self._schedule_start()
        return answer

    # ---- approving seats --------------------------------------------------------------

    async def set_approval(self, viewer: Viewer, required: bool, reason: str
                           ) -> HostApplied:
        """Make seats at this private table wait for the host's approval (or stop it:
        requests waiting then are refused)."""
        self._check_host(viewer)
        if required and not self.state.config.private:
            raise InvalidPayload("only a private table can require approval to sit",
                                 problems=[])
        self.desk.approval = required
        answer = self._applied(viewer, "approval", reason, required=required)
        if not required:
            for request in list(self.desk.requests):
                self._refused(request, "the host no longer approves seats: sit again")
        return answer

    async def approve(self, viewer: Viewer, player: str, reason: str) -> HostApplied:
        """Seat the person whose request waits, buying in as ``table:sit`` does."""
        self._check_host(viewer)
        request = self._request(player)
        asker = Viewer(request.user_id, request.public_id, request.name, Role.PLAYER)
        await self.seats.seat(asker, request.seat, request.buy_in)
        self._drop(request)
        return self._applied(viewer, "approve", reason, player=_public(request),
                             seat=request.seat)

    async def refuse(self, viewer: Viewer, player: str, reason: str) -> HostApplied:
        """Turn a seat request down; the person is told why."""
        self._check_host(viewer)
        request = self._request(player)
        self._refused(request, reason)
        return self._applied(viewer, "refuse", reason, player=_public(request))

    def _request(self, public_id: str) -> SeatRequest:
        request = self.desk.request_of(public_id)
        if request is None:
            raise NoSuchRequest("nobody with that id asks for a seat here")
        return request

    def _drop(self, request: SeatRequest) -> None:
        self.desk.requests = [r for r in self.desk.requests if r is not request]
        self.core.touch()

    def _refused(self, request: SeatRequest, reason: str) -> None:
        self._drop(request)
        core = self.core
        core.out.to_user(request.user_id, "user:notice", {
            "kind": "seat_refused", "table_id": core.id, "reason": reason})
        core.event(SeatRequestClosed(player=PlayerPublic(**_public(request))))

    # ---- players ----------------------------------------------------------------------

    async def remove(self, viewer: Viewer, seat: int, reason: str) -> HostApplied:
        """Stand the player in ``seat`` up: cashed out now, or when their hand ends."""
        self._check_host(viewer)
        player = self._person_at(seat)
        assert player.user_id is not None
        self.desk.away.pop(seat, None)
        answer = self._applied(viewer, "remove", reason, seat=seat,
                               player=player.person.public(),
                               at_hand_end=self.state.in_hand(seat))
        await self._remove(c.RemoveUser(player.user_id, at_once=False))
        return answer

    async def away(self, viewer: Viewer, seat: int, seconds: float, reason: str
                   ) -> HostApplied:
        """Sit the player in ``seat`` out and keep the seat for ``seconds``; they stand up
        then unless they sat in again."""
        self._check_host(viewer)
        player = self._person_at(seat)
        until = self.core.now() + seconds
        self.desk.away[seat] = until
        answer = self._applied(viewer, "away", reason, seat=seat, until=until,
                               player=player.person.public())
        self.seats.sit_out(player)
        self._keep_seat(seat, until)
        return answer

    def _keep_seat(self, seat: int, until: float) -> None:
        """Hold the away seat until ``until`` (instead of the usual sit-out limit)."""
        mailbox = self.core.mailbox
        mailbox.cancel(f"sit-out:{seat}")
        mailbox.later(f"away:{seat}", until - self.core.now(), self._away_over, seat,
                      until)

    async def _away_over(self, seat: int, until: float) -> None:
        if self.desk.away.get(seat) != until:
            return
        del self.desk.away[seat]
        self.core.touch()
        player = self.state.players.get(seat)
        if player is None or player.status is not PlayerStatus.SITTING_OUT:
            return
        self.core.event(AwayEnded(seat=seat))
        if self.state.in_hand(seat):
            player.leaving = True
            return
        await self.seats.stand_up([player])

    def rearm(self) -> None:
        """Set the away timers again from the state (after a restore)."""
        for seat, until in list(self.desk.away.items()):
            self._keep_seat(seat, until)

    def _person_at(self, seat: int) -> Player:
        player = self.state.players.get(seat)
        if player is None or player.is_bot:
            raise NoSuchSeat(f"no person sits in seat {seat}")
        return player

    # ---- settings ---------------------------------------------------------------------

    async def stakes(self, viewer: Viewer, small_blind: int, big_blind: int, ante: int,
                     reason: str) -> HostApplied:
        """New blinds and ante, from the next hand (a straddle stays twice the big blind)."""
        self._check_host(viewer)
        config = self.state.config
        old = config.stakes
        try:
            stakes = replace(old, small_blind=small_blind, big_blind=big_blind, ante=ante,
                             straddle=2 * big_blind if old.straddle else 0)
        except InvalidHandSetup as error:
            raise InvalidPayload(str(error), problems=[]) from error
        if big_blind > config.max_buy_in:
            raise InvalidPayload(f"the big blind must not exceed the maximum buy-in "
                                 f"({config.max_buy_in})", problems=[])
        self.state.reconfigure(replace(config, stakes=stakes))
        return self._applied(viewer, "stakes", reason, stakes=_stakes(stakes))

    async def clock(self, viewer: Viewer, action_seconds: float, reason: str
                    ) -> HostApplied:
        """A new time to act per decision, from the next decision."""
        self._check_host(viewer)
        least = self.core.settings.min_action_seconds
        if action_seconds < least:
            raise InvalidPayload(f"action_seconds must be at least {least}", problems=[])
        self.state.reconfigure(replace(self.state.config, action_seconds=action_seconds))
        return self._applied(viewer, "clock", reason, action_seconds=action_seconds)

    async def hand_over(self, viewer: Viewer, player: str, reason: str) -> HostApplied:
        """Make the person seated here with ``public_id`` the table's host."""
        self._check_host(viewer)
        heir = next((p for p in self.state.humans() if p.person.public_id == player), None)
        if heir is None:
            raise NoSuchSeat("the new host must sit at this table")
        self.state.reconfigure(replace(self.state.config, host=heir.person))
        return self._applied(viewer, "hand_over", reason, host=heir.person.public())


def _public(request: SeatRequest) -> dict[str, Any]:
    return {"public_id": request.public_id, "name": request.name, "bot": None}


def _stakes(stakes: Stakes) -> dict[str, int]:
    return {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind,
            "ante": stakes.ante}
