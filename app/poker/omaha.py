"""Omaha hands: exactly two hole cards and three board cards.

An Omaha hand is the best of every two of its hole cards (four in PLO, five in
five-card PLO: 6 or 10 pairs) with every three of the board (10 triples on a full
board): 60 or 100 five-card hands, ranked by the same table lookups as hold'em
(:mod:`app.poker.hand_tables`), so an Omaha rank and a hold'em rank are on one scale
(1 = 7-5-4-3-2 offsuit ... 7,462 = royal flush; higher wins).

The key of a five-card hand is the sum of its cards' keys, so the keys of the pairs
and of the triples are summed once each and every hand costs one addition and two
lookups. A flush needs all five cards in one suit, and then its rank depends only on
the five ranks: the OR of the pair's and the triple's rank bits.

>>> from app.poker.cards import parse_cards
>>> board = parse_cards("Ah Kh Qh 7c 2d")
>>> evaluate_omaha(parse_cards("Jh 3s 4d 5c"), board).name  # one heart is not a flush
'high card'
>>> evaluate_omaha(parse_cards("Jh Th 4d 5c"), board).name
'royal flush'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from app.poker import hand_tables as tables
from app.poker.cards import Card
from app.poker.evaluator import HandValue, InvalidHand, evaluate, rank

MIN_HOLE, MAX_HOLE = 2, 6
_FLUSH_TEST = tables.FLUSH_TEST
_HI_SHIFT, _INDEX_MASK, _LO_MASK = tables.HI_SHIFT, tables.INDEX_MASK, tables.LO_MASK
_HI_BASE = tables.HI_BASE.tolist()
_LO_INDEX = tables.LO_INDEX.tolist()
_RANKS = tables.MULTISET_RANKS.tolist()
_FLUSH_RANKS = tables.FLUSH_RANKS.tolist()


_RANK_KEY = tuple(tables.RANK_WEIGHT[c >> 2] for c in range(52))  # a card's rank, as a key
_PAIRS = {n: tuple(combinations(range(n), 2)) for n in range(MIN_HOLE, MAX_HOLE + 1)}
_TRIPLES = {n: tuple(combinations(range(n), 3)) for n in range(3, 6)}


def rank_omaha(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The rank of the best hand of exactly two of ``hole`` and three of ``board``.

    ``hole`` holds 2 to 6 cards, ``board`` 3 to 5; cards are trusted to be distinct
    (:func:`evaluate_omaha` checks). Ranks compare with :func:`app.poker.evaluator.rank`.

    >>> from app.poker.cards import parse_cards
    >>> rank_omaha(parse_cards("As Ks 2c 2d"), parse_cards("Qs Js Ts 3h 4h"))
    7462
    """
    n, m = len(hole), len(board)
    if not MIN_HOLE <= n <= MAX_HOLE or not 3 <= m <= 5:
        _check_sizes(n, m)
    key = _RANK_KEY
    hk = [key[c] for c in hole]
    bk = [key[c] for c in board]
    # Without a flush only the ranks count: equal pairs or triples of ranks rank alike.
    pairs = {hk[a] + hk[b] for a, b in _PAIRS[n]}
    triples = {bk[a] + bk[b] + bk[c] for a, b, c in _TRIPLES[m]}
    hi, lo, ranks = _HI_BASE, _LO_INDEX, _RANKS
    best: int = max([ranks[hi[(p + t) >> _HI_SHIFT & _INDEX_MASK] + lo[(p + t) & _LO_MASK]]
                     for p in pairs for t in triples])
    for suit in range(4):
        suited = [c for c in board if c & 3 == suit]
        if len(suited) >= 3:
            mine = [c for c in hole if c & 3 == suit]
            if len(mine) >= 2:
                best = max(best, _best_flush(mine, suited))
    return best


def _best_flush(hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The best flush (or straight flush) of two of ``hole`` and three of ``board``, all
    of one suit: looked up by the five ranks."""
    bits = [1 << (c >> 2) for c in hole], [1 << (c >> 2) for c in board]
    best: int = max(_FLUSH_RANKS[a | b | c | d | e] for a, b in combinations(bits[0], 2)
                    for c, d, e in combinations(bits[1], 3))
    return best


def _check_sizes(holes: int, board: int) -> None:
    if not MIN_HOLE <= holes <= MAX_HOLE or not 3 <= board <= 5:
        raise InvalidHand(f"expected {MIN_HOLE} to {MAX_HOLE} hole cards and 3 to 5 board "
                          f"cards, got {holes} and {board}", count=holes + board)


def evaluate_omaha(hole: Sequence[Card], board: Sequence[Card]) -> HandValue:
    """The best Omaha hand, with the five cards it uses (two hole cards, three board cards).

    >>> from app.poker.cards import parse_cards
    >>> value = evaluate_omaha(parse_cards("Ad Ac Kd 2s"), parse_cards("Ah As 9c 8c 7c"))
    >>> value.name, " ".join(map(str, value.best))
    ('four of a kind', 'As Ah Ad Ac 9c')
    """
    _check_sizes(len(hole), len(board))
    cards = [*hole, *board]
    if len(set(cards)) != len(cards) or any(c.is_joker for c in cards):
        raise InvalidHand("expected distinct natural cards in an Omaha hand",
                          count=len(cards))
    five = max(([*pair, *triple] for pair in combinations(hole, 2)
                for triple in combinations(board, 3)), key=rank)
    return evaluate(five)


def hand_rank(hole: Sequence[Card], board: Sequence[Card], *, omaha: bool) -> int:
    """A hand's rank at the showdown: Omaha's two-and-three, or hold'em's best five of all."""
    return rank_omaha(hole, board) if omaha else rank([*hole, *board])


# ---------------------------------------------------------------- batch path


@cache
def _index_pairs(n: int, k: int) -> npt.NDArray[np.intp]:
    return np.array(list(combinations(range(n), k)), dtype=np.intp).reshape(-1, k)


def _key_parts(ids: npt.NDArray[np.int64], k: int
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Key sums and rank bits of every ``k`` of each row of ``ids``: two (rows, C(n, k))."""
    groups = ids[:, _index_pairs(ids.shape[1], k)]
    keys = np.take(tables.BATCH_KEYS, groups).sum(axis=2)
    bits = (np.int64(1) << (groups >> 2)).sum(axis=2)
    return keys, bits


def _best(total: npt.NDArray[np.int64], bits: npt.NDArray[np.int64], axes: tuple[int, ...]
          ) -> npt.NDArray[np.int64]:
    """The highest rank over ``axes`` of five-card hands given by key sums and rank bits."""
    index = np.take(tables.HI_BASE, (total >> _HI_SHIFT) & _INDEX_MASK, mode="clip")
    index += np.take(tables.LO_INDEX, total & _LO_MASK, mode="clip")
    ranks = np.take(tables.MULTISET_RANKS, index, mode="clip")
    flush = (total & _FLUSH_TEST) != 0
    if flush.any():
        ranks[flush] = np.take(tables.FLUSH_RANKS, bits[flush])
    best: npt.NDArray[np.int64] = ranks.max(axis=axes).astype(np.int64)
    return best


def _ids(array: npt.ArrayLike, what: str) -> npt.NDArray[np.int64]:
    ids = np.asarray(array, dtype=np.int64)
    if ids.ndim != 2 or (ids.size and (ids.min() < 0 or ids.max() > 51)):
        raise InvalidHand(f"expected a 2-D array of card ids 0 to 51 for {what}, got shape "
                          f"{ids.shape}", count=0)
    return ids


def rank_omaha_batch(holes: npt.ArrayLike, boards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Omaha ranks of many hands at once: ``holes`` (N, 2..6) and ``boards`` (N, 3..5)
    card ids, row by row; the same ranks as :func:`rank_omaha`.

    >>> rank_omaha_batch([[51, 47, 0, 1]], [[43, 39, 35, 6, 10]]).tolist()
    [7462]
    """
    hole_ids, board_ids = _ids(holes, "holes"), _ids(boards, "boards")
    _check_sizes(hole_ids.shape[1], board_ids.shape[1])
    if len(hole_ids) != len(board_ids):
        raise InvalidHand(f"expected as many holes as boards, got {len(hole_ids)} and "
                          f"{len(board_ids)}", count=0)
    pair_keys, pair_bits = _key_parts(hole_ids, 2)
    triple_keys, triple_bits = _key_parts(board_ids, 3)
    total = pair_keys[:, :, None] + triple_keys[:, None, :]
    bits = pair_bits[:, :, None] | triple_bits[:, None, :]
    return _best(total, bits, (1, 2))


_CHUNK = 1 << 10  # boards per step: boards x triples x hands x pairs stays in cache


def rank_omaha_on_boards(boards: npt.ArrayLike, holes: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Omaha ranks of every hand on every board: a (boards, hands) array.

    ``boards`` is (B, 5) card ids and ``holes`` (H, 2..6); the key sums of each board's
    triples and each hand's pairs are worked out once. Boards are trusted not to share
    a card with a hand (equity deals them from the unseen cards).
    """
    board_ids, hole_ids = _ids(boards, "boards"), _ids(holes, "holes")
    _check_sizes(hole_ids.shape[1], board_ids.shape[1])
    pair_keys, pair_bits = _key_parts(hole_ids, 2)
    out = np.empty((len(board_ids), len(hole_ids)), np.int64)
    for start in range(0, len(board_ids), _CHUNK):
        part = slice(start, start + _CHUNK)
        triple_keys, triple_bits = _key_parts(board_ids[part], 3)
        total = triple_keys[:, :, None, None] + pair_keys[None, None, :, :]
        bits = triple_bits[:, :, None, None] | pair_bits[None, None, :, :]
        out[part] = _best(total, bits, (1, 3))
    return out
