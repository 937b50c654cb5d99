"""What a hand-history export is written from: a finished hand, its setting, and its reader.

The PokerStars text (:mod:`app.poker.pokerstars`) and Open Hand History JSON
(:mod:`app.poker.ohh`) writers read the engine's frozen event records of a
finished :class:`~app.poker.engine.Hand` (the records the PHH history is written
from) through an :class:`ExportView`, which decides which hole cards the reader may
see: their own, and those turned face up at the showdown; every card when the
reader is ``None`` (the server's record, as admins read it).

Positions are indexes into ``hand.seats``: 0 is the first seat left of the button,
the button is last. Both writers name players and seats through :class:`HandFacts`.

>>> from app.poker.cards import parse_cards
>>> describe(parse_cards("Ah Ad"), parse_cards("Kc 7d 2s 9h 3c"))
'a pair of Aces'
>>> describe(parse_cards("Ts Js"), parse_cards("Qs Ks As 2d 3c"))
'a Royal Flush'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from app.errors import HoldemError
from app.poker.cards import Card
from app.poker.engine import Hand
from app.poker.evaluator import Category, evaluate
from app.poker.events import BoardDealt, Event, HandShown, PotAwarded, RunItTwiceOffered
from app.poker.omaha import evaluate_omaha
from app.poker.state import Stakes


class UnsupportedGame(HoldemError):
    """The hand is of a game this export format cannot write yet."""

    code = "export_unsupported_game"
    status = 422


@dataclass(frozen=True, slots=True)
class TournamentFacts:
    """The tournament a hand was dealt in: ``number`` as written, buy-in and fee, the
    level (counted from 1) its blinds belong to, and the reader's place and prize once
    known (None while the tournament runs, and for a reader who is not in it)."""

    number: int
    name: str
    buy_in: int
    fee: int
    level: int | None = None
    starting_stack: int | None = None
    sit_and_go: bool = False
    place: int | None = None
    prize: int | None = None


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Where and when a hand was dealt: its number as written, the table, the start time
    (UTC), each position's player name and table seat (counted from 1), and the table's
    stakes when the hand's own say less (a bomb pot posts no blinds)."""

    number: int
    table_name: str
    table_size: int
    started_at: datetime
    names: tuple[str, ...]
    seats: tuple[int, ...]
    tournament: TournamentFacts | None = None
    stakes: Stakes | None = None


@dataclass(frozen=True, slots=True)
class ExportView:
    """A finished hand as one reader may see it (``viewer``: their position, None: all)."""

    hand: Hand
    facts: HandFacts
    viewer: int | None

    def __post_init__(self) -> None:
        if not self.hand.is_complete:
            raise ValueError("expected a finished hand")
        n = len(self.hand.seats)
        if len(self.facts.names) != n or len(self.facts.seats) != n:
            raise ValueError(f"expected {n} names and seats, got {len(self.facts.names)} "
                             f"and {len(self.facts.seats)}")

    def position(self, seat_number: int) -> int:
        """The position of the engine seat ``seat_number`` (the number events carry)."""
        return next(i for i, s in enumerate(self.hand.seats) if s.number == seat_number)

    def name(self, seat_number: int) -> str:
        """The player name of the engine seat ``seat_number``."""
        return self.facts.names[self.position(seat_number)]

    def shown(self) -> set[int]:
        """Positions whose hole cards were turned face up."""
        return {self.position(e.seat) for e in self.hand.history if isinstance(e, HandShown)}

    def cards_of(self, position: int) -> tuple[Card, ...] | None:
        """The hole cards at ``position`` if the reader saw them, else None."""
        if self.viewer is None or position == self.viewer or position in self.shown():
            return tuple(self.hand.seats[position].cards)
        return None

    def require(self, games: Collection[str], writer: str) -> None:
        """Raise :class:`UnsupportedGame` unless the hand's game is one of ``games``."""
        game = self.hand.game.value
        if game not in games:
            raise UnsupportedGame(f"{writer} writes {', '.join(sorted(games))} hands, not "
                                  f"{game!r} yet", game=game)

    @property
    def button_seat(self) -> int:
        """The table seat (from 1) of the button."""
        return self.facts.seats[-1]

    @property
    def stakes(self) -> Stakes:
        """The table's stakes: the blinds the header names."""
        return self.facts.stakes or self.hand.stakes

    @property
    def run_twice(self) -> bool:
        """Whether the hand was run twice."""
        return self.hand.runs == 2


def hand_number(hand_id: str) -> int:
    """The hand (or tournament) number written for a 32-hex-digit id: its first 60 bits,
    so it fits the signed 64-bit numbers trackers keep.

    >>> hand_number("0000000000000ff0" + "0" * 16)
    255
    """
    return int(hand_id[:15], 16)


def street_boards(view: ExportView) -> list[tuple[str, BoardDealt]]:
    """Each street dealt, in order, named ``""`` (one board), ``"FIRST"`` or ``"SECOND"``
    (the streets dealt after a hand was agreed to be run twice)."""
    out: list[tuple[str, BoardDealt]] = []
    split = False
    for e in view.hand.history:
        if isinstance(e, RunItTwiceOffered) and view.run_twice:
            split = True
        elif isinstance(e, BoardDealt):
            out.append(("SECOND" if e.run else "FIRST" if split else "", e))
    return out


def awards(hand: Hand) -> list[PotAwarded]:
    """Every pot award of the hand, in the order the pots were settled."""
    return [e for e in hand.history if isinstance(e, PotAwarded)]


def pot_totals(hand: Hand) -> dict[int, int]:
    """Each pot number (0: the main pot) and its size, both boards together."""
    totals: dict[int, int] = {}
    for e in awards(hand):
        totals[e.pot] = totals.get(e.pot, 0) + e.amount
    return totals


def rake_of(hand: Hand) -> int:
    """What the house took from the hand's pots (0 at a table without rake)."""
    return sum(e.rake for e in awards(hand))


def events_of(hand: Hand, kind: type[Event]) -> list[Event]:
    """The hand's events of one kind, in order."""
    return [e for e in hand.history if isinstance(e, kind)]


# ---- hand descriptions ------------------------------------------------------------

_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
          "Queen", "King", "Ace")


def _plural(rank: int) -> str:
    return "Sixes" if rank == 4 else _NAMES[rank] + "s"


def describe(hole: Sequence[Card], board: Sequence[Card], *, omaha: bool = False) -> str:
    """The made hand in the words PokerStars writes (``"two pair, Aces and Fives"``); in
    Omaha (``omaha``), of exactly two hole cards and three board cards.

    >>> from app.poker.cards import parse_cards
    >>> describe(parse_cards("Ah Qs Jd Tc"), parse_cards("2h 5h 9h Kh 3c"), omaha=True)
    'high card Ace'
    """
    value = evaluate_omaha(hole, board) if omaha else evaluate([*hole, *board])
    ranks = [c.rank for c in value.best]
    top = ranks[0]
    match value.category:
        case Category.HIGH_CARD:
            return f"high card {_NAMES[top]}"
        case Category.ONE_PAIR:
            return f"a pair of {_plural(top)}"
        case Category.TWO_PAIR:
            return f"two pair, {_plural(top)} and {_plural(ranks[2])}"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {_plural(top)}"
        case Category.STRAIGHT:
            return f"a straight, {_NAMES[ranks[-1]]} to {_NAMES[top]}"
        case Category.FLUSH:
            return f"a flush, {_NAMES[top]} high"
        case Category.FULL_HOUSE:
            return f"a full house, {_plural(top)} full of {_plural(ranks[3])}"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_plural(top)}"
        case _ if value.name == "royal flush":
            return "a Royal Flush"
        case _:
            return f"a straight flush, {_NAMES[ranks[-1]]} to {_NAMES[top]}"


# ---- time ----------------------------------------------------------------------------


def _nth_sunday(year: int, month: int, n: int) -> datetime:
    first = datetime(year, month, 1)
    return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (n - 1))


def eastern(moment: datetime) -> datetime:
    """``moment`` (UTC) as US Eastern wall time, the clock PokerStars writes in brackets:
    daylight time from the second Sunday of March, 2:00, to the first Sunday of
    November, 2:00 (the rule since 2007).

    >>> eastern(datetime(2026, 7, 1, 12, tzinfo=UTC)).hour
    8
    >>> eastern(datetime(2026, 12, 1, 12, tzinfo=UTC)).hour
    7
    """
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    standard = utc - timedelta(hours=5)
    starts = _nth_sunday(standard.year, 3, 2) + timedelta(hours=2)
    ends = _nth_sunday(standard.year, 11, 1) + timedelta(hours=1)
    return standard + timedelta(hours=1) if starts <= standard < ends else standard

