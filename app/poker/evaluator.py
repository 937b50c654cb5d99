"""Hand evaluation: the best five of 5, 6 or 7 cards.

This module's public API is the contract the engine, equity and bots rely on:
``evaluate``, ``rank``, ``rank_batch``, ``winners``, ``HandValue``, ``Category``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

import numpy as np
import numpy.typing as npt

from app.errors import HoldemError
from app.poker.cards import Card


class InvalidHand(HoldemError):
    """A hand with too few or too many cards to evaluate."""

    code = "invalid_hand"


class Category(IntEnum):
    """Hand categories, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The name players use: ``"two pair"``, ``"straight flush"``."""
        return self.name.lower().replace("_", " ")


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a hand: ``rank`` orders hands (higher wins, equal splits)."""

    rank: int
    category: Category
    best: tuple[Card, ...]

    @property
    def name(self) -> str:
        """The category label, with ``"royal flush"`` for the ace-high straight flush."""
        if self.category is Category.STRAIGHT_FLUSH and self.best[0].rank == 12:
            return "royal flush"
        return self.category.label


def _five_key(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """Reference: an orderable key for five natural cards and the reading order."""
    counts = Counter(c.rank for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    ranks = sorted(counts, reverse=True)
    flush = len({c.suit for c in cards}) == 1
    straight_high = -1
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3
    shape = [n for _, n in groups]
    if straight_high >= 0:
        cat = Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT
        tiebreak = [straight_high]
    elif flush:
        cat, tiebreak = Category.FLUSH, ranks
    else:
        cat = {
            (4, 1): Category.FOUR_OF_A_KIND, (3, 2): Category.FULL_HOUSE,
            (3, 1, 1): Category.THREE_OF_A_KIND, (2, 2, 1): Category.TWO_PAIR,
            (2, 1, 1, 1): Category.ONE_PAIR,
        }.get(tuple(shape), Category.HIGH_CARD)
        tiebreak = [r for r, _ in groups]
    key = int(cat)
    for r in tiebreak + [0] * (5 - len(tiebreak)):
        key = key * 16 + r
    order = {r: i for i, (r, _) in enumerate(groups)}
    if straight_high == 3:
        best = tuple(sorted(cards, key=lambda c: (c.rank + 1) % 13, reverse=True))
    else:
        best = tuple(sorted(cards, key=lambda c: (order[c.rank], -c.rank, -c.suit)))
    return key, best


def evaluate(cards: Sequence[Card], *, wild_ranks: Collection[int] = ()) -> HandValue:
    """The best five-card hand of 5 to 7 cards; jokers and ``wild_ranks`` are wild.

    >>> from app.poker.cards import parse_cards
    >>> evaluate(parse_cards("Ah Kh Qh Jh Th 2c 3d")).name
    'royal flush'
    """
    if not 5 <= len(cards) <= 7:
        raise InvalidHand(f"expected 5 to 7 cards, got {len(cards)}", count=len(cards))
    wild = [c for c in cards if c.is_joker or c.rank in wild_ranks]
    if wild:
        return _evaluate_wild(cards, len(wild))
    key, best = max(_five_key(five) for five in combinations(cards, 5))
    return HandValue(key, Category(key >> 20), best)


def _evaluate_wild(cards: Sequence[Card], n_wild: int) -> HandValue:
    raise InvalidHand("wild cards are not supported yet", count=n_wild)


def rank(cards: Sequence[Card]) -> int:
    """Only the rank of 5 to 7 natural cards (higher wins): the fast path."""
    return evaluate(cards).rank


def rank_batch(ids: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Ranks of many hands at once: ``ids`` is an (N, 5..7) array of card ids."""
    return np.array([rank([Card.from_id(int(i)) for i in row]) for row in ids], dtype=np.int64)


def winners(hands: Sequence[Sequence[Card]], board: Sequence[Card] = ()) -> list[int]:
    """Indices of the winning hands against a shared board (several on a tie)."""
    ranks = [rank([*hand, *board]) for hand in hands]
    best = max(ranks)
    return [i for i, r in enumerate(ranks) if r == best]
