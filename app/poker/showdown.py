"""The showdown: who shows in what order, who may muck, and who wins each pot.

These functions move a :class:`app.poker.hand.HandState` through its showdown
and settle its pots; the engine calls them, the realtime layer does not.

Order: the last aggressor of the last betting street shows first, otherwise
the first contending seat left of the button; then clockwise. All-in hands
and hands that can still win are turned up automatically; a seat whose hand
is already beaten decides (``Hand.show`` / ``Hand.muck``). Pots are fixed when
the betting ends: a muck gives up the claim but never re-forms the pots, so
no odd chip moves because someone mucked.
"""

from __future__ import annotations

from app.poker.cards import Card
from app.poker.evaluator import ROYAL_FLUSH_RANK, category_of
from app.poker.events import Event, HandEnded, HandMucked, HandShown, PotAwarded
from app.poker.hand import HandState
from app.poker.omaha import hand_rank
from app.poker.pots import Pot, build_pots, split_between_runs, split_pot
from app.poker.rake import split_rake
from app.poker.state import Phase, SeatStatus


def order(hand: HandState) -> list[int]:
    """Positions of the contending seats in showdown order."""
    seats = hand.seats
    n = len(seats)
    first = hand.aggressor
    if first is None or not seats[first].status.contending:
        first = 0
    return [p for p in ((first + k) % n for k in range(n)) if seats[p].status.contending]


def begin(hand: HandState, events: list[Event]) -> None:
    """Enter the showdown with the board complete and at least two contenders."""
    hand.phase = Phase.SHOWDOWN
    hand.to_act = [p for p in order(hand) if not hand.seats[p].shown]
    advance(hand, events)


def show_all(hand: HandState, events: list[Event]) -> None:
    """Turn up every contending hand (betting is over and someone is all-in)."""
    for p in order(hand):
        if not hand.seats[p].shown:
            events.append(show(hand, p))


def show(hand: HandState, p: int) -> HandShown:
    """Turn up the hand at position ``p``."""
    seat = hand.seats[p]
    seat.shown = True
    return HandShown(seat.number, seat.cards)


def muck(hand: HandState, p: int) -> HandMucked:
    """Muck the hand at position ``p``: it gives up every pot."""
    seat = hand.seats[p]
    seat.status = SeatStatus.MUCKED
    return HandMucked(seat.number)


def advance(hand: HandState, events: list[Event]) -> None:
    """Show hands automatically until a seat must decide, or settle when none is left."""
    pots = _final_pots(hand)
    ranks: dict[int, int] = {}
    while hand.to_act:
        p = hand.to_act[0]
        if hand.seats[p].status is SeatStatus.ALL_IN or _can_win(hand, p, pots, ranks):
            events.append(show(hand, p))
            hand.to_act.pop(0)
        else:
            return
    settle(hand, events, pots, ranks)


def settle(
    hand: HandState,
    events: list[Event],
    pots: list[Pot] | None = None,
    ranks: dict[int, int] | None = None,
) -> None:
    """Award every pot and complete the hand (``pots`` and ``ranks`` if already known)."""
    ranks = {} if ranks is None else ranks
    boards = hand.boards()
    pots = _final_pots(hand) if pots is None else pots
    raked = take_rake(hand, pots)
    for k, (pot, rake) in enumerate(zip(pots, raked, strict=True)):
        left = pot.amount - rake
        if len(boards) == 1:
            events.append(_award(hand, k, left, pot, ranks, hand.board, rake=rake))
            continue
        for run, (amount, board) in enumerate(zip(split_between_runs(left), boards,
                                                  strict=True)):
            events.append(_award(hand, k, amount, pot, ranks if run == 0 else {}, board,
                                 run=run, rake=rake if run == 0 else 0))
    hand.phase = Phase.COMPLETE
    hand.to_act = []
    events.append(HandEnded(tuple(s.number for s in hand.seats),
                            tuple(s.stack for s in hand.seats), rake=sum(raked)))


def take_rake(hand: HandState, pots: list[Pot]) -> list[int]:
    """What each pot pays the house before it is awarded (all 0 at a table without rake):
    see :mod:`app.poker.rake`. The flop counts as seen once the board has three cards (a
    hand all in before the flop, whose board is run out, pays rake)."""
    amounts = [pot.amount for pot in pots]
    if hand.rake is None:
        return [0] * len(pots)
    rake = hand.rake.amount(sum(amounts), players=len(hand.seats), flop=len(hand.board) >= 3)
    return split_rake(rake, amounts)


def _award(hand: HandState, k: int, amount: int, pot: Pot, ranks: dict[int, int],
           board: list[Card], *, run: int = 0, rake: int = 0) -> PotAwarded:
    """Give ``amount`` of pot ``k`` (what is left of it after ``rake``) to its best hands
    on ``board``."""
    claim = [p for p in pot.eligible if hand.seats[p].status is not SeatStatus.MUCKED]
    name = None
    if len(claim) > 1:
        best = max(_rank(hand, p, ranks, board) for p in claim)
        claim = [p for p in claim if ranks[p] == best]
        name = "royal flush" if best == ROYAL_FLUSH_RANK else category_of(best).label
    shares = split_pot(amount, claim)
    for p, share in zip(claim, shares, strict=True):
        hand.seats[p].stack += share
        hand.seats[p].won += share
    numbers = tuple(hand.seats[p].number for p in claim)
    return PotAwarded(k, amount, numbers, tuple(shares), name, run, rake)


def _final_pots(hand: HandState) -> list[Pot]:
    seats = hand.seats
    live = [s.status is not SeatStatus.FOLDED for s in seats]
    return build_pots([s.contributed for s in seats], live, sum(s.dead for s in seats))


def _rank(hand: HandState, p: int, ranks: dict[int, int], board: list[Card] | None = None) -> int:
    if p not in ranks:
        ranks[p] = hand_rank(hand.seats[p].cards, hand.board if board is None else board,
                             omaha=hand.game.omaha)
    return ranks[p]


def _can_win(hand: HandState, p: int, pots: list[Pot], ranks: dict[int, int]) -> bool:
    """Whether the hand ties or beats every shown hand in one of its pots."""
    mine = _rank(hand, p, ranks)
    for pot in pots:
        if p in pot.eligible:
            shown = [_rank(hand, q, ranks) for q in pot.eligible if hand.seats[q].shown]
            if not shown or mine >= max(shown):
                return True
    return False
