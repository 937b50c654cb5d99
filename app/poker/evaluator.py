"""Hand evaluation: the best five of 5, 6 or 7 cards.

This module's public API is the contract the engine, equity and bots rely on:
``evaluate``, ``rank``, ``rank_batch``, ``winners``, ``HandValue``, ``Category``,
``category_of`` and ``category_batch``.

Ranks are dense: 1 (7-5-4-3-2 offsuit) to 7,462 (royal flush) for natural
hands, then 7,463 to 7,475 for five of a kind (wild cards only). Higher wins,
equal ranks split. Lookups are table-driven (see :mod:`app.poker.hand_tables`):
a hand's rank comes from the sum of one key per card, never from a loop over
its five-card subsets.
"""

from __future__ import annotations

import os
from array import array
from bisect import bisect_right
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from app.errors import HoldemError
from app.poker import hand_tables as tables
from app.poker.cards import JOKER_ID, Card


class InvalidHand(HoldemError):
    """A hand that cannot be evaluated: wrong size, repeated or wild cards where not allowed."""

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


ROYAL_FLUSH_RANK = tables.ROYAL_FLUSH
MAX_RANK = tables.N_RANKS


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a hand: ``rank`` orders hands (higher wins, equal splits).

    ``best`` holds the five cards used, ordered as a player reads them: the
    biggest group first (the trips of a full house, the higher pair of two
    pair), then kickers high to low; a straight from its top card, the wheel as
    5-4-3-2-A. A wild card (a joker, or a card of a wild rank) appears as
    itself, in the place of the card it stands for: ``Ah As Xx Kd Qc`` is three
    aces with king-queen.
    """

    rank: int
    category: Category
    best: tuple[Card, ...]

    @property
    def name(self) -> str:
        """The category label, with ``"royal flush"`` for the ace-high straight flush."""
        if self.rank == ROYAL_FLUSH_RANK:
            return "royal flush"
        return self.category.label


def category_of(rank_value: int) -> Category:
    """The category of a rank from :func:`rank`, :func:`rank_batch` or :func:`evaluate`.

    >>> from app.poker.cards import parse_cards
    >>> category_of(rank(parse_cards("Ah Ad Kc Ks 2h"))).label
    'two pair'
    """
    if not 1 <= rank_value <= MAX_RANK:
        raise ValueError(f"rank must be in 1..{MAX_RANK}, got {rank_value}")
    return Category(bisect_right(tables.CATEGORY_START, rank_value) - 1)


_CATEGORY_START = np.array(tables.CATEGORY_START, np.int64)


def category_batch(ranks: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """The category (as ``Category`` values) of each rank in an array of ranks."""
    return (np.searchsorted(_CATEGORY_START, ranks, side="right") - 1).astype(np.int8)


# ---------------------------------------------------------------- scalar path

_KEY = tables.CARD_KEYS
_card_key = _KEY.__getitem__
_suit_rank_bits = tuple(bits.__getitem__ for bits in tables.SUIT_RANK_BITS)
_FLUSH_TEST = tables.FLUSH_TEST
_HI_SHIFT, _INDEX_MASK, _LO_MASK = tables.HI_SHIFT, tables.INDEX_MASK, tables.LO_MASK
# Compact arrays rather than lists or a dict: the three lookups stay in cache.
_HI_BASE = array("I", tables.HI_BASE.astype(np.uint32).tobytes())
_LO_INDEX = array("H", tables.LO_INDEX.astype(np.uint16).tobytes())
_RANKS = array("H", tables.MULTISET_RANKS.astype(np.uint16).tobytes())
_FLUSH_RANK = array("H", tables.FLUSH_RANKS.astype(np.uint16).tobytes())


def rank(cards: Sequence[Card]) -> int:
    """The rank of 5 to 7 natural cards (higher wins): the fast path.

    Cards are trusted to be distinct (:func:`evaluate` checks); a joker or a
    wrong number of cards raises :class:`InvalidHand`.

    >>> from app.poker.cards import parse_cards
    >>> rank(parse_cards("As Ks Qs Js Ts 2c 2d"))
    7462
    """
    n = len(cards)
    try:
        if n == 7:  # spelled out: a third faster than sum(map(...))
            a, b, c, d, e, f, g = cards
            total = _KEY[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
        elif n == 5 or n == 6:
            total = sum(map(_card_key, cards))
        else:
            raise _natural_hand_error(cards)
        if total & _FLUSH_TEST:
            return _flush_rank(cards, total)
        return _RANKS[_HI_BASE[total >> _HI_SHIFT & _INDEX_MASK] + _LO_INDEX[total & _LO_MASK]]
    except IndexError:
        raise _natural_hand_error(cards) from None


def _multiset_rank(key: int) -> int:
    """The rank of the rank multiset with multiset key ``key`` (5 to 7 cards)."""
    return _RANKS[_HI_BASE[key >> _HI_SHIFT & _INDEX_MASK] + _LO_INDEX[key & _LO_MASK]]


def _flush_rank(cards: Sequence[Card], total: int) -> int:
    suit = tables.FLUSH_SUIT[(total >> tables.FLUSH_SHIFT) & tables.FLUSH_FLAGS]
    return _FLUSH_RANK[sum(map(_suit_rank_bits[suit], cards))]


def _natural_hand_error(cards: Sequence[Card]) -> InvalidHand:
    """Why ``cards`` could not be ranked as a natural hand."""
    if not 5 <= len(cards) <= 7:
        return InvalidHand(f"expected 5 to 7 cards, got {len(cards)}", count=len(cards))
    if any(int(c) == JOKER_ID for c in cards):
        return InvalidHand(
            "rank() takes natural cards only, got a joker (Xx); use evaluate() for wild cards",
            count=len(cards),
        )
    return InvalidHand("cannot rank a hand that repeats a card", count=len(cards))


# ---------------------------------------------------------------- full evaluation


def evaluate(cards: Sequence[Card], *, wild_ranks: Collection[int] = ()) -> HandValue:
    """The best five-card hand of 5 to 7 cards; jokers and ``wild_ranks`` are wild.

    A wild card becomes whatever rank and suit makes the best hand, including
    five of a kind (above a straight flush). It may copy a card already in the
    hand, as five of a kind needs, but a flush still takes five different ranks
    (no "double-ace flush"). ``wild_ranks`` holds rank indices, 0 for deuces ...
    12 for aces: ``wild_ranks={0}`` plays deuces wild. See :class:`HandValue`
    for how ``best`` shows wild cards.

    >>> from app.poker.cards import parse_cards
    >>> evaluate(parse_cards("Ah Kh Qh Jh Th 2c 3d")).name
    'royal flush'
    >>> value = evaluate(parse_cards("5d 4c 3h 2s Ac Kd 9s"))
    >>> value.name, " ".join(map(str, value.best))
    ('straight', '5d 4c 3h 2s Ac')
    >>> evaluate(parse_cards("Ah Ad As 2c Xx"), wild_ranks={0}).name
    'five of a kind'
    """
    _check_hand(cards, wild_ranks)
    wilds = [c for c in cards if c.is_joker or c.rank in wild_ranks]
    naturals = [c for c in cards if not (c.is_joker or c.rank in wild_ranks)]
    if wilds:
        value, suit = _wild_value(naturals, len(wilds))
    else:
        value, suit = rank(naturals), _flush_suit(naturals)
    best = _arrange(tables.PATTERNS[value], naturals, wilds, suit)
    return HandValue(value, category_of(value), best)


def _check_hand(cards: Sequence[Card], wild_ranks: Collection[int]) -> None:
    if not 5 <= len(cards) <= 7:
        raise InvalidHand(f"expected 5 to 7 cards, got {len(cards)}", count=len(cards))
    bad = [r for r in wild_ranks if not 0 <= r <= 12]
    if bad:
        raise InvalidHand(
            f"wild ranks must be 0 (deuce) to 12 (ace), got {bad[0]}", count=len(cards)
        )
    seen: set[int] = set()
    for card in cards:
        if card in seen and not card.is_joker:
            raise InvalidHand(f"card {card} appears twice in one hand", count=len(cards))
        seen.add(card)


def _flush_suit(cards: Sequence[Card]) -> int | None:
    suits = [c.suit for c in cards]
    return next((s for s in range(4) if suits.count(s) >= 5), None)


def _arrange(
    pattern: tuple[int, ...], naturals: Sequence[Card], wilds: Sequence[Card], suit: int | None
) -> tuple[Card, ...]:
    """The cards that make ``pattern``: naturals of each rank (and ``suit``), else wilds."""
    pool = sorted(naturals, reverse=True)
    spare = list(wilds)
    best: list[Card] = []
    for r in pattern:
        card = next((c for c in pool if c.rank == r and suit in (None, c.suit)), None)
        if card is None:
            best.append(spare.pop(0))
        else:
            pool.remove(card)
            best.append(card)
    return tuple(best)


def _wild_value(naturals: Sequence[Card], n_wild: int) -> tuple[int, int | None]:
    """The best rank reachable with ``n_wild`` wild cards, and the flush suit if any.

    Five of a kind beats everything; otherwise the best of a suited hand
    (flush or straight flush) and the best rank multiset the wilds can make.
    """
    counts = [0] * 13
    for card in naturals:
        counts[card.rank] += 1
    quint = [r for r in range(13) if counts[r] + n_wild >= 5]
    if quint:
        return tables.N_NATURAL + 1 + max(quint), None
    suited = max((_wild_flush(naturals, n_wild, s), s) for s in range(4))
    base = tables.multiset_key(tuple(c.rank for c in naturals))
    multiset = max(_multiset_rank(base + extra) for extra in _wild_keys(n_wild))
    return suited if suited[0] > multiset else (multiset, None)


@cache
def _wild_keys(n_wild: int) -> tuple[int, ...]:
    """Multiset keys of every way to give ``n_wild`` wild cards ranks."""
    return tuple(
        tables.multiset_key(ranks) for ranks in combinations_with_replacement(range(13), n_wild)
    )


def _wild_flush(naturals: Sequence[Card], n_wild: int, suit: int) -> int:
    """The best flush or straight flush in ``suit`` with ``n_wild`` wilds, or 0."""
    held = sum(1 << c.rank for c in naturals if c.suit == suit)
    if held.bit_count() + n_wild < 5:
        return 0
    for window in tables.STRAIGHT_MASKS:
        if (window & ~held).bit_count() <= n_wild:
            return _FLUSH_RANK[window]
    # Highest ranks first: each is free if held, else costs a wild.
    mask, left = 0, n_wild
    for r in range(12, -1, -1):
        if held >> r & 1:
            mask |= 1 << r
        elif left:
            mask, left = mask | 1 << r, left - 1
        if mask.bit_count() == 5:
            break
    return _FLUSH_RANK[mask]


def winners(
    hands: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    wild_ranks: Collection[int] = (),
) -> list[int]:
    """Indices of the winning hands against a shared board (several on a tie).

    >>> from app.poker.cards import parse_cards
    >>> board = parse_cards("Ah Kd 7c 7d 2s")
    >>> winners([parse_cards("As Qc"), parse_cards("Ac Qd"), parse_cards("Kh Kc")], board)
    [2]
    >>> winners([parse_cards("As Qc"), parse_cards("Ac Qd")], board)
    [0, 1]
    """
    if not hands:
        raise InvalidHand("winners() needs at least one hand", count=0)
    everything = [c for hand in hands for c in hand] + list(board)
    naturals = [c for c in everything if not c.is_joker]
    if len(set(naturals)) != len(naturals):
        raise InvalidHand("a card appears in two hands, or in a hand and on the board", count=0)
    if wild_ranks or len(naturals) != len(everything):
        values = [evaluate([*hand, *board], wild_ranks=wild_ranks).rank for hand in hands]
    else:
        values = [rank([*hand, *board]) for hand in hands]
    top = max(values)
    return [i for i, v in enumerate(values) if v == top]


# ---------------------------------------------------------------- batch path

_CHUNK = 1 << 14
_BATCH_LO_INDEX = tables.LO_INDEX.astype(np.uint16)
_POISON_OR_FLUSH = tables.FLUSH_TEST | tables.POISON


def rank_batch(ids: npt.ArrayLike, *, threads: int | None = None) -> npt.NDArray[np.int64]:
    """Ranks of many hands at once: ``ids`` is an (N, 5|6|7) array of card ids.

    Rows are hands of distinct cards (0-51, no jokers); the result holds the
    same ranks as :func:`rank`. Large batches are split into chunks ranked on
    ``threads`` threads (default: one per CPU); numpy releases the GIL.

    >>> rank_batch(np.array([[48, 44, 40, 36, 32], [48, 49, 44, 45, 0]])).tolist()
    [7462, 4985]
    """
    hands = _batch_array(ids)
    out = np.empty(len(hands), np.int64)
    chunks = [slice(i, i + _CHUNK) for i in range(0, len(hands), _CHUNK)]
    workers = max(1, min(threads or len(os.sched_getaffinity(0)), len(chunks)))
    try:
        if workers == 1:
            for part in chunks:
                _rank_chunk(hands[part], out[part])
        else:
            pool = _executor(workers, os.getpid())
            list(pool.map(lambda part: _rank_chunk(hands[part], out[part]), chunks))
    except IndexError:
        raise _batch_error(hands) from None
    return out


def _batch_array(ids: npt.ArrayLike) -> npt.NDArray[np.integer]:
    hands = np.asarray(ids)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise InvalidHand(
            f"expected an (N, 5|6|7) array of card ids, got shape {hands.shape}", count=0
        )
    if hands.dtype.kind not in "iu":
        raise InvalidHand(f"card ids must be integers, got dtype {hands.dtype}", count=0)
    return hands


@cache
def _executor(workers: int, pid: int) -> ThreadPoolExecutor:
    """A pool per size and process: a forked child must not inherit a pool without threads."""
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rank_batch")


def _rank_chunk(hands: npt.NDArray[np.integer], out: npt.NDArray[np.int64]) -> None:
    """Rank one chunk into ``out``: sum card keys, look up multisets, then fix flushes."""
    if hands.dtype.kind == "i" and hands.min() < 0:
        raise IndexError("negative card id")
    keys = np.take(tables.BATCH_KEYS, hands)
    total = np.einsum("ij->i", keys)  # row sums; faster than .sum(axis=1) or column adds
    high = total >> _HI_SHIFT
    high &= _INDEX_MASK
    # Indices computed here are in range for every hand of distinct cards;
    # "clip" skips numpy's bounds-check buffering (bad ids are caught below).
    index = np.take(tables.HI_BASE, high, mode="clip")
    index += np.take(_BATCH_LO_INDEX, total & _LO_MASK, mode="clip")
    np.take(tables.MULTISET_RANKS, index, out=out, mode="clip")
    suited = np.flatnonzero((total & _POISON_OR_FLUSH) != 0)
    if suited.size:
        out[suited] = _batch_flush_ranks(hands[suited], total[suited])


def _batch_flush_ranks(
    hands: npt.NDArray[np.integer], totals: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Ranks of hands holding a flush: looked up by the ranks in the flush suit."""
    if (totals & tables.POISON).any():
        raise IndexError("not a card id")
    flags = (totals >> tables.FLUSH_SHIFT) & tables.FLUSH_FLAGS
    suit = (flags >= 1 << 6).astype(np.int64) + (flags >= 1 << 12) + (flags >= 1 << 18)
    in_suit = (hands & 3) == suit[:, None]
    masks = (in_suit.astype(np.int64) << (hands >> 2)).sum(axis=1)
    ranks: npt.NDArray[np.int64] = np.take(tables.FLUSH_RANKS, masks)
    return ranks


def _batch_error(hands: npt.NDArray[np.integer]) -> InvalidHand:
    """Why a batch could not be ranked (called only after a failed lookup)."""
    if (hands == JOKER_ID).any():
        return InvalidHand("rank_batch() takes natural cards only, got a joker (id 52)", count=0)
    if (hands < 0).any() or (hands > 51).any():
        return InvalidHand("card ids must be 0 to 51", count=0)
    return InvalidHand("cannot rank a hand that repeats a card", count=0)


def rank_on_boards(boards: npt.ArrayLike, holes: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Ranks of every two-card hand on every board: a (boards, holes) array.

    ``boards`` is (B, 5) card ids, ``holes`` (H, 2). The per-card keys of each
    board and of each hand are summed once, so ranking B x H seven-card hands
    costs a few lookups each (as in :func:`rank_batch`). A hand sharing a card
    with a board gets rank 0 (lower than any real hand).

    >>> rank_on_boards([[48, 44, 40, 0, 5]], [[36, 32], [48, 49]]).tolist()
    [[7462, 0]]
    """
    board_ids, hole_ids = np.asarray(boards, dtype=np.int64), np.asarray(holes, dtype=np.int64)
    if board_ids.ndim != 2 or board_ids.shape[1] != 5 or hole_ids.ndim != 2 or (
            hole_ids.shape[1] != 2):
        raise InvalidHand(f"expected (B, 5) boards and (H, 2) hands, got {board_ids.shape} and "
                          f"{hole_ids.shape}", count=0)
    if (board_ids.size and (board_ids.min() < 0 or board_ids.max() > 51)) or (hole_ids.size and (
            hole_ids.min() < 0 or hole_ids.max() > 51)):
        raise InvalidHand("card ids must be 0 to 51", count=0)
    board_keys = np.take(tables.BATCH_KEYS, board_ids).sum(axis=1)
    hole_keys = np.take(tables.BATCH_KEYS, hole_ids).sum(axis=1)
    one = np.int64(1)
    board_bits = np.bitwise_or.reduce(one << board_ids, axis=1)
    hole_bits = np.bitwise_or.reduce(one << hole_ids, axis=1)
    out = np.empty((len(board_ids), len(hole_ids)), np.int64)
    step = max(1, _CHUNK // max(1, len(hole_ids)))

    def rank_part(part: slice) -> None:
        total = board_keys[part, None] + hole_keys[None, :]
        clash = (board_bits[part, None] & hole_bits[None, :]) != 0
        _rank_sums(total, clash, board_ids[part], hole_ids, out[part])

    parts = [slice(i, i + step) for i in range(0, len(board_ids), step)]
    workers = max(1, min(len(os.sched_getaffinity(0)), len(parts)))
    if workers == 1:
        for part in parts:
            rank_part(part)
    else:
        list(_executor(workers, os.getpid()).map(rank_part, parts))
    return out


def _rank_sums(total: npt.NDArray[np.int64], clash: npt.NDArray[np.bool_],
               boards: npt.NDArray[np.int64], holes: npt.NDArray[np.int64],
               out: npt.NDArray[np.int64]) -> None:
    """Ranks from summed keys (boards x holes), as :func:`_rank_chunk` does per hand."""
    high = total >> _HI_SHIFT
    high &= _INDEX_MASK
    index = np.take(tables.HI_BASE, high, mode="clip")
    index += np.take(_BATCH_LO_INDEX, total & _LO_MASK, mode="clip")
    np.take(tables.MULTISET_RANKS, index, out=out, mode="clip")
    suited_b, suited_h = np.nonzero(((total & _POISON_OR_FLUSH) != 0) & ~clash)
    if suited_b.size:
        sevens = np.concatenate([boards[suited_b], holes[suited_h]], axis=1)
        out[suited_b, suited_h] = _batch_flush_ranks(sevens, total[suited_b, suited_h])
    out[clash] = 0
