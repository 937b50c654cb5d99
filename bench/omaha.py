"""Omaha hands per second: our two-and-three path beside hold'em's and the peers', same hands.

    .venv/bin/python bench/omaha.py [--hands 200000] [--seed 7]

Random Omaha hands (four or five hole cards and a five-card board) are ranked by
``rank_omaha`` once per hand from a Python loop and by ``rank_omaha_batch`` in one call;
beside them, our hold'em ``rank()`` and ``rank_batch`` on seven cards, phevaluator's C
``evaluate_omaha_cards`` (four hole cards only) and pokerkit's ``OmahaHoldemHand``. The
answers are checked first (brute force over the 60 or 100 five-card hands, the batch
path, and the order phevaluator and pokerkit give). Prints a Markdown table for
bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import phevaluator._pheval as pheval
import pokerkit

from app.poker.cards import FULL_DECK, Card
from app.poker.evaluator import rank, rank_batch
from app.poker.omaha import rank_omaha, rank_omaha_batch
from bench.evaluator import best_time, machine

SCALAR_HANDS = 50_000
POKERKIT_HANDS = 1_000


def deal(rng: np.random.Generator, hands: int, holes: int) -> npt.NDArray[np.int64]:
    """(hands, holes + 5) distinct card ids: the hole cards, then the board."""
    return np.argsort(rng.random((hands, 52)), axis=1)[:, :holes + 5].astype(np.int64)


def check(ids: npt.NDArray[np.int64], holes: int) -> None:
    """Refuse to time wrong answers."""
    sample = ids[:3000].tolist()
    cards = [[Card.from_id(i) for i in row] for row in sample]
    ours = [rank_omaha(c[:holes], c[holes:]) for c in cards]
    assert ours == [max(rank([*p, *t]) for p in combinations(c[:holes], 2)
                        for t in combinations(c[holes:], 3)) for c in cards]
    assert rank_omaha_batch(ids[:3000, :holes], ids[:3000, holes:]).tolist() == ours
    if holes == 4:
        theirs = [pheval.evaluate_omaha_cards(*row[4:], *row[:4]) for row in sample]
        order = np.argsort(ours, kind="stable")
        assert np.array_equal(np.diff(np.array(ours)[order]) > 0,
                              np.diff(-np.array(theirs)[order]) > 0)


def rates(ids: npt.NDArray[np.int64], holes: int) -> dict[str, tuple[int, float]]:
    """name -> (hands timed, hands per second)."""
    rows = ids[:SCALAR_HANDS].tolist()
    split = [([FULL_DECK[i] for i in row[:holes]], [FULL_DECK[i] for i in row[holes:]])
             for row in rows]
    pk = [next(iter(pokerkit.Card.parse(str(c)))) for c in FULL_DECK]
    pk_hands = [([pk[i] for i in row[:holes]], [pk[i] for i in row[holes:]])
                for row in rows[:POKERKIT_HANDS]]

    def per_hand(evaluate: Callable[..., object], hands: list[tuple[object, object]]
                 ) -> Callable[[], None]:
        def run() -> None:
            for hole, board in hands:
                evaluate(hole, board)
        return run

    runs: dict[str, tuple[Callable[[], object], int]] = {
        f"ours: rank_omaha() per hand, {holes} hole cards": (per_hand(rank_omaha, split),
                                                             len(split)),
        f"ours: rank_omaha_batch(), {holes} hole cards": (
            lambda: rank_omaha_batch(ids[:, :holes], ids[:, holes:]), len(ids)),
        f"pokerkit OmahaHoldemHand.from_game per hand, {holes} hole cards": (
            per_hand(pokerkit.OmahaHoldemHand.from_game, pk_hands), len(pk_hands)),
    }
    if holes == 4:
        runs["phevaluator C evaluate_omaha_cards per hand, 4 hole cards"] = (
            lambda: [pheval.evaluate_omaha_cards(*r[4:], *r[:4]) for r in rows], len(rows))
    return {name: (n, n / best_time(run, 3)) for name, (run, n) in runs.items()}


def holdem_rates(rng: np.random.Generator, hands: int) -> dict[str, tuple[int, float]]:
    """Our hold'em path on seven cards, for comparison."""
    ids = deal(rng, hands, 2)
    sevens = [tuple(FULL_DECK[i] for i in row) for row in ids[:SCALAR_HANDS].tolist()]
    return {
        "ours: hold'em rank() per hand, 7 cards": (
            len(sevens), len(sevens) / best_time(lambda: [rank(h) for h in sevens], 3)),
        "ours: hold'em rank_batch(), 7 cards, 1 thread": (
            len(ids), len(ids) / best_time(lambda: rank_batch(ids, threads=1), 3)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    found: dict[str, tuple[int, float]] = {}
    for holes in (4, 5):
        ids = deal(rng, args.hands, holes)
        check(ids, holes)
        found |= rates(ids, holes)
    found |= holdem_rates(rng, args.hands)
    print(machine())
    print(f"\n{args.hands:,} random Omaha hands of each size (seed {args.seed}); per-hand "
          f"loops on a prefix\n")
    print("| evaluator | hands timed | hands/s |")
    print("|---|---:|---:|")
    for name, (n, rate) in found.items():
        print(f"| {name} | {n:,} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
