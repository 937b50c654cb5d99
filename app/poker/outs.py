"""Outs: the unseen cards that turn a hand into the winner, and the odds of hitting one.

Against known opponents an out is a card that, dealt next, makes the hand beat
every opponent. With no opponents it is a card that lifts the hand to a better
category than it has now and than the board alone would make (pairing the
board is not an out). Unseen cards are everything except the hand, the board,
the opponents' known cards and the dead cards.

>>> o = outs("9h8d", "7c 6s 2d", opponents=["AsAc"])  # open-ended straight draw
>>> o.count, o.unseen, o.odds
(8, 45, '4.6 : 1')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from app.poker.cards import FULL_DECK, Card
from app.poker.equity import (
    CardsLike,
    InvalidBoard,
    InvalidHoleCards,
    check_distinct,
    hole_cards,
    natural_cards,
)
from app.poker.evaluator import Category, evaluate, rank_batch

OUTS_BOARD_SIZES = (3, 4)


@dataclass(frozen=True, slots=True)
class Outs:
    """The outs of ``hand`` on ``board`` and the chance to hit one.

    ``next_card`` is the chance the next card is an out; ``by_river`` (flop
    only, else ``None``) the chance at least one of the next two cards is.
    ``odds`` are the odds against hitting on the next card as ``"x : 1"``
    (``None`` with no outs). ``splits`` are cards that tie the best opponent.
    """

    hand: tuple[Card, Card]
    board: tuple[Card, ...]
    category: str
    cards: tuple[Card, ...]
    splits: tuple[Card, ...]
    unseen: int
    next_card: float
    by_river: float | None

    @property
    def count(self) -> int:
        """How many outs."""
        return len(self.cards)

    @property
    def odds(self) -> str | None:
        """Odds against hitting on the next card, ``"4.2 : 1"``."""
        return odds_against(self.next_card)

    @property
    def odds_by_river(self) -> str | None:
        """Odds against hitting by the river (flop only)."""
        return None if self.by_river is None else odds_against(self.by_river)


def odds_against(chance: float) -> str | None:
    """A chance as odds against it, ``"x : 1"``; ``None`` when it cannot happen.

    >>> odds_against(0.2)
    '4.0 : 1'
    """
    if chance <= 0.0:
        return None
    return f"{(1.0 - chance) / chance:.1f} : 1"


def outs(
    hand: CardsLike,
    board: CardsLike,
    opponents: Sequence[CardsLike] = (),
    dead: CardsLike = (),
) -> Outs:
    """The unseen cards that make ``hand`` win (or improve its category with no opponents).

    ``board`` is a flop (3 cards) or a turn (4 cards).

    >>> o = outs("6h5h", "Kh 7h 2c", opponents=["QcQd"])  # flush draw
    >>> o.count, f"{o.next_card:.1%}", f"{o.by_river:.1%}"
    (9, '20.0%', '36.4%')
    """
    hole, board_cards, rivals, unseen = _validate(hand, board, opponents, dead)
    if rivals:
        cards, splits = _beating(hole, board_cards, rivals, unseen)
    else:
        cards, splits = _improving(hole, board_cards, unseen), ()
    left = len(unseen)
    by_river = None
    if len(board_cards) == 3:
        by_river = 1.0 - comb(left - len(cards), 2) / comb(left, 2)
    return Outs(hole, board_cards, evaluate([*hole, *board_cards]).name, cards, splits,
                left, len(cards) / left, by_river)


def _validate(
    hand: CardsLike, board: CardsLike, opponents: Sequence[CardsLike], dead: CardsLike
) -> tuple[tuple[Card, Card], tuple[Card, ...], list[tuple[Card, Card]], tuple[Card, ...]]:
    """Parsed hand, board, opponents and the unseen cards, or a typed error."""
    known = [hole_cards(h) for h in [hand, *opponents]]
    holes = [h for h in known if h is not None]
    if len(holes) != len(known):
        raise InvalidHoleCards("outs need known hands, not '??'", count=0)
    board_cards, dead_cards = natural_cards(board), natural_cards(dead)
    if len(board_cards) not in OUTS_BOARD_SIZES:
        raise InvalidBoard(f"outs need a flop or a turn (3 or 4 cards), got "
                           f"{len(board_cards)}", count=len(board_cards))
    used = [c for h in holes for c in h] + [*board_cards, *dead_cards]
    check_distinct(used)
    unseen = tuple(c for c in FULL_DECK if c not in set(used))
    return holes[0], board_cards, holes[1:], unseen


def _beating(
    hole: tuple[Card, Card], board: tuple[Card, ...], rivals: list[tuple[Card, Card]],
    unseen: tuple[Card, ...],
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(cards after which the hand beats every rival, cards after which it ties the best)."""
    hands = [hole, *rivals]
    ids = np.array([[*h, *board, c] for h in hands for c in unseen], dtype=np.uint8)
    ranks = np.asarray(rank_batch(ids)).reshape(len(hands), len(unseen))
    mine, best_rival = ranks[0], ranks[1:].max(axis=0)
    wins = tuple(c for c, w in zip(unseen, mine > best_rival, strict=True) if w)
    ties = tuple(c for c, t in zip(unseen, mine == best_rival, strict=True) if t)
    return wins, ties


def _improving(hole: tuple[Card, Card], board: tuple[Card, ...], unseen: tuple[Card, ...]
               ) -> tuple[Card, ...]:
    """Cards that lift the hand's category above both its own now and the board's alone."""
    now = evaluate([*hole, *board]).category
    return tuple(
        card for card in unseen
        if (after := evaluate([*hole, *board, card]).category) > now
        and after > _board_category([*board, card])
    )


def _board_category(cards: Sequence[Card]) -> Category:
    """The category the board cards make by themselves (four cards: pairs and sets only)."""
    if len(cards) >= 5:
        return evaluate(cards).category
    shape = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    if shape[0] == 4:
        return Category.FOUR_OF_A_KIND
    if shape[0] == 3:
        return Category.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR
    return Category.ONE_PAIR if shape[0] == 2 else Category.HIGH_CARD
