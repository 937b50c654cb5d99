"""The pre-actions of the hand in play: chosen by players while others act, reviewed after
every change of the hand, taken when the player's turn comes (the rules are
:mod:`app.poker.preactions`).

A pre-action is private: it lives in the hand in play (``HandInPlay.preactions``, stored
with the table) and only its owner hears of it, on every device they use, by
``table:preaction`` notices sent to them alone and in their snapshot (``you.preaction``).
Nothing any other viewer receives changes when one is chosen, cleared or dropped.
"""

from __future__ import annotations

from typing import Any

from app.poker.errors import NotInHand
from app.poker.hand import HandState
from app.poker.preactions import PreAction, PreActionError
from app.poker.state import BETTING_PHASES, SeatStatus
from app.table import commands as c
from app.table.acks import Preacted, PreActionPublic
from app.table.core import TableCore
from app.table.errors import PreActionNotNow, PreActionStale, StaleAction
from app.table.state import HandInPlay

# Why a pre-action changed, as its owner is told.
CHOSEN, CLEARED, APPLIED, CANCELLED = "chosen", "cleared", "applied", "cancelled"


class PreActions:
    """The pre-actions of one table's hand in play."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def choose(self, command: c.Preact) -> Preacted:
        """Set (``intent`` None: clear) the viewer's pre-action for the hand ``hand_id``,
        bound to the bet they face now; only its owner hears of it."""
        hand_id, intent, amount = command.hand_id, command.intent, command.amount
        player = self.core.player_for(command.viewer)
        current = self.core.state.hand_in_play(hand_id)
        if current.hand.is_complete:
            raise StaleAction("that hand is over", hand_id=current.id)
        seat = player.seat
        if intent is None:
            if current.preactions.pop(seat, None) is not None:
                self.core.touch()
                self._tell(current, seat, None, CLEARED)
            return self._ack(current, None)
        self._check_can_choose(current, seat)
        hand = current.hand
        try:
            chosen = PreAction.choose(intent, amount, hand.to_call(seat), hand.phase)
        except PreActionError as error:
            raise PreActionStale(str(error), to_call=error.to_call) from None
        current.preactions[seat] = chosen
        self.core.touch()
        self._tell(current, seat, chosen, CHOSEN)
        return self._ack(current, chosen)

    def _check_can_choose(self, current: HandInPlay, seat: int) -> None:
        hand = current.hand
        if not _still_betting(hand, seat):
            raise PreActionNotNow("you are not in this hand's betting (folded or all-in)")
        if hand.phase not in BETTING_PHASES:
            raise PreActionNotNow(f"expected a betting round, got the {hand.phase.value}")
        if hand.actor == seat:
            raise PreActionNotNow("it is your turn: act now")

    def _ack(self, current: HandInPlay, chosen: PreAction | None) -> Preacted:
        return Preacted(table_id=self.core.id, hand_id=current.id,
                        preaction=PreActionPublic(**chosen.public()) if chosen else None)

    def review(self) -> None:
        """After the hand changed: drop every pre-action that no longer holds (the bet
        to call changed, a new street, the seat folded or is all-in), telling its owner."""
        current = self.core.state.current
        if current is None or not current.preactions:
            return
        hand = current.hand
        for seat, chosen in list(current.preactions.items()):
            betting = hand.phase in BETTING_PHASES and _still_betting(hand, seat)
            if not (betting and chosen.holds(hand.to_call(seat), hand.phase)):
                self._cancel(current, seat)

    def _cancel(self, current: HandInPlay, seat: int) -> None:
        """Drop the pre-action of ``seat`` that no longer holds, telling its owner."""
        del current.preactions[seat]
        self.core.touch()
        self._tell(current, seat, None, CANCELLED)

    def take(self, seat: int) -> PreAction | None:
        """The pre-action of ``seat``, whose turn it is, if it still holds (used up, but
        for a "fold to any bet" that checks; its owner is told)."""
        current = self.core.state.current
        chosen = current.preactions.get(seat) if current is not None else None
        if current is None or chosen is None:
            return None
        hand = current.hand
        to_call = hand.to_call(seat)
        if not chosen.holds(to_call, hand.phase):
            self._cancel(current, seat)
            return None
        stays = chosen.stays(to_call)
        if not stays:
            del current.preactions[seat]
            self.core.touch()
        self._tell(current, seat, chosen if stays else None, APPLIED, used=chosen)
        return chosen

    def notice(self, current: HandInPlay, seat: int, chosen: PreAction | None,
               reason: str, used: PreAction | None = None) -> dict[str, Any]:
        """The ``table:preaction`` body telling the owner of ``seat`` where it stands."""
        return {"table_id": self.core.id, "hand_id": current.id, "seat": seat,
                "preaction": chosen.public() if chosen else None, "reason": reason,
                "applied": used.public() if used else None}

    def _tell(self, current: HandInPlay, seat: int, chosen: PreAction | None,
              reason: str, used: PreAction | None = None) -> None:
        owner = self.core.state.players[seat].user_id
        if owner is not None:
            self.core.out.to_user(owner, "table:preaction",
                                  self.notice(current, seat, chosen, reason, used))

    def resend(self, sid: str, user_id: int) -> None:
        """Tell one session of ``user_id`` (back after a reconnect, the events it missed
        replayed) the pre-action they hold, if any."""
        current = self.core.state.current
        player = self.core.state.player_of(user_id)
        if current is None or player is None or player.seat not in current.preactions:
            return
        chosen = current.preactions[player.seat]
        self.core.out.to_session(sid, "table:preaction",
                                 self.notice(current, player.seat, chosen, CHOSEN))


def _still_betting(hand: HandState, seat: int) -> bool:
    """Whether ``seat`` was dealt in and may still bet (has not folded, is not all-in)."""
    try:
        return hand.seat(seat).status is SeatStatus.ACTIVE
    except NotInHand:
        return False
