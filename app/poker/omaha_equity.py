"""Equity of Omaha hands: how often each wins, ties, and its share of the pot.

Like :func:`app.poker.equity.equity` for hold'em, with every hand known (four or five
cards each, the same number for all): the rest of the board is enumerated exactly when
there are at most ``exact_threshold`` boards (from the flop on always: at most 990),
otherwise ``iterations`` boards are drawn with ``numpy.random.default_rng(seed)``. Each
board ranks every hand's 60 or 100 two-and-three hands at once
(:func:`app.poker.omaha.rank_omaha_on_boards`).

>>> r = omaha_equity(["AsAdKsKd", "JhTh9c8c"], board="Qs 7h 2c")
>>> r.exact, r.boards, [round(h.equity, 3) for h in r.hands]
(True, 820, [0.765, 0.235])
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt

from app.poker.cards import Card, DeckExhausted
from app.poker.equity import (
    BOARD_SIZES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANKED_HAND_WORK,
    CardsLike,
    EquityResult,
    InvalidBoard,
    InvalidHoleCards,
    InvalidPlayerCount,
    InvalidSampling,
    check_distinct,
    combination_ids,
    equity_result,
    natural_cards,
    tally_best,
)
from app.poker.omaha import rank_omaha_on_boards

OMAHA_HOLE_CARDS = (4, 5)
DEFAULT_ITERATIONS = 20_000
DEFAULT_EXACT_THRESHOLD = 50_000
_CHUNK = 1 << 13


def omaha_equity(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
) -> EquityResult:
    """Win, tie and equity of 2 to 9 known Omaha hands on ``board`` (0, 3, 4 or 5 cards).

    >>> omaha_equity(["AhAdKhKd", "2c3c4d5d"], board="Ac Kc 7s 7d 2h").equities
    (1.0, 0.0)
    """
    if iterations < 1 or seed < 0 or exact_threshold < 0:
        raise InvalidSampling(
            f"need iterations >= 1, seed >= 0 and exact_threshold >= 0, got {iterations}, "
            f"{seed} and {exact_threshold}", iterations=iterations, seed=seed,
            exact_threshold=exact_threshold)
    holes, known, unseen = _validate(hands, board, dead)
    to_deal = 5 - len(known)
    boards = comb(len(unseen), to_deal)
    known_ids = np.array([int(c) for c in known], dtype=np.int64)
    hole_ids = np.array([[int(c) for c in h] for h in holes], dtype=np.int64)
    counts = np.zeros((len(holes), len(holes) + 1), dtype=np.int64)
    if boards <= exact_threshold:
        rest = combination_ids(unseen, to_deal)
        for start in range(0, len(rest), _CHUNK):
            counts += _tally(_boards(known_ids, rest[start:start + _CHUNK]), hole_ids)
        return equity_result(holes, counts, boards, exact=True)
    rng = np.random.default_rng(seed)
    for start in range(0, iterations, _CHUNK):
        size = min(_CHUNK, iterations - start)
        picks = rng.random((size, len(unseen))).argpartition(to_deal, axis=1)[:, :to_deal]
        counts += _tally(_boards(known_ids, unseen[picks]), hole_ids)
    return equity_result(holes, counts, iterations, exact=False)


# An Omaha hand's ranking costs about this many hold'em hand rankings per two-card pair
# of its hole cards (each pair meets the board's ten triples; measured: 0.7 us a 4-card
# hand on a board, 44 ranked hold'em hands).
PAIR_WORK = 8


def omaha_equity_work(
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
) -> int:
    """The work :func:`omaha_equity` would do, in the unit of
    :func:`app.poker.equity.equity_work` (its input checked): boards x hands x the
    hands' two-card pairs x :data:`PAIR_WORK` x :data:`RANKED_HAND_WORK`.

    >>> omaha_equity_work(["AhAdKhKd", "2c3c4d5d"], board="Ac Kc 7s")
    787200
    """
    holes, known, unseen = _validate(hands, board, dead)
    boards = comb(len(unseen), 5 - len(known))
    counted = boards if boards <= exact_threshold else iterations
    return counted * len(holes) * comb(len(holes[0]), 2) * PAIR_WORK * RANKED_HAND_WORK


def _validate(hands: Sequence[CardsLike], board: CardsLike, dead: CardsLike
              ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...], npt.NDArray[np.int64]]:
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise InvalidPlayerCount(
            f"equity needs {MIN_PLAYERS} to {MAX_PLAYERS} hands, got {len(hands)}",
            count=len(hands))
    holes = [natural_cards(h) for h in hands]
    sizes = {len(h) for h in holes}
    if len(sizes) != 1 or not sizes <= set(OMAHA_HOLE_CARDS):
        raise InvalidHoleCards(f"expected Omaha hands of four or five cards, all alike, got "
                               f"{sorted(len(h) for h in holes)}", count=len(holes[0]))
    board_cards, dead_cards = natural_cards(board), natural_cards(dead)
    if len(board_cards) not in BOARD_SIZES:
        raise InvalidBoard(f"a board has 0, 3, 4 or 5 cards, got {len(board_cards)}",
                           count=len(board_cards))
    taken = [c for h in holes for c in h] + [*board_cards, *dead_cards]
    check_distinct(taken)
    unseen = np.array(sorted(set(range(52)) - {int(c) for c in taken}), dtype=np.int64)
    if 5 - len(board_cards) > len(unseen):
        raise DeckExhausted(f"{5 - len(board_cards)} cards to deal but only {len(unseen)} "
                            f"unseen", left=len(unseen))
    return holes, board_cards, unseen


def _boards(known: npt.NDArray[np.int64], rest: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Full boards: the known cards, then each row of ``rest``."""
    return np.concatenate([np.broadcast_to(known, (len(rest), len(known))), rest], axis=1)


def _tally(boards: npt.NDArray[np.int64], holes: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """counts[p, k]: boards on which hand p is one of exactly k best hands (k = 1: a win)."""
    return tally_best(rank_omaha_on_boards(boards, holes).T)
