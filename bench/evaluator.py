"""Seven-card hands per second: our evaluator beside its peers, on the same random hands.

    .venv/bin/python bench/evaluator.py [--hands 1000000] [--seed 7]

Every library gets the same hands, converted to its own card objects before
the clock starts; each timing is the best of a few repeats. Scalar evaluators
are called once per hand from a Python loop; ``rank_batch`` ranks the whole
array in one call. Prints a Markdown table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import eval7
import phevaluator._pheval as pheval
import pokerkit
import treys

from app.poker.cards import FULL_DECK, Card
from app.poker.evaluator import rank, rank_batch

SCALAR_HANDS = 200_000  # per-hand loops: ours, eval7, phevaluator, the baseline
TREYS_HANDS = 100_000
POKERKIT_HANDS = 2_000
REPEATS = 5


def best_time(run: Callable[[], object], repeats: int = REPEATS) -> float:
    """The fastest of ``repeats`` wall-clock timings of ``run()``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def loop(evaluate: Callable[..., object], hands: Sequence[object]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            evaluate(hand)

    return run


def loop_star(
    evaluate: Callable[..., object], hands: Sequence[Sequence[int]]
) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            evaluate(*hand)

    return run


def loop_split(
    evaluate: Callable[..., object], hands: Sequence[tuple[object, object]]
) -> Callable[[], None]:
    def run() -> None:
        for hole, board in hands:
            evaluate(hole, board)

    return run


def scalar_rates(ids: npt.NDArray[np.int64]) -> dict[str, tuple[int, float]]:
    """name -> (hands timed, hands per second) for every per-hand evaluator."""
    rows = ids[:SCALAR_HANDS].tolist()
    ours = [tuple(FULL_DECK[i] for i in row) for row in rows]
    seven7 = [[eval7.Card(str(FULL_DECK[i])) for i in row] for row in rows]
    treys_cards = [treys.Card.new(str(c)) for c in FULL_DECK]
    treys_hands = [
        ([treys_cards[i] for i in row[:2]], [treys_cards[i] for i in row[2:]])
        for row in rows[:TREYS_HANDS]
    ]
    poker_cards = [next(iter(pokerkit.Card.parse(str(c)))) for c in FULL_DECK]
    pk_hands = [
        ([poker_cards[i] for i in row[:2]], [poker_cards[i] for i in row[2:]])
        for row in rows[:POKERKIT_HANDS]
    ]
    treys_eval = treys.Evaluator()
    runs: dict[str, tuple[Callable[[], None], int]] = {
        "baseline: Python loop, one tuple index per hand": (loop(lambda h: h[0], ours), len(ours)),
        "ours: rank() per hand": (loop(rank, ours), len(ours)),
        "eval7.evaluate per hand": (loop(eval7.evaluate, seven7), len(seven7)),
        "phevaluator C evaluate_7cards per hand": (
            loop_star(pheval.evaluate_7cards, rows),
            len(rows),
        ),
        "treys Evaluator.evaluate per hand": (
            loop_split(treys_eval.evaluate, treys_hands),
            len(treys_hands),
        ),
        "pokerkit StandardHighHand.from_game per hand": (
            loop_split(pokerkit.StandardHighHand.from_game, pk_hands),
            len(pk_hands),
        ),
    }
    return {name: (n, n / best_time(run)) for name, (run, n) in runs.items()}


def batch_rates(ids: npt.NDArray[np.int64]) -> dict[str, tuple[int, float]]:
    """name -> (hands, hands per second) for ``rank_batch`` on the whole array."""
    as_bytes = ids.astype(np.uint8)
    threads = os.cpu_count() or 1
    runs = {
        f"ours: rank_batch, int64 ids, {threads} threads": lambda: rank_batch(ids),
        f"ours: rank_batch, uint8 ids, {threads} threads": lambda: rank_batch(as_bytes),
        "ours: rank_batch, int64 ids, 1 thread": lambda: rank_batch(ids, threads=1),
    }
    return {name: (len(ids), len(ids) / best_time(run, 9)) for name, run in runs.items()}


def check_agreement(ids: npt.NDArray[np.int64]) -> None:
    """Refuse to report speed for wrong answers: batch == scalar, same order as eval7."""
    sample = ids[:20_000]
    ours = rank_batch(sample)
    assert ours.tolist() == [rank([Card.from_id(i) for i in row]) for row in sample.tolist()]
    peer = [eval7.Card(str(c)) for c in FULL_DECK]
    theirs = np.array([eval7.evaluate([peer[i] for i in row]) for row in sample.tolist()])
    order = np.argsort(ours, kind="stable")
    assert np.array_equal(np.diff(ours[order]) > 0, np.diff(theirs[order]) > 0)


def machine() -> str:
    lines = Path("/proc/cpuinfo").read_text().splitlines()
    models = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    cpu = models[0] if models else platform.processor()
    peers = ("numpy", "eval7", "phevaluator", "treys", "pokerkit")
    libs = ", ".join(f"{lib} {version(lib)}" for lib in peers)
    python = platform.python_version()
    load = os.getloadavg()[0]
    return f"{cpu}, nproc {os.cpu_count()}, Python {python}; {libs}; load average {load:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    ids = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.int64)
    check_agreement(ids)
    rates = scalar_rates(ids) | batch_rates(ids)
    print(machine())
    print(f"\n{args.hands:,} random 7-card hands (seed {args.seed}); per-hand loops on a prefix\n")
    print("| evaluator | hands timed | hands/s |")
    print("|---|---:|---:|")
    for name, (n, rate) in rates.items():
        print(f"| {name} | {n:,} | {rate:,.0f} |")
    scalar = rates["ours: rank() per hand"][1]
    batch = max(rate for name, (_, rate) in rates.items() if "threads" in name)
    print("\n| ratio | value |")
    print("|---|---:|")
    for label, ours, peer in [
        ("rank() / treys", scalar, "treys Evaluator.evaluate per hand"),
        ("rank() / eval7", scalar, "eval7.evaluate per hand"),
        ("rank() / phevaluator C per hand", scalar, "phevaluator C evaluate_7cards per hand"),
        ("rank() / pokerkit", scalar, "pokerkit StandardHighHand.from_game per hand"),
        ("rank_batch / phevaluator C per hand", batch, "phevaluator C evaluate_7cards per hand"),
        ("rank_batch / eval7", batch, "eval7.evaluate per hand"),
    ]:
        print(f"| {label} | {ours / rates[peer][1]:,.2f}x |")


if __name__ == "__main__":
    main()
