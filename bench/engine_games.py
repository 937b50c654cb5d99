"""Every game against pokerkit at scale: thousands of random hands per game, in lockstep.

    .venv/bin/python bench/engine_games.py [--hands 2000] [--seed 1]

The check of tests/poker/test_engine_games_differential.py on many more hands: each
hand is dealt by our engine and played with random legal actions; before every decision
pokerkit is asked whether the actor may bet or raise, between which amounts, and about
five probed amounts; every finished hand must settle to pokerkit's stacks. A
disagreement that is not one of the documented rule differences (app.poker.limits) stops
the run with the hand that shows it. Prints a Markdown table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.poker.state import Game
from bench.evaluator import machine
from tests.poker.game_oracle import ODD_CHIPS, POTS_REFORMED, play, random_setup

SETTLEMENT = {ODD_CHIPS, POTS_REFORMED}


def run(game: Game, hands: int, seed: int) -> tuple[Counter[str], float]:
    """Counts of decisions, probes, agreeing hands and each difference; seconds taken."""
    rng = Random(f"{seed}-{game.value}")
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    for _ in range(hands):
        setup = random_setup(rng, game)
        _, verdict = play(setup, rng)
        counts["decisions"] += verdict.decisions
        counts["probes"] += verdict.probes
        settled = not verdict.diverged and not verdict.differences & SETTLEMENT
        counts["settled like pokerkit"] += settled
        counts["diverged"] += verdict.diverged
        counts.update(verdict.differences)
    return counts, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = {game: run(game, args.hands, args.seed) for game in Game}
    print(machine())
    print(f"\n{args.hands:,} random hands per game (seed {args.seed})\n")
    print("| game | decisions asked | amounts probed | hands settled to pokerkit's very "
          "stacks | hands played on after a raise pokerkit refuses | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for game, (c, seconds) in results.items():
        print(f"| {game.value} | {c['decisions']:,} | {c['probes']:,} | "
              f"{c['settled like pokerkit']:,} | {c['diverged']:,} | {seconds:.1f} |")
    print("\n| game | documented difference | hands |")
    print("|---|---|---:|")
    fixed = {"decisions", "probes", "settled like pokerkit", "diverged"}
    for game, (c, _) in results.items():
        for name, count in sorted(c.items()):
            if name not in fixed:
                print(f"| {game.value} | {name} | {count:,} |")


if __name__ == "__main__":
    main()
