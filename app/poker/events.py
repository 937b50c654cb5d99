"""Event records: what happened in a hand, one frozen record per fact.

Every engine transition returns the records it produced. They are what the
realtime layer broadcasts (through :func:`app.poker.view.view_event`, which
hides private cards) and what the hand history (PHH) is written from.

>>> e = PlayerActed(seat=3, action=ActionKind.RAISE, amount=300, total=300, all_in=False)
>>> event_from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from app.poker.cards import Card
from app.poker.state import Phase, card_texts, cards_from


class ActionKind(StrEnum):
    """What a player can do: betting actions, then showdown choices."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    SHOW = "show"
    MUCK = "muck"


class BlindKind(StrEnum):
    """Which forced bet a blind is."""

    SMALL = "small"
    BIG = "big"
    STRADDLE = "straddle"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event record; ``type`` names it in JSON."""

    type: ClassVar[str] = "event"

    @property
    def private_to(self) -> int | None:
        """The only seat allowed to see this record in full, or None if public."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The full record as JSON-safe data (private cards included)."""
        out: dict[str, Any] = {"type": self.type}
        for name, encode in _encoders(self.type):
            value = getattr(self, name)
            out[name] = value if encode is None or value is None else encode(value)
        return out


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """A seat posted an ante; ``dead`` for a big-blind ante paid for the table."""

    type: ClassVar[str] = "ante_posted"
    seat: int
    amount: int
    all_in: bool
    dead: bool = False


@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    """A seat posted the small or big blind (all-in for less when short) or the straddle."""

    type: ClassVar[str] = "blind_posted"
    seat: int
    blind: BlindKind
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(Event):
    """Private: a seat's hole cards. Others only learn that two cards were dealt."""

    type: ClassVar[str] = "hole_cards_dealt"
    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class PlayerActed(Event):
    """A betting action: ``amount`` chips went in now, ``total`` is the seat's street bet."""

    type: ClassVar[str] = "player_acted"
    seat: int
    action: ActionKind
    amount: int = 0
    total: int = 0
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """A card was burned and the flop, turn or river dealt face up.

    ``run`` is 0 for the board, 1 for the second board of a hand run twice.
    """

    type: ClassVar[str] = "board_dealt"
    street: Phase
    cards: tuple[Card, ...]
    run: int = 0


@dataclass(frozen=True, slots=True)
class RunItTwiceOffered(Event):
    """Betting is over before the river: ``seats`` are asked whether to run it twice."""

    type: ClassVar[str] = "run_it_twice_offered"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RunItTwiceChosen(Event):
    """A seat answered the question: ``agree`` to run it twice, or not (run it once)."""

    type: ClassVar[str] = "run_it_twice_chosen"
    seat: int
    agree: bool


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    """The part of a bet nobody called went back to the bettor."""

    type: ClassVar[str] = "uncalled_bet_returned"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A seat's hole cards were turned face up for everyone."""

    type: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A seat gave up its claim at the showdown without showing."""

    type: ClassVar[str] = "hand_mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """Pot number ``pot`` (0 is the main pot) went to ``seats`` in ``amounts``.

    When the hand is run twice each pot is awarded once per board: ``run`` 0 and 1, each
    with its half of the pot (``amount``). ``rake`` is what the house took from the pot
    before it was awarded (on run 0's record: a pot is raked once).
    """

    type: ClassVar[str] = "pot_awarded"
    pot: int
    amount: int
    seats: tuple[int, ...]
    amounts: tuple[int, ...]
    hand: str | None = None
    run: int = 0
    rake: int = 0


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is complete: final stacks of every seat dealt in, and the rake the house
    took from the pots (0 at a table without rake)."""

    type: ClassVar[str] = "hand_ended"
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    rake: int = 0


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        AntePosted, BlindPosted, HoleCardsDealt, PlayerActed, BoardDealt,
        RunItTwiceOffered, RunItTwiceChosen, UncalledBetReturned, HandShown, HandMucked,
        PotAwarded, HandEnded,
    )
}

_DECODERS: dict[str, Any] = {
    "cards": lambda v: tuple(cards_from(v)),
    "seats": tuple,
    "amounts": tuple,
    "stacks": tuple,
    "street": Phase,
    "action": ActionKind,
    "blind": BlindKind,
}


_ENCODERS: dict[str, Callable[[Any], Any]] = {
    "cards": card_texts,
    "seats": list,
    "amounts": list,
    "stacks": list,
    "street": str,
    "action": str,
    "blind": str,
}


@cache
def _encoders(event_type: str) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each field of an event type with how to make it JSON-safe (None: as it is)."""
    return tuple((f.name, _ENCODERS.get(f.name)) for f in fields(EVENT_TYPES[event_type]))


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.to_dict` output."""
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        known = ", ".join(sorted(EVENT_TYPES))
        raise ValueError(f"expected an event type ({known}), got {data.get('type')!r}")
    kwargs = {}
    for f in fields(cls):
        if f.name in data:
            value = data[f.name]
            decode = _DECODERS.get(f.name)
            kwargs[f.name] = decode(value) if decode is not None and value is not None else value
    return cls(**kwargs)
