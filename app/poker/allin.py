"""All-in equity: once every hand left in a hand is face up before the river, each
player's exact chance of the pot, on each street of the run-out. Every card not face up
is unknown: on the second board of a hand run twice, the first board's own cards are
face up, so they are out of its deck. Omaha hands are counted by
:func:`app.poker.omaha_equity.omaha_equity`: exactly from the flop on, and before the
flop (a million boards heads-up) from 20,000 boards drawn with a fixed seed, so that
every viewer and every replay sees the same numbers.

>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
...                      deck=Deck.stacked("Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c"))
>>> _ = hand.all_in(0)
>>> events = hand.all_in(1)
>>> [(i, r.street, [round(s.equity, 3) for s in r.seats]) for i, r in runout_equities(hand, events)]
[(2, 'preflop', [0.813, 0.187]), (3, 'flop', [0.916, 0.084]), (4, 'turn', [0.955, 0.045])]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.poker.cards import Card
from app.poker.engine import Hand
from app.poker.equity import EquityResult, equity
from app.poker.events import BoardDealt, Event, HandShown, RunItTwiceChosen
from app.poker.omaha_equity import omaha_equity
from app.poker.state import SeatStatus

_STREETS = {0: "preflop", 3: "flop", 4: "turn"}


@dataclass(frozen=True, slots=True)
class SeatEquity:
    """One face-up hand's exact chances from here: win alone, tie, share of the pot."""

    seat: int
    win: float
    tie: float
    equity: float


@dataclass(frozen=True, slots=True)
class RunoutEquity:
    """The chances of every face-up hand with ``board`` dealt (``street`` names it)."""

    street: str
    board: tuple[Card, ...]
    seats: tuple[SeatEquity, ...]
    run: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The ``all_in_equity`` table event (``run`` 1: the second board of a hand run
        twice)."""
        return {"type": "all_in_equity", "street": self.street, "run": self.run,
                "board": [str(c) for c in self.board],
                "seats": [{"seat": s.seat, "win": s.win, "tie": s.tie, "equity": s.equity}
                          for s in self.seats]}


def runout_equities(hand: Hand, events: Sequence[Event]) -> list[tuple[int, RunoutEquity]]:
    """For the ``events`` of one step of ``hand``: the all-in equities to announce, each
    with the index of the event it follows (the last hand turned up, then the flop and
    the turn). Empty unless that step turned every remaining hand up before the river, or
    answered the run-it-twice question (then the streets of each board run)."""
    shown = [i for i, e in enumerate(events) if isinstance(e, HandShown)]
    deals = [(i, e) for i, e in enumerate(events) if isinstance(e, BoardDealt)]
    answered = any(isinstance(e, RunItTwiceChosen) for e in events)
    if not (shown or answered) or (shown and deals and shown[-1] > deals[0][0]):
        return []
    live = [s for s in hand.seats if s.status is not SeatStatus.FOLDED]
    if len(live) < 2 or not all(s.shown for s in live):
        return []
    dealt = sum(len(e.cards) for _, e in deals if e.run == 0)
    shared = 5 - len(hand.second_board)
    boards = [list(hand.board[: len(hand.board) - dealt]), list(hand.board[:shared])]
    points: list[tuple[int, int, tuple[Card, ...], tuple[Card, ...]]] = []
    if shown:
        points.append((shown[-1], 0, tuple(boards[0]), ()))
    for i, e in deals:
        boards[e.run] += e.cards
        # The other board's own cards dealt so far are face up: out of the deck for this one.
        points.append((i, e.run, tuple(boards[e.run]), tuple(boards[1 - e.run][shared:])))
    return [(i, _chances(live, cards, face_up, run, omaha=hand.game.omaha))
            for i, run, cards, face_up in points if len(cards) < 5]


def _chances(live: Sequence[Any], board: tuple[Card, ...], face_up: tuple[Card, ...],
             run: int, *, omaha: bool = False) -> RunoutEquity:
    """Exact chances on ``board``, every card not face up (hands, ``board`` and the other
    board's ``face_up`` cards) counted as unknown."""
    count = omaha_equity if omaha else equity
    result: EquityResult = count([s.cards for s in live], board=board, dead=face_up)
    seats = tuple(SeatEquity(s.number, h.win, h.tie, h.equity)
                  for s, h in zip(live, result.hands, strict=True))
    return RunoutEquity(_STREETS[len(board)], board, seats, run)
