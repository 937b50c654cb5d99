"""Ending one table here: closing it (everyone cashed out), taking one person away (a
ban, a deleted account), and handing the table to another process between hands.

A close is one chip movement: the hand in play is void, every seat (and every claim on
a bot's seat) is paid out, the waiting list is emptied, and the table is stored closed
in the same transaction; then its watchers are told and it stops.
"""

from __future__ import annotations

from app.table import commands as c
from app.table.acks import Closed
from app.table.clock import Clock
from app.table.core import TableCore
from app.table.errors import TableInUse
from app.table.events import TableClosed
from app.table.seats import Seats
from app.table.settlement import Settlement
from app.table.state import TableState
from app.table.store import Movement, Transfer
from app.table.waiting import WaitingList


def in_use(state: TableState) -> bool:
    """Whether a person sits at the table of ``state`` or has claimed a bot's seat."""
    return bool(state.humans()) or any(
        p.successor is not None for p in state.players.values())


class Closing:
    """Closing one table, taking people away from it, handing it over."""

    def __init__(self, core: TableCore, *, seats: Seats, settlement: Settlement,
                 clock: Clock, waiting: WaitingList) -> None:
        self.core = core
        self.seats = seats
        self.settlement = settlement
        self.clock = clock
        self.waiting = waiting

    async def close(self, command: c.Close) -> Closed:
        """Close the table: void a hand in play, cash everyone out, stop."""
        core = self.core
        paid: list[int] = []

        def change() -> Movement:
            self.settlement.void_hand("the table closed")
            payouts: list[Transfer] = []
            for player in list(core.state.players.values()):
                if player.successor is not None:
                    assert player.successor.person.user_id is not None
                    payouts.append(Transfer(player.successor.person.user_id,
                                            player.successor.buy_in))
                    player.successor = None
                payout = core.vacate(player)
                if payout is not None:
                    payouts.append(payout)
            core.state.waiting = []
            core.state.offer = None
            core.event(TableClosed(reason=command.reason))
            paid.append(sum(p.amount for p in payouts if p.user_id is not None))
            return Movement(payouts=tuple(payouts), closing=True)

        await core.move_chips(change)
        await core.end()
        return Closed(table_id=core.id, paid_out=paid[-1])

    async def close_unused(self, command: c.CloseUnused) -> Closed:
        """Close the table unless it is :func:`in_use` (:class:`TableInUse`): bots' stacks
        go back to the house, and people waiting or watching are told."""
        if in_use(self.core.state):
            raise TableInUse("people sit at this table: it stays open while they play")
        return await self.close(c.Close(command.reason))

    async def remove_user(self, command: c.RemoveUser) -> None:
        """Take a player away (ban: at the end of the hand; deletion: ``at_once``)."""
        user_id = command.user_id
        self.waiting.drop(user_id)
        await self.seats.withdraw_claim(user_id)
        player = self.core.state.player_of(user_id)
        if player is None:
            return
        if self.core.state.config.tournament is not None:
            self.seats.sit_out(player)  # tournament chips are no credits to pay out
            return
        if not self.core.state.in_hand(player.seat):
            await self.seats.stand_up([player])
            return
        player.leaving = True
        self.core.touch()
        if command.at_once:
            await self.settlement.pay_out_early(player)
        self.clock.act_for_absent()

    async def hand_over(self, command: c.HandOver) -> bool | None:
        """Between two of the table's messages: None while a hand is in play; else give
        the lease to the process ``command.to`` (nothing this process still holds can
        write the table after that), and whether the database took the change."""
        core = self.core
        if core.state.current is not None:
            return None
        lease = core.lease
        return lease is not None and await core.services.hand_over(core.id, lease,
                                                                   command.to)
