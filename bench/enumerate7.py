"""Rank all 133,784,560 seven-card hands with ``rank_batch`` and check the category counts.

    .venv/bin/python bench/enumerate7.py

Hands are built in blocks sharing their two lowest cards: the five-card
combinations of the cards above them are a tail of the sorted list of all
five-card combinations, so each block is one slice plus two constant columns.
Exits non-zero if any count differs from the published one.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.poker.evaluator import Category, category_batch, rank_batch

PUBLISHED = {
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}
TOTAL = 133_784_560
DISTINCT_SEVEN_CARD_RANKS = 4_824


def five_card_combinations() -> npt.NDArray[np.uint8]:
    """All C(52, 5) combinations, sorted, one row each."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), 5))
    return np.fromiter(flat, dtype=np.uint8, count=5 * 2_598_960).reshape(-1, 5)


def rank_histogram() -> tuple[npt.NDArray[np.int64], float]:
    """How many seven-card hands have each rank, and the seconds spent in rank_batch."""
    fives = five_card_combinations()
    first_above = np.searchsorted(fives[:, 0], np.arange(53))
    histogram = np.zeros(7_476, np.int64)
    ranking = 0.0
    for low, second in itertools.combinations(range(52), 2):
        tail = fives[first_above[second + 1] :]
        if not len(tail):
            continue
        block = np.empty((len(tail), 7), np.uint8)
        block[:, 0], block[:, 1], block[:, 2:] = low, second, tail
        start = time.perf_counter()
        ranks = rank_batch(block)
        ranking += time.perf_counter() - start
        histogram += np.bincount(ranks, minlength=7_476)
    return histogram, ranking


def main() -> int:
    start = time.perf_counter()
    histogram, ranking = rank_histogram()
    elapsed = time.perf_counter() - start
    per_category = np.bincount(category_batch(np.arange(7_476))[1:], histogram[1:], minlength=10)
    counts = {c: int(per_category[c]) for c in PUBLISHED}
    hands, distinct = int(histogram.sum()), int(np.count_nonzero(histogram))
    ok = counts == PUBLISHED and hands == TOTAL and distinct == DISTINCT_SEVEN_CARD_RANKS
    for category, expected in PUBLISHED.items():
        mark = "ok" if counts[category] == expected else f"MISMATCH, published {expected:,}"
        print(f"{category.label:>16}: {counts[category]:>11,}  {mark}")
    print(f"{'all hands':>16}: {hands:>11,}  ({distinct:,} distinct ranks)")
    rate = hands / ranking / 1e6
    print(f"total {elapsed:.2f} s; in rank_batch {ranking:.2f} s = {rate:.1f} M hands/s")
    print("all counts match" if ok else "COUNTS DO NOT MATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
