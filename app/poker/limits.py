"""Betting limits: how much a bet or raise may be in each game, and when a street is capped.

Functions over a :class:`app.poker.hand.HandState` (positions ``i`` index ``hand.seats``);
:mod:`app.poker.betting` and the engine ask them. The rules, by game
(:class:`app.poker.state.Game`):

- **No-Limit** (``nlhe``): the smallest bet is the big blind, the smallest raise the
  last full bet or raise of the street, the largest the whole stack.
- **Pot-Limit** (``plhe``, ``plo``, ``plo5``): the smallest bet and raise as in
  No-Limit; the largest raise makes the seat's bet the bet to match, plus the pot after
  the call: every chip already in the pot or in front of a player (blinds, a straddle,
  antes, a big-blind ante and other dead money all count, as Robert's Rules and the TDA
  count them), plus the call itself. Blinds of 1 and 2: the first raise is to at most 7.
  The all-in limits both; a stack bigger than the pot cannot be pushed at once.
- **Fixed-Limit** (``flhe``): the small bet (the big blind) before the flop and on the
  flop, the big bet (twice the big blind) on the turn and river. Every bet or raise is
  exactly one bet above the bet to match (``min == max``), or all-in for less. A street
  allows one bet and three raises; before the flop the big blind is the bet, so three
  raises. The cap does not apply heads-up: when the fourth bet is made with at most
  two players left who are not all-in, the raising goes on; a street capped stays
  capped when a fold later leaves two (Robert's Rules of Poker, section 3).
- **An all-in for less**: in No-Limit and Pot-Limit an all-in raise smaller than a full
  raise does not reopen the betting for a seat that already acted (several in a row
  count together). In Fixed-Limit an all-in raise of at least half a bet counts as a
  full raise and reopens the betting; less than half does not (TDA rule "Re-Opening
  the Bet", Robert's Rules section 3). The next raise is then one bet above the all-in
  (the engine does not offer to "complete" a short bet to the full one).

pokerkit 0.7 differs in four of these, each a rule difference the tests show on a hand
(``tests/poker/test_engine_games_differential.py``): it caps a limit street at four bets
or raises even heads-up; it does not count the big blind as the first bet (four raises
before the flop); it reopens the betting after a limit all-in only when it is a full
raise; and in every game it lets a short all-in raise before the flop, when nobody has
raised yet, reopen the betting (it measures that raise against no raise at all, where
the rule books measure it against the big blind).
"""

from __future__ import annotations

from app.poker.hand import HandState
from app.poker.state import Phase, SeatStatus

CAP = 4  # one bet and three raises
_BIG_STREETS = frozenset({Phase.TURN, Phase.RIVER})


def street_bet(hand: HandState) -> int:
    """The size of a bet on this street: the big blind, or in Fixed-Limit the big bet
    (twice the big blind) on the turn and river."""
    big_blind = hand.stakes.big_blind
    if hand.game.fixed_limit and hand.phase in _BIG_STREETS:
        return 2 * big_blind
    return big_blind


def reopens(hand: HandState, increment: int) -> bool:
    """Whether a raise of ``increment`` over the bet to match is a full raise: it reopens
    the betting for the seats that already acted."""
    if hand.game.fixed_limit:
        return 2 * increment >= street_bet(hand)
    return increment >= hand.min_raise


def pot_after_call(hand: HandState, i: int) -> int:
    """Every chip in the pot and in front of the players, plus seat ``i``'s call."""
    in_pot = sum(s.contributed + s.dead for s in hand.seats)
    return in_pot + max(0, hand.level - hand.seats[i].bet)


def bounds(hand: HandState, i: int) -> tuple[int, int]:
    """Smallest and largest "raise to" totals for seat ``i`` in this game (all-in caps both).

    >>> from app.poker.cards import Deck
    >>> from app.poker.engine import Hand
    >>> from app.poker.state import Game, Stakes
    >>> hand, _ = Hand.start({0: 500, 1: 500, 2: 500}, button=2, stakes=Stakes(1, 2),
    ...                      deck=Deck(), game=Game.PLO)
    >>> bounds(hand, 2)
    (4, 7)
    """
    s = hand.seats[i]
    all_in = s.bet + s.stack
    if hand.game.fixed_limit:
        fixed = min(hand.level + street_bet(hand), all_in)
        return fixed, fixed
    low = min(hand.level + hand.min_raise, all_in)
    if hand.game.pot_limit:
        high = max(hand.level + hand.min_raise, hand.level + pot_after_call(hand, i))
        return low, min(high, all_in)
    return low, all_in


def limit_name(hand: HandState) -> str:
    """What the largest raise is, for error messages: "all-in", "the pot" or "the fixed bet"."""
    if hand.game.fixed_limit:
        return "the fixed bet"
    return "the pot" if hand.game.pot_limit else "all-in"


def cap_reason(hand: HandState) -> str | None:
    """Why no more bets or raises are allowed on this street (Fixed-Limit's cap), or None."""
    if hand.capped:
        return "the betting is capped at one bet and three raises"
    return None


def count_wager(hand: HandState) -> None:
    """Count a bet or raise about to be made; in Fixed-Limit, cap the street when it is the
    fourth with three or more players not all-in (counted before the wager)."""
    hand.street_bets += 1
    if hand.game.fixed_limit and hand.street_bets >= CAP:
        active = sum(1 for s in hand.seats if s.status is SeatStatus.ACTIVE)
        hand.capped = hand.capped or active >= 3


def start_street(hand: HandState, *, big_blind_posted: bool) -> None:
    """Reset the street's count of bets (the big blind is the first before the flop)."""
    hand.street_bets = 1 if big_blind_posted else 0
    hand.capped = False
