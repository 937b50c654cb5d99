"""Cards and decks.

A :class:`Card` is an ``int`` from 0 to 51 (``rank_index * 4 + suit_index``),
or 52 for a joker, so the evaluator can use cards directly as table indices.
Every card is interned: ``Card.parse("Ah") is Card.parse("Ah")``.

>>> parse_cards("Ah 10d 2c")
(Card('Ah'), Card('Td'), Card('2c'))
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Sequence
from random import Random
from typing import ClassVar

from app.errors import HoldemError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKER_ID = 52
_TOKEN = re.compile(r"\s*(?:(10|[2-9tjqka])([cdhs])|(xx))", re.IGNORECASE)


class InvalidCard(HoldemError):
    """A card token that is not a card."""

    code = "invalid_card"


class DuplicateCard(HoldemError):
    """The same card twice where a deck has it once."""

    code = "duplicate_card"


class DeckExhausted(HoldemError):
    """More cards asked of a deck than it holds."""

    code = "deck_exhausted"


class Card(int):
    """One playing card (or a joker); an immutable, interned ``int``."""

    __slots__ = ()
    _interned: ClassVar[list[Card]] = []

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card with id ``card_id`` (0-51, 52 for the joker)."""
        if not 0 <= card_id <= JOKER_ID:
            raise InvalidCard(f"card id {card_id} is out of range 0..52", token=str(card_id))
        return cls._interned[card_id]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card: ``"Ah"``, ``"Td"``, ``"10d"``, ``"2c"``, or ``"Xx"`` (joker).

        >>> Card.parse("10d")
        Card('Td')
        """
        m = _TOKEN.fullmatch(token.strip()) if isinstance(token, str) else None
        if m is None:
            raise InvalidCard(
                f"{token!r} is not a card (expected e.g. 'Ah', 'Td', '2c')", token=str(token)
            )
        if m.group(3):
            return cls._interned[JOKER_ID]
        rank = "T" if m.group(1) == "10" else m.group(1).upper()
        return cls._interned[RANKS.index(rank) * 4 + SUITS.index(m.group(2).lower())]

    @property
    def is_joker(self) -> bool:
        """True for the joker ``Xx``."""
        return int(self) == JOKER_ID

    @property
    def rank(self) -> int:
        """Rank index 0 (deuce) to 12 (ace); -1 for the joker."""
        return -1 if self.is_joker else int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index 0-3 in the order c, d, h, s; -1 for the joker."""
        return -1 if self.is_joker else int(self) & 3

    @property
    def rank_char(self) -> str:
        """The rank letter, ``"A"``, ``"T"``, ``"2"``; ``"X"`` for the joker."""
        return "X" if self.is_joker else RANKS[self.rank]

    def __str__(self) -> str:
        return "Xx" if self.is_joker else RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (int(self),))


Card._interned = [int.__new__(Card, i) for i in range(JOKER_ID + 1)]
FULL_DECK: tuple[Card, ...] = tuple(Card._interned[:JOKER_ID])
JOKER = Card._interned[JOKER_ID]


def parse_cards(text: str | Iterable[str], *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Parse cards from ``"Ah Kd 7c"``, ``"AhKd7c"``, ``"Ah,Kd"`` or a list of tokens.

    Duplicate cards raise :class:`DuplicateCard` unless ``allow_duplicates``;
    jokers may always repeat.

    >>> parse_cards("AhKd7c")
    (Card('Ah'), Card('Kd'), Card('7c'))
    """
    cards = _parse_run(text) if isinstance(text, str) else tuple(Card.parse(t) for t in text)
    if not allow_duplicates:
        seen: set[int] = set()
        for card in cards:
            if card in seen and not card.is_joker:
                raise DuplicateCard(f"card {card} appears twice", token=str(card))
            seen.add(card)
    return cards


def _parse_run(text: str) -> tuple[Card, ...]:
    cards: list[Card] = []
    pos, stripped = 0, text.replace(",", " ").rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if m is None:
            bad = stripped[pos:].split()[0][:3] if stripped[pos:].split() else stripped[pos:]
            raise InvalidCard(f"{bad!r} is not a card (expected e.g. 'Ah', 'Td', '2c')", token=bad)
        cards.append(Card.parse(m.group(0)))
        pos = m.end()
    return tuple(cards)


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Cards as text, ``"AhKd"`` (or with ``sep`` between them)."""
    return sep.join(str(c) for c in cards)


class Deck:
    """Cards dealt from the top; shuffled with ``secrets.SystemRandom`` by default.

    Pass ``cards`` to stack the deck (dealt in the order given), or ``rng`` to
    shuffle with a seeded generator in tests.
    """

    def __init__(self, cards: Sequence[Card] | None = None, *, rng: Random | None = None) -> None:
        if cards is not None:
            self._cards = list(cards)
        else:
            self._cards = list(FULL_DECK)
            (rng or secrets.SystemRandom()).shuffle(self._cards)

    @classmethod
    def stacked(cls, cards: str | Sequence[Card]) -> Deck:
        """A deck that deals exactly ``cards`` in order."""
        return cls(parse_cards(cards) if isinstance(cards, str) else cards)

    def deal(self, n: int = 1) -> tuple[Card, ...]:
        """Take ``n`` cards from the top."""
        if n > len(self._cards):
            left = len(self._cards)
            raise DeckExhausted(f"asked for {n} cards, {left} left", left=left)
        dealt, self._cards = self._cards[:n], self._cards[n:]
        return tuple(dealt)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards still in the deck, top first."""
        return tuple(self._cards)

    def __len__(self) -> int:
        return len(self._cards)
