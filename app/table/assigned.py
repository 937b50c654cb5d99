"""Seats assigned by a tournament: what a tournament table asks its tournament, and how
the table takes the seats it is given.

Nobody sits down at a tournament table: the tournament says who sits where
(:class:`AssignedSeat`), and :func:`take_assigned_seats` makes the table's seats
those, through the table core's one chip path (:meth:`TableCore.move_chips`
with :meth:`TableCore.vacate` and :meth:`TableCore.announce_sat`), so the seats
and the events that tell them are stored and sent like any other change.
Between hands every seat follows the tournament; during a hand only players
arriving in free seats sit down (a player moved here by balancing sits at once
and is dealt in from the next hand), and nobody leaves.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from app.poker.blinds import PlayerStatus
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.table.core import TableCore
from app.table.state import Person, Player
from app.table.store import Movement, Write

log = logging.getLogger(__name__)

Commit = Callable[[tuple[Write, ...]], Awaitable[None]]
"""Stores the hand that ended, with the tournament's writes, in one transaction."""


@dataclass(frozen=True, slots=True)
class AssignedSeat:
    """Who the tournament seats in one seat, with how many chips; ``notice`` is what
    that person is told (``user:notice``) once they are seated here."""

    person: Person
    stack: int
    bot: BotStyle | None = None
    notice: dict[str, Any] | None = None


class TournamentHands(Protocol):
    """How a tournament table deals (see :mod:`app.tournaments.tables`): its seats and
    stakes come from the tournament, which hears of every hand's start and end. Nobody
    buys in or cashes out there, so its chip movements carry no credits; everyone with
    chips is dealt in, and an absent player is blinded away instead of losing the seat."""

    def seats(self) -> Mapping[int, AssignedSeat] | None:
        """The seats the tournament assigns this table now (None: it has no say any more)."""

    async def begin_hand(self, stacks: dict[int, int], absent: frozenset[int]) -> Stakes | None:
        """The stakes to deal these seats at now, or None when the tournament says wait;
        ``absent`` are the seats of players sitting out."""

    async def hand_ended(self, stacks: dict[int, int], button: int, commit: Commit) -> None:
        """A hand ended with these stacks (seats dealt in) and this button: record it,
        calling ``commit`` exactly once with the tournament's writes, which stores them
        together with the hand."""

    async def after_hand(self) -> None:
        """The hand and this table's new seats are stored: move the players the hand
        sent to other tables, tell who went out, finish the tournament if it is over."""

    async def stored_after_all(self) -> None:
        """The table found its last commit stored although it seemed to fail (and goes on
        from the stored state): the tournament takes the hand's result if it was that
        commit's, and does what :meth:`after_hand` would have done."""


async def take_assigned_seats(core: TableCore, wanted: Mapping[int, AssignedSeat]) -> bool:
    """Make the table's seats ``wanted`` (between hands: every seat; during a hand: only
    arrivals in free seats), in one stored change; whether anything changed."""
    state = core.state
    between = state.current is None
    leaving = [p for n, p in state.players.items()
               if between and (n not in wanted or wanted[n].person != p.person)]
    gone = {p.seat for p in leaving}
    arriving = {n: a for n, a in wanted.items() if n not in state.players or n in gone}
    restack = {n: a.stack for n, a in wanted.items() if between and n in state.players
               and n not in gone and state.players[n].stack != a.stack}
    if not (leaving or arriving or restack):
        return False

    def change() -> Movement:
        for player in leaving:
            core.vacate(player)
        for seat, stack in restack.items():
            # Never expected: the hand and the standings are stored together.
            log.warning("table %s: seat %d had %d chips, the tournament says %d",
                        core.id, seat, state.players[seat].stack, stack)
            state.players[seat].stack = stack
        for seat, assigned in sorted(arriving.items()):
            _sit(core, seat, assigned)
        return Movement()

    await core.move_chips(change)
    return True


def _sit(core: TableCore, seat: int, assigned: AssignedSeat) -> None:
    player = Player(seat, assigned.person, assigned.stack, status=PlayerStatus.PLAYING,
                    bot=assigned.bot, time_bank=core.state.config.time_bank.seconds)
    core.state.players[seat] = player
    core.announce_sat(player)
    if player.user_id is not None and assigned.notice is not None:
        core.out.to_user(player.user_id, "user:notice", assigned.notice)
