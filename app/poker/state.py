"""The plain data of one hand: phases, seat statuses, stakes and seats.

Everything here is a dataclass or an enum that converts to JSON-safe data and
back with nothing lost (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.poker.cards import FULL_DECK, JOKER, Card
from app.poker.errors import InvalidHandSetup

_TEXT = {c: str(c) for c in FULL_DECK}
_CARD = {text: c for c, text in _TEXT.items()}


def card_texts(cards: Iterable[Card]) -> list[str]:
    """Cards as their text (``["Ah", "Td"]``), for JSON."""
    return [_TEXT[c] for c in cards]


def cards_from(texts: Iterable[str]) -> list[Card]:
    """Inverse of :func:`card_texts` (any spelling :meth:`Card.parse` accepts)."""
    return [_CARD.get(t) or Card.parse(t) for t in texts]


class Phase(StrEnum):
    """Where a hand is. Betting happens in the four street phases; in ``RUN_IT_TWICE``
    the betting is over before the river and the contenders are asked whether to run
    the rest of the board twice."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    RUN_IT_TWICE = "run_it_twice"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


BETTING_PHASES = frozenset({Phase.PREFLOP, Phase.FLOP, Phase.TURN, Phase.RIVER})
NEXT_STREET = {Phase.PREFLOP: Phase.FLOP, Phase.FLOP: Phase.TURN, Phase.TURN: Phase.RIVER}
STREET_CARDS = {Phase.FLOP: 3, Phase.TURN: 1, Phase.RIVER: 1}
STREET_OF_BOARD = {0: Phase.PREFLOP, 3: Phase.FLOP, 4: Phase.TURN, 5: Phase.RIVER}


class Game(StrEnum):
    """The game a hand is dealt in: the betting structure and the hole cards.

    ``nlhe`` No-Limit, ``flhe`` Fixed-Limit and ``plhe`` Pot-Limit Texas Hold'em (two
    hole cards, the best five of seven); ``plo`` and ``plo5`` Pot-Limit Omaha with four
    or five hole cards, where a hand is exactly two hole cards and three board cards.

    >>> Game.PLO.hole_cards, Game.PLO.omaha, Game.FLHE.fixed_limit, Game.PLHE.pot_limit
    (4, True, True, True)
    """

    NLHE = "nlhe"
    FLHE = "flhe"
    PLHE = "plhe"
    PLO = "plo"
    PLO5 = "plo5"

    @property
    def label(self) -> str:
        """The game's name as players write it.

        >>> Game.PLO5.label
        '5-Card Pot-Limit Omaha'
        """
        return _TITLES[self]

    @property
    def short(self) -> str:
        """The game's short name in a table's title: ``NL``, ``FL``, ``PL``, ``PLO``, ``PLO5``."""
        return _SHORT[self]

    @property
    def hole_cards(self) -> int:
        """Hole cards dealt to each seat: 2, or 4 and 5 in Omaha."""
        return {Game.PLO: 4, Game.PLO5: 5}.get(self, 2)

    @property
    def max_seats(self) -> int:
        """The most seats one deck deals: every seat's hole cards, five board cards and
        three burns (eight seats in 5-card Omaha, else ten)."""
        return min(MAX_SEATS, (52 - 8) // self.hole_cards)

    @property
    def omaha(self) -> bool:
        """Whether a hand is exactly two hole cards and three board cards."""
        return self is Game.PLO or self is Game.PLO5

    @property
    def pot_limit(self) -> bool:
        """Whether a bet or raise is at most the pot after the call."""
        return self is Game.PLHE or self.omaha

    @property
    def fixed_limit(self) -> bool:
        """Whether bets and raises are of one fixed size, with a cap per street."""
        return self is Game.FLHE


_TITLES = {
    Game.NLHE: "No-Limit Hold'em", Game.FLHE: "Fixed-Limit Hold'em",
    Game.PLHE: "Pot-Limit Hold'em", Game.PLO: "Pot-Limit Omaha",
    Game.PLO5: "5-Card Pot-Limit Omaha",
}
_SHORT = {Game.NLHE: "NL", Game.FLHE: "FL", Game.PLHE: "PL", Game.PLO: "PLO", Game.PLO5: "PLO5"}


class SeatStatus(StrEnum):
    """A dealt-in seat's standing in the hand."""

    ACTIVE = "active"
    ALL_IN = "all_in"
    FOLDED = "folded"
    MUCKED = "mucked"

    @property
    def contending(self) -> bool:
        """Still has a claim on the pot (active or all-in)."""
        return self is SeatStatus.ACTIVE or self is SeatStatus.ALL_IN


@dataclass(frozen=True, slots=True)
class Stakes:
    """Blinds and antes of a table.

    ``ante`` is paid by every seat, or with ``big_blind_ante`` once by the big
    blind for the whole table (after the big blind itself, which has priority
    when the stack cannot cover both). The minimum bet is the big blind.
    ``straddle`` (0: none, else at least twice the big blind) is a third blind
    posted by the seat after the big blind when three or more are dealt in.

    >>> Stakes(50, 100, ante=10).to_dict()
    {'small_blind': 50, 'big_blind': 100, 'ante': 10, 'big_blind_ante': False, 'straddle': 0}
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False
    straddle: int = 0

    def __post_init__(self) -> None:
        if self.big_blind <= 0:
            raise InvalidHandSetup(f"expected a positive big blind, got {self.big_blind}")
        if not 0 <= self.small_blind <= self.big_blind:
            raise InvalidHandSetup(
                f"expected a small blind from 0 to {self.big_blind}, got {self.small_blind}"
            )
        if self.ante < 0:
            raise InvalidHandSetup(f"expected an ante of 0 or more, got {self.ante}")
        if self.straddle and self.straddle < 2 * self.big_blind:
            raise InvalidHandSetup(f"expected no straddle or one of at least "
                                   f"{2 * self.big_blind}, got {self.straddle}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "small_blind": self.small_blind, "big_blind": self.big_blind,
            "ante": self.ante, "big_blind_ante": self.big_blind_ante, "straddle": self.straddle,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stakes:
        """Inverse of :meth:`to_dict`."""
        return cls(data["small_blind"], data["big_blind"], data["ante"], data["big_blind_ante"],
                   data.get("straddle", 0))


@dataclass(slots=True)
class Seat:
    """One seat dealt into the hand.

    ``bet`` is what the seat has in front of it on this street;
    ``contributed`` is every live chip it has put in this hand (antes paid by
    each seat and all bets, including ``bet``); ``dead`` is dead money it paid
    for the table (a big-blind ante), which always goes to the main pot.
    ``acted_level`` is the bet level the seat last acted at, for the rule that
    an incomplete all-in raise does not reopen the betting.
    """

    number: int
    starting_stack: int
    stack: int
    bet: int = 0
    contributed: int = 0
    dead: int = 0
    cards: tuple[Card, ...] = ()
    status: SeatStatus = SeatStatus.ACTIVE
    shown: bool = False
    acted: bool = False
    acted_level: int = 0
    won: int = 0

    def put(self, amount: int) -> None:
        """Move ``amount`` from the stack to the bet; all-in when the stack is empty."""
        self.stack -= amount
        self.bet += amount
        self.contributed += amount
        if self.stack == 0:
            self.status = SeatStatus.ALL_IN

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (hole cards included: this is server-side state)."""
        return {
            "number": self.number, "starting_stack": self.starting_stack, "stack": self.stack,
            "bet": self.bet, "contributed": self.contributed, "dead": self.dead,
            "cards": card_texts(self.cards), "status": self.status.value,
            "shown": self.shown, "acted": self.acted, "acted_level": self.acted_level,
            "won": self.won,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """Inverse of :meth:`to_dict`."""
        return cls(
            number=data["number"], starting_stack=data["starting_stack"], stack=data["stack"],
            bet=data["bet"], contributed=data["contributed"], dead=data["dead"],
            cards=tuple(cards_from(data["cards"])), status=SeatStatus(data["status"]),
            shown=data["shown"], acted=data["acted"], acted_level=data["acted_level"],
            won=data["won"],
        )


MAX_SEATS = 10


def verify_setup(stacks: Mapping[int, int], button: int, cards: tuple[Card, ...],
                 hole_cards: int = 2) -> None:
    """Raise :class:`InvalidHandSetup` unless a hand can start with these seats and deck
    (``hole_cards`` dealt to each seat)."""
    if not 2 <= len(stacks) <= MAX_SEATS:
        raise InvalidHandSetup(f"expected 2 to {MAX_SEATS} seats dealt in, got {len(stacks)}")
    for number, stack in stacks.items():
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise InvalidHandSetup(f"expected seat numbers 0 or more, got {number!r}")
        if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
            raise InvalidHandSetup(f"expected a positive stack for seat {number}, got {stack!r}")
    if button not in stacks:
        raise InvalidHandSetup(
            f"expected the button on a seat dealt in, got seat {button}", button=button
        )
    needed = hole_cards * len(stacks) + 8
    if len(cards) < needed:
        raise InvalidHandSetup(f"expected a deck of at least {needed} cards, got {len(cards)}")
    distinct = set(cards)
    if len(distinct) != len(cards) or JOKER in distinct:
        raise InvalidHandSetup("expected a deck without jokers or repeated cards")
