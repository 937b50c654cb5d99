"""Lookup tables behind the hand evaluator, built with numpy at import (~50 ms).

Every five-card hand falls into one of 7,462 equivalence classes; class ``v``
(1 = 7-5-4-3-2 offsuit ... 7,462 = royal flush) is the hand's rank. Five of a
kind, possible only with wild cards, takes ranks 7,463 (deuces) to 7,475 (aces).

A hand is looked up by the *sum* of one integer key per card (no loop over
five-card subsets). A card key packs four fields, chosen so that summing at
most seven keys never carries from one field into the next:

* bits 0-16: ``5**r`` for ranks r = 0..6 (deuce..eight), and bits 17-30:
  ``5**(r-7)`` for ranks 7..12: base-5 digits that count each rank;
* bits 31-33: 1, counting the cards. Together, bits 0-33 of the sum are the
  "multiset key", naming the hand's rank multiset;
* bits 34-57: ``7`` in a 6-bit field per suit. Four cards of a suit sum to 28,
  five to 35, so bit 5 of a field is set exactly when that suit holds a flush;
* bit 59 is a poison bit, set only in the (batch) keys of ids that are not cards.

Without a flush the rank depends only on the rank multiset: its dense index is
``HI_BASE[key >> 17 & INDEX_MASK] + LO_INDEX[key & LO_MASK]`` (the card count
and high ranks pick a block, the low ranks a place in it), and
``MULTISET_RANKS[index]`` its rank. With a flush (at most seven cards hold no
full house or quads beside one) the rank depends only on the ranks in the flush
suit, looked up in an 8,192-entry table by rank bitmask. All tables fit in a
core's L2 cache.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

LO_RANKS = 7
HI_SHIFT = 17
LO_MASK = (1 << HI_SHIFT) - 1
COUNT_SHIFT = 31
INDEX_MASK = (1 << (COUNT_SHIFT + 3 - HI_SHIFT)) - 1
MULTISET_MASK = (1 << (COUNT_SHIFT + 3)) - 1
SUIT_SHIFT = COUNT_SHIFT + 3
FLUSH_TEST = sum(1 << (SUIT_SHIFT + 6 * s + 5) for s in range(4))
POISON = 1 << 59

CATEGORY_COUNT = 10
N_NATURAL = 7462
N_RANKS = N_NATURAL + 13

RANK_WEIGHT: tuple[int, ...] = tuple(
    (5**r if r < LO_RANKS else 5 ** (r - LO_RANKS) << HI_SHIFT) + (1 << COUNT_SHIFT)
    for r in range(13)
)
CARD_KEYS: tuple[int, ...] = tuple(
    RANK_WEIGHT[c >> 2] + (7 << (SUIT_SHIFT + 6 * (c & 3))) for c in range(52)
)
# Rank bitmask of card c within suit s, 0 for cards of other suits: summed over
# a hand, the ranks held in suit s.
SUIT_RANK_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << (c >> 2) if c & 3 == s else 0 for c in range(52)) for s in range(4)
)
# (sum >> FLUSH_SHIFT) & FLUSH_FLAGS has one bit set, naming the flush suit.
FLUSH_SHIFT = SUIT_SHIFT + 5
FLUSH_FLAGS = sum(1 << (6 * s) for s in range(4))
FLUSH_SUIT: dict[int, int] = {1 << (6 * s): s for s in range(4)}

Pattern = tuple[int, ...]


def _straights() -> list[Pattern]:
    wheel: Pattern = (3, 2, 1, 0, 12)
    return [wheel] + [tuple(range(high, high - 5, -1)) for high in range(4, 13)]


def _distinct(k: int, exclude: tuple[int, ...] = ()) -> list[Pattern]:
    ranks = [r for r in range(12, -1, -1) if r not in exclude]
    return list(combinations(ranks, k))


def _category_patterns() -> list[list[Pattern]]:
    """The reading-order rank patterns of each category, weakest category first.

    Within a category, comparing patterns as tuples orders hands correctly.
    """
    straight_sets = {frozenset(p) for p in _straights()}
    no_straight = [p for p in _distinct(5) if frozenset(p) not in straight_sets]
    r13 = range(13)
    return [
        no_straight,
        [(p, p, *k) for p in r13 for k in _distinct(3, (p,))],
        [(h, h, lo, lo, k) for h in r13 for lo in range(h) for k in r13 if k not in (h, lo)],
        [(t, t, t, *k) for t in r13 for k in _distinct(2, (t,))],
        _straights(),
        no_straight,
        [(t, t, t, p, p) for t in r13 for p in r13 if p != t],
        [(q, q, q, q, k) for q in r13 for k in r13 if k != q],
        _straights(),
        [(r,) * 5 for r in r13],
    ]


FLUSH_CATEGORIES = (5, 8)


def _patterns_and_starts() -> tuple[list[Pattern], list[int]]:
    patterns: list[Pattern] = [()]
    starts: list[int] = []
    for group in _category_patterns():
        starts.append(len(patterns))
        patterns.extend(sorted(group))
    return patterns, starts


def _rank_mask(ranks: Pattern) -> int:
    return sum(1 << r for r in ranks)


PATTERNS, CATEGORY_START = _patterns_and_starts()
"""``PATTERNS[v]``: the ranks of hand class ``v`` in reading order;
``CATEGORY_START[c]``: the lowest rank of category ``c``."""
ROYAL_FLUSH = N_NATURAL


STRAIGHT_MASKS: list[int] = [_rank_mask(p) for p in reversed(_straights())]
"""Rank bitmasks of the ten straights, ace-high first, the wheel last."""


def multiset_key(ranks: Pattern) -> int:
    """The multiset key (sum of rank weights) of some ranks."""
    return sum(RANK_WEIGHT[r] for r in ranks)


def _five_card_classes() -> tuple[IntArray, IntArray, IntArray]:
    """Multiset keys and ranks of non-flush classes; rank by mask for flushes."""
    keys, values = [], []
    flush = np.zeros(1 << 13, np.int64)
    flush_lo, flush_hi = CATEGORY_START[5], CATEGORY_START[6]
    sf_lo, sf_hi = CATEGORY_START[8], CATEGORY_START[9]
    for v in range(1, N_NATURAL + 1):
        if flush_lo <= v < flush_hi or sf_lo <= v < sf_hi:
            flush[_rank_mask(PATTERNS[v])] = v
        else:
            keys.append(multiset_key(PATTERNS[v]))
            values.append(v)
    order = np.argsort(keys)
    return np.array(keys)[order], np.array(values)[order], flush


def _multiset_counts(n_ranks: int, max_size: int) -> IntArray:
    """Every vector of ``n_ranks`` counts (0..4 each) summing to at most ``max_size``."""
    counts = np.zeros((1, n_ranks), np.int64)
    for r in range(n_ranks):
        choices = np.minimum(4, max_size - counts.sum(axis=1)) + 1
        first = np.repeat(np.cumsum(choices) - choices, choices)
        counts = np.repeat(counts, choices, axis=0)
        counts[:, r] = np.arange(len(counts)) - first
    return counts


def _best_after_removal(
    counts: IntArray, prev_keys: IntArray, prev_values: IntArray
) -> tuple[IntArray, IntArray]:
    """Ranks of n-card multisets: the best (n-1)-card multiset left by removing one card."""
    weights = np.array(RANK_WEIGHT, np.int64)
    keys = counts @ weights
    best = np.zeros(len(keys), np.int64)
    for r in range(13):
        held = counts[:, r] > 0
        pos = np.searchsorted(prev_keys, keys[held] - weights[r])
        best[held] = np.maximum(best[held], prev_values[pos])
    order = np.argsort(keys)
    return keys[order], best[order]


def _flush_table(flush5: IntArray) -> IntArray:
    """Rank by rank bitmask for 5 to 7 suited cards."""
    table = flush5.copy()
    masks = np.arange(1 << 13)
    popcount = np.array([bin(m).count("1") for m in range(1 << 13)])
    for n in (6, 7):
        level = masks[popcount == n]
        for bit in range(13):
            held = level[(level >> bit) & 1 == 1]
            table[held] = np.maximum(table[held], table[held & ~(1 << bit)])
    return table


def _build_multiset_tables() -> tuple[dict[int, tuple[IntArray, IntArray]], IntArray]:
    keys5, values5, flush5 = _five_card_classes()
    all_counts = _multiset_counts(13, 7)
    sizes = all_counts.sum(axis=1)
    by_size = {5: (keys5, values5)}
    for n in (6, 7):
        by_size[n] = _best_after_removal(all_counts[sizes == n], *by_size[n - 1])
    return by_size, _flush_table(flush5)


MULTISETS, FLUSH_RANKS = _build_multiset_tables()
"""``MULTISETS[n]``: (sorted multiset keys, ranks) of all n-card rank multisets;
``FLUSH_RANKS[mask]``: the rank of 5 to 7 suited cards with rank bitmask ``mask``."""


def _half_index(n_ranks: int, weight: int) -> tuple[IntArray, IntArray, IntArray]:
    """For the multisets of ``n_ranks`` ranks (at most 7 cards): their half-keys,
    their sizes, and each one's position among the multisets of its size."""
    counts = _multiset_counts(n_ranks, 7)
    keys = counts @ (weight ** np.arange(n_ranks))
    sizes = counts.sum(axis=1)
    order = np.lexsort((keys, sizes))
    position = np.empty(len(keys), np.int64)
    starts = np.searchsorted(sizes[order], np.arange(8))
    position[order] = np.arange(len(keys)) - starts[sizes[order]]
    return keys, sizes, position


def _build_index_tables() -> tuple[IntArray, IntArray, IntArray]:
    """Dense indexing of multisets: ``hi_base[count << 14 | hi] + lo_index[lo]``.

    Sorted by multiset key, the n-card multisets come in blocks of equal high
    half; a block holds every low half of the remaining size, in order. The
    5-, 6- and 7-card multisets follow one another in one rank table.
    """
    lo_keys, lo_sizes, lo_pos = _half_index(LO_RANKS, 5)
    lo_index = np.zeros(5**LO_RANKS, np.int64)
    lo_index[lo_keys] = lo_pos
    lo_per_size = np.bincount(lo_sizes, minlength=8)
    hi_keys, hi_sizes, _ = _half_index(13 - LO_RANKS, 5)
    order = np.argsort(hi_keys)
    hi_keys, hi_sizes = hi_keys[order], hi_sizes[order]
    hi_base = np.zeros(INDEX_MASK + 1, np.int64)
    offset = 0
    for n in (5, 6, 7):
        fits = hi_sizes <= n
        block = lo_per_size[n - hi_sizes[fits]]
        hi_base[(n << 14) + hi_keys[fits]] = offset + np.cumsum(block) - block
        offset += len(MULTISETS[n][0])
    ranks = np.concatenate([MULTISETS[n][1] for n in (5, 6, 7)])
    return lo_index, hi_base, ranks


LO_INDEX, HI_BASE, MULTISET_RANKS = _build_index_tables()
"""The rank of the multiset with key ``k`` (bits 0-33 of a card-key sum) is
``MULTISET_RANKS[HI_BASE[k >> HI_SHIFT & INDEX_MASK] + LO_INDEX[k & LO_MASK]]``."""

BATCH_KEYS: IntArray = np.array(CARD_KEYS + (POISON,) * 52, np.int64)
"""Card keys for ids 0-51, the poison key for 52-103 (ids -52..-1 wrap onto
them under numpy's indexing)."""
