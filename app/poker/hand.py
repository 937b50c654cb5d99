"""One hand's data, and what it looks like: the state the engine and its rules share.

:class:`HandState` is what :class:`app.poker.engine.Hand` plays and what the
betting (:mod:`app.poker.betting`), running it twice (:mod:`app.poker.runs`) and
the showdown (:mod:`app.poker.showdown`) work on, so those modules need not import
the engine that calls them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.poker.cards import Card
from app.poker.errors import NotInHand
from app.poker.events import Event
from app.poker.rake import RakeRule
from app.poker.state import Game, Phase, Seat, Stakes


@dataclass(slots=True)
class HandState:
    """The data of one hand (:class:`app.poker.engine.Hand` plays it) of any :class:`Game`.

    ``seats`` are the seats dealt in, clockwise from the first seat left of
    the button (the button is last). ``to_act`` holds positions in ``seats``:
    in a betting round the seats still to act, at the showdown the seats still
    to show or muck; the first is the actor. ``level`` is the bet to match on
    this street and ``min_raise`` the last full bet or raise. ``street_bets`` counts
    the bets and raises of this street (the big blind is the first before the flop) and
    ``capped`` says a Fixed-Limit street has reached its cap (:mod:`app.poker.limits`).
    """

    stakes: Stakes
    button: int
    seats: list[Seat]
    deck: list[Card]
    phase: Phase = Phase.PREFLOP
    board: list[Card] = field(default_factory=list)
    burned: list[Card] = field(default_factory=list)
    level: int = 0
    min_raise: int = 0
    to_act: list[int] = field(default_factory=list)
    aggressor: int | None = None
    history: list[Event] = field(default_factory=list)
    # The history as data, extended as the history grows (it is only ever appended to),
    # so saving the hand after each action does not rebuild every event.
    _history_data: list[dict[str, Any]] = field(default_factory=list, repr=False,
                                                compare=False)
    bomb_pot: int = 0
    # Running it twice: whether the table offers it, the seats still to answer the
    # question, how many boards were run, and the second board's own cards.
    run_it_twice: bool = False
    asked: list[int] = field(default_factory=list)
    runs: int = 1
    second_board: list[Card] = field(default_factory=list)
    game: Game = Game.NLHE
    street_bets: int = 0
    capped: bool = False
    # The table's rake (None: none), taken from the pots when they are awarded.
    rake: RakeRule | None = None

    # ---- what the hand looks like -----------------------------------------

    @property
    def small_blind_position(self) -> int:
        """Position in ``seats`` of the small blind (the button heads-up)."""
        return 1 if len(self.seats) == 2 else 0

    @property
    def big_blind_position(self) -> int:
        """Position in ``seats`` of the big blind."""
        return 0 if len(self.seats) == 2 else 1

    @property
    def actor(self) -> int | None:
        """Seat number of the seat whose turn it is (to bet, or to show or muck)."""
        return self.seats[self.to_act[0]].number if self.to_act else None

    @property
    def is_complete(self) -> bool:
        """True once every pot has been awarded."""
        return self.phase is Phase.COMPLETE

    def boards(self) -> list[list[Card]]:
        """The board, or both boards of a hand run twice (each with the shared cards)."""
        if self.runs == 1:
            return [list(self.board)]
        shared = 5 - len(self.second_board)
        return [list(self.board), self.board[:shared] + self.second_board]

    def seat(self, number: int) -> Seat:
        """The seat with this seat number, or :class:`NotInHand`."""
        return self.seats[self._position(number)]

    def stacks(self) -> dict[int, int]:
        """Seat number to the stack behind (chips not yet in the pot)."""
        return {s.number: s.stack for s in self.seats}

    def _position(self, number: int) -> int:
        for i, s in enumerate(self.seats):
            if s.number == number:
                return i
        raise NotInHand(f"expected a seat dealt into this hand, got seat {number}", seat=number)
