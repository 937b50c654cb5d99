"""Settling one table's hands: the end of a hand, who stands up after it, paying out a
player taken away mid-hand, voiding a hand, and recovering after a restart.

The end of a hand is one chip movement (see :mod:`app.table.core`): the hand
history, the new stacks and every seat that stands up with its cash-out commit
together, or not at all. At a tournament table the tournament's standings commit in
the same transaction (:class:`~app.table.assigned.TournamentHands`), then the table
takes the seats the tournament assigns.

A restored table (a restart, a move to another process, a commit found stored after
all) goes on with its hand in play where it stood if it can; else the hand is void
(``hand_voided``): every seat keeps the stack it started the hand with.
"""

from __future__ import annotations

from typing import Any

from app.poker.allin import RunoutEquity
from app.poker.state import Phase
from app.table.assigned import TournamentHands
from app.table.bots import BotSeats
from app.table.clock import Clock
from app.table.core import TableCore
from app.table.events import HandVoided
from app.table.history import finished_hand
from app.table.seats import Seats
from app.table.state import HandInPlay, Player, TableState
from app.table.store import Movement, Transfer, Write


class Settlement:
    """The end of every hand at one table, and what a restore does to a hand in play."""

    def __init__(self, core: TableCore, *, bots: BotSeats, clock: Clock, seats: Seats,
                 tournament: TournamentHands | None) -> None:
        self.core = core
        self.bots = bots
        self.clock = clock
        self.seats = seats
        self.tournament = tournament

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    async def end_hand(self, all_in: RunoutEquity | None) -> None:
        """Settle the hand: new stacks, the history (with ``all_in``, its first all-in
        equity), leavers paid out, in one commit (at a tournament table, with the
        tournament's standings; then the seats it assigns)."""
        current = self.state.current
        assert current is not None
        self.clock.end_turn()
        hand_id = current.id
        stacks = {s.number: s.stack for s in current.hand.seats}
        button = current.hand.button

        async def commit(writes: tuple[Write, ...]) -> None:
            def change() -> Movement:
                live = self.state.current
                assert live is not None and live.id == hand_id
                record = self._settle(live, all_in)
                return Movement(payouts=tuple(self.departures()), hand=record, writes=writes)

            await self.core.move_chips(change)

        tournament = self.tournament
        if tournament is None:
            await commit(())
        else:
            await tournament.hand_ended(stacks, button, commit)
            await self.seats.take_seats()
            await tournament.after_hand()
        await self.seats.after_seats_changed()

    def _settle(self, current: HandInPlay, all_in: RunoutEquity | None) -> Any:
        self.state.count_hand(current.hand)
        for seat in current.hand.seats:
            player = self.state.players[seat.number]
            player.stack = seat.stack - player.paid_out
            player.paid_out = 0
        record = finished_hand(self.core.id, current, self.state.players,
                               house_bots=self.tournament is None, all_in=all_in,
                               notes=self.state.desk.notes_of(current.number))
        self.state.current = None
        self.state.note_hand(self.core.now(), record.pot)
        return record

    def departures(self) -> list[Transfer]:
        """Stand up leavers and busted players; claimed bot seats go to their claimants."""
        payouts: list[Transfer | None] = []
        for player in sorted(self.state.players.values(), key=lambda p: p.seat):
            if player.is_bot and player.successor is not None:
                payouts.append(self.bots.give_way(player))
            elif ((not player.is_bot or self.tournament is not None)
                  and (player.leaving or player.stack <= 0)):
                payouts.append(self.core.vacate(player))
        return [p for p in payouts if p]

    async def pay_out_early(self, player: Player) -> None:
        """Cash out the chips behind of a player taken away mid-hand (they fold)."""
        current = self.state.current
        if current is None or player.user_id is None:
            return
        seat, user_id = player.seat, player.user_id

        def change() -> Movement:
            live = self.state.current
            assert live is not None
            held = self.state.players[seat]
            behind = live.hand.seat(seat).stack - held.paid_out
            if behind <= 0:
                return Movement()
            held.paid_out += behind
            self.core.touch()
            return Movement(payouts=(Transfer(user_id, behind),))

        await self.core.move_chips(change)

    async def recover(self, *, reason: str = "the server restarted") -> None:
        """After a restart or a move to another process (before the table's task runs),
        or once the table goes on from a state it did not know it stored: the stored hand
        in play goes on where it stood (its clock starts again when the table re-arms); a
        hand that cannot go on is void (``hand_voided``, for ``reason``). Between hands,
        whoever was leaving is settled, so the stored seats match the credits held."""
        current = self.state.current
        resumed = current is not None and self._resumable(current)

        def change() -> Movement:
            if not resumed:
                self.void_hand(reason)
            self.state.offer = None
            if self.state.current is not None:
                return Movement()
            return Movement(payouts=tuple(self.departures()))

        await self.core.move_chips(change)

    def _resumable(self, current: HandInPlay) -> bool:
        """Whether a stored hand can go on: it waits for a decision (an action or the
        run-it-twice answers) and every seat dealt in is still taken. A tournament's hand
        is voided instead: its standings are the tournament's, restored apart from the
        table's, and are only known to agree with the table at a hand boundary."""
        hand = current.hand
        waiting = hand.phase is Phase.RUN_IT_TWICE or hand.actor is not None
        return (self.state.config.tournament is None and not hand.is_complete and waiting
                and all(seat.number in self.state.players for seat in hand.seats))

    def void_hand(self, reason: str) -> None:
        """Drop the hand in play: every seat keeps the stack it started the hand with."""
        current = self.state.current
        if current is None:
            return
        self.clock.end_turn()
        self.clock.drop_question()
        self.state.current = None
        for player in self.state.players.values():
            player.stack -= player.paid_out
            player.paid_out = 0
        self.core.touch()
        self.core.event(HandVoided(reason=reason), hand_id=current.id)
