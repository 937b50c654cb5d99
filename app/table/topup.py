"""Topping a stack up between hands, by request or before each hand for a player who asked
for it, and the seat's own preferences: auto-muck, auto top-up, sitting out before the
next big blind.

A top-up is a buy-in: credits move from the player's balance to the table through the
table's one chip path (:meth:`TableCore.move_chips`), and the sitting's ``bought_in``
counts it.
"""

from __future__ import annotations

from functools import partial

from app.db.ledger import InsufficientCredits
from app.table.acks import Preferred, ToppedUp
from app.table.core import TableCore
from app.table.errors import HandInProgress, InvalidBuyIn, TournamentSeat
from app.table.events import StackChanged
from app.table.state import Player, Viewer
from app.table.store import Movement, Transfer


class TopUps:
    """The top-ups and seat preferences of one table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def top_up(self, viewer: Viewer, amount: int) -> ToppedUp:
        """Add ``amount`` credits to the stack between hands, up to the max buy-in."""
        player = self._between_hands(viewer, "top up")
        room = self.core.state.config.max_buy_in - player.stack
        if amount > room:
            raise InvalidBuyIn(f"you can add at most {max(room, 0)}", min=1, max=max(room, 0))
        balances = await self.core.move_chips(partial(self._add, player.seat, amount))
        return ToppedUp(table_id=self.core.id,
                        stack=self.core.state.players[player.seat].stack,
                        balance=balances[viewer.user_id])

    def preferences(self, viewer: Viewer, changes: dict[str, bool]) -> Preferred:
        """Set some of the seat's preferences (the others keep theirs)."""
        player = self.core.player_for(viewer)
        for name, value in changes.items():
            setattr(player, name, value)
        self.core.touch()
        return Preferred(table_id=self.core.id, **player.preferences())

    async def before_hand(self) -> None:
        """Top up to the max buy-in every player between hands who asked for it; one whose
        credits cannot pay is told, and their auto top-up is turned off."""
        state = self.core.state
        if state.config.tournament is not None:
            return
        wanting = [p.seat for p in state.players.values()
                   if p.auto_top_up and not p.is_bot and not p.leaving
                   and p.stack < state.config.max_buy_in and not state.in_hand(p.seat)]
        for seat in wanting:
            player = state.players.get(seat)
            if player is None or player.user_id is None or not player.auto_top_up:
                continue
            room = state.config.max_buy_in - player.stack
            try:
                await self.core.move_chips(partial(self._add, seat, room))
            except InsufficientCredits:
                self._stop_auto_top_up(seat, room)

    def _between_hands(self, viewer: Viewer, what: str) -> Player:
        if self.core.state.config.tournament is not None:
            raise TournamentSeat(f"the tournament assigns seats here: you cannot {what}")
        player = self.core.player_for(viewer)
        if self.core.state.in_hand(player.seat):
            raise HandInProgress(f"{what} between hands")
        return player

    def _add(self, seat: int, amount: int) -> Movement:
        held = self.core.state.players[seat]
        held.stack += amount
        held.bought_in += amount
        self.core.event(StackChanged(seat=seat, stack=held.stack, added=amount))
        assert held.user_id is not None
        return Movement(buy_ins=(Transfer(held.user_id, amount),))

    def _stop_auto_top_up(self, seat: int, amount: int) -> None:
        player = self.core.state.players.get(seat)
        if player is None or player.user_id is None:
            return
        player.auto_top_up = False
        self.core.touch()
        self.core.out.to_user(player.user_id, "user:notice", {
            "kind": "auto_top_up_stopped", "table_id": self.core.id, "amount": amount})

