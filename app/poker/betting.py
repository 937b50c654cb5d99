"""Betting rules and the flow from street to street.

Functions over a :class:`app.poker.hand.HandState` (positions ``i`` index
``hand.seats``): what the actor owes, whether it may raise and by how much,
who still has to act, and what happens when a betting round closes (uncalled
bet back, next street, run-out, showdown or an uncontested pot).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.poker import limits, runs, showdown
from app.poker.events import (
    ActionKind,
    AntePosted,
    BlindKind,
    BlindPosted,
    Event,
    HoleCardsDealt,
    UncalledBetReturned,
)
from app.poker.hand import HandState
from app.poker.pots import uncalled_bet
from app.poker.runs import deal_street
from app.poker.state import BETTING_PHASES, Phase, SeatStatus

# In a betting round no seat has mucked yet: a seat contends unless it folded.
_ACTIVE = SeatStatus.ACTIVE
_ALL_IN = SeatStatus.ALL_IN
_FOLDED = SeatStatus.FOLDED


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One thing the actor may do now.

    ``call``: ``amount`` is the chips it adds. ``bet``/``raise``: ``min`` and
    ``max`` are "raise to" totals for the street. ``all_in``: ``amount`` is the
    seat's street total after pushing its whole stack.
    """

    action: ActionKind
    amount: int | None = None
    min: int | None = None
    max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data, without the fields that do not apply."""
        out: dict[str, Any] = {"action": self.action.value}
        for key in ("amount", "min", "max"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def post_forced_bets(hand: HandState, events: list[Event]) -> None:
    """Antes, then the small and big blind (all-in for less when short).

    A big-blind ante is paid after the big blind itself, so a short big blind
    covers its blind first; it is dead money for the main pot.
    """
    st = hand.stakes
    limits.start_street(hand, big_blind_posted=not hand.bomb_pot)
    if hand.bomb_pot:
        _post_antes(hand, hand.bomb_pot, events)
        hand.level, hand.min_raise = 0, st.big_blind
        return
    if st.ante and not st.big_blind_ante:
        _post_antes(hand, st.ante, events)
    for pos, kind, amount in (
        (hand.small_blind_position, BlindKind.SMALL, st.small_blind),
        (hand.big_blind_position, BlindKind.BIG, st.big_blind),
    ):
        s = hand.seats[pos]
        if amount and s.stack:
            posted = min(amount, s.stack)
            s.put(posted)
            events.append(BlindPosted(s.number, kind, posted, s.stack == 0))
    straddler = straddle_position(hand)
    if straddler is not None:
        hand.seats[straddler].put(st.straddle)
        events.append(BlindPosted(hand.seats[straddler].number, BlindKind.STRADDLE,
                                  st.straddle, False))
    s = hand.seats[hand.big_blind_position]
    if st.ante and st.big_blind_ante and s.stack:
        amount = min(st.ante, s.stack)
        s.stack -= amount
        s.dead += amount
        if s.stack == 0:
            s.status = _ALL_IN
        events.append(AntePosted(s.number, amount, s.stack == 0, dead=True))
    hand.level = hand.min_raise = st.straddle if straddler is not None else st.big_blind


def _post_antes(hand: HandState, ante: int, events: list[Event]) -> None:
    for s in hand.seats:
        amount = min(ante, s.stack)
        s.stack -= amount
        s.contributed += amount
        if s.stack == 0:
            s.status = _ALL_IN
        events.append(AntePosted(s.number, amount, s.stack == 0))


def straddle_position(hand: HandState) -> int | None:
    """Position of the seat that straddles this hand, if any: the seat after the big
    blind, when three or more are dealt in and it can post the straddle and still have
    chips behind (a seat that cannot simply does not straddle)."""
    straddle = hand.stakes.straddle
    if not straddle or len(hand.seats) < 3:
        return None
    position = hand.big_blind_position + 1
    seat = hand.seats[position]
    return position if seat.status is _ACTIVE and seat.stack > straddle else None


def deal_hole_cards(hand: HandState, events: list[Event]) -> None:
    """The game's hole cards (two, four or five each), one at a time from the left of the
    button, round after round; then preflop turns.

    The first to act preflop is the seat after the big blind (heads-up: the
    button, which posted the small blind), or after the straddle, which then
    acts last.
    """
    n, k = len(hand.seats), hand.game.hole_cards
    dealt, hand.deck = hand.deck[: k * n], hand.deck[k * n :]
    for i, s in enumerate(hand.seats):
        s.cards = tuple(dealt[i::n])
        events.append(HoleCardsDealt(s.number, s.cards))
    if hand.bomb_pot:
        hand.to_act = []  # a bomb pot goes straight to the flop
        return
    straddled = any(isinstance(e, BlindPosted) and e.blind is BlindKind.STRADDLE
                    for e in events)
    first = hand.big_blind_position + 1 + straddled
    order = ((first + k) % n for k in range(n))
    hand.to_act = [p for p in order if hand.seats[p].status is _ACTIVE]


def call_amount(hand: HandState, i: int) -> int:
    """Chips seat ``i`` adds to call (0: it can check); all-in for less when short.

    Preflop the bet to match is at least the full big blind, even when the big
    blind is all-in for less; but nobody is asked for more than another
    contender could still match.
    """
    s = hand.seats[i]
    target = hand.level
    if target > s.bet:
        cap = 0
        for j, o in enumerate(hand.seats):
            if j != i and o.status is not _FOLDED:
                cap = max(cap, o.bet + o.stack)
        target = min(target, cap)
    return max(0, min(target - s.bet, s.stack))


def raise_closed(hand: HandState, i: int) -> str | None:
    """Why seat ``i`` may not bet or raise now, or None if it may.

    A seat that already acted on this street may raise again only if the bet
    it faces has grown by a full raise since it acted (an all-in for less than
    a full raise does not reopen the betting; in Fixed-Limit half a bet is enough,
    and a capped street takes no more raises: :mod:`app.poker.limits`).
    """
    s = hand.seats[i]
    if s.bet + s.stack <= hand.level:
        return "the stack does not cover more than a call"
    if not any(
        o.status is _ACTIVE and o.bet + o.stack > hand.level
        for j, o in enumerate(hand.seats)
        if j != i
    ):
        return "every other player is all-in or cannot match more"
    if s.acted and not limits.reopens(hand, hand.level - s.acted_level):
        return "an all-in for less than a full raise did not reopen the betting"
    return limits.cap_reason(hand)


def raise_bounds(hand: HandState, i: int) -> tuple[int, int]:
    """Smallest and largest "raise to" totals for seat ``i`` (all-in caps both; the pot
    or the fixed bet limits them in other games than No-Limit)."""
    return limits.bounds(hand, i)


def needs_to_act(hand: HandState, i: int) -> bool:
    """Whether seat ``i`` has a decision: another seat can still bet, or it faces a bet."""
    s = hand.seats[i]
    if s.status is not _ACTIVE:
        return False
    facing = 0
    for j, o in enumerate(hand.seats):
        if j != i and o.status is not _FOLDED:
            if o.status is _ACTIVE:
                return True
            facing = max(facing, o.bet)
    return facing > s.bet


def legal_actions(hand: HandState) -> tuple[LegalAction, ...]:
    """Everything the actor may do now; empty when the hand is complete."""
    if hand.phase is Phase.SHOWDOWN:
        return (LegalAction(ActionKind.SHOW), LegalAction(ActionKind.MUCK))
    if not hand.to_act:
        return ()
    i = hand.to_act[0]
    s = hand.seats[i]
    owed = call_amount(hand, i)
    out = [LegalAction(ActionKind.FOLD)]
    out.append(LegalAction(ActionKind.CALL, owed) if owed else LegalAction(ActionKind.CHECK))
    if raise_closed(hand, i) is None:
        low, high = raise_bounds(hand, i)
        kind = ActionKind.BET if hand.level == 0 else ActionKind.RAISE
        out.append(LegalAction(kind, min=low, max=high))
        if s.bet + s.stack <= high:
            out.append(LegalAction(ActionKind.ALL_IN, s.bet + s.stack))
    elif owed == s.stack:
        out.append(LegalAction(ActionKind.ALL_IN, s.bet + s.stack))
    return tuple(out)


def advance(hand: HandState, events: list[Event]) -> None:
    """Skip seats with no decision; close betting rounds until someone must act."""
    while hand.phase in BETTING_PHASES:
        if sum(1 for s in hand.seats if s.status is not _FOLDED) > 1:
            while hand.to_act and not needs_to_act(hand, hand.to_act[0]):
                hand.to_act.pop(0)
            if hand.to_act:
                return
        end_betting(hand, events)


def end_betting(hand: HandState, events: list[Event]) -> None:
    """Close the street: return an uncalled bet, then go on to what comes next."""
    returned = uncalled_bet([s.bet for s in hand.seats])
    if returned is not None:
        s = hand.seats[returned[0]]
        amount = returned[1]
        s.stack += amount
        s.bet -= amount
        s.contributed -= amount
        if s.status is _ALL_IN:
            s.status = _ACTIVE
        events.append(UncalledBetReturned(s.number, amount))
    for s in hand.seats:
        s.bet = 0
    hand.to_act = []
    if sum(1 for s in hand.seats if s.status is not _FOLDED) == 1:
        showdown.settle(hand, events)
    elif hand.phase is Phase.RIVER:
        showdown.begin(hand, events)
    elif sum(1 for s in hand.seats if s.status is _ACTIVE) >= 2:
        deal_street(hand, events)
        hand.level, hand.min_raise, hand.aggressor = 0, limits.street_bet(hand), None
        limits.start_street(hand, big_blind_posted=False)
        for s in hand.seats:
            s.acted = False
        hand.to_act = [i for i, s in enumerate(hand.seats) if s.status is _ACTIVE]
    else:
        # At most one seat can still bet: table every hand and run the board out
        # (twice, if the table offers it and every contender agrees).
        showdown.show_all(hand, events)
        if not runs.offer(hand, events):
            runs.run_out(hand, events, runs=1)
