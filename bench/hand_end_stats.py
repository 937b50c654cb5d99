"""The cost of keeping player stats at the end of a hand.

    .venv/bin/python bench/hand_end_stats.py [--hands 2000] [--seed 3]

Two parts, timed separately over the same random hands (bench/engine.py's: 2 to 9
seats, random legal actions): counting a finished hand's stats from its public actions
(:func:`app.poker.player_stats.hand_counters`, done where the hand's record is built),
and adding them to the stored counters, one row per (viewer, subject) of the people dealt
in (:func:`app.db.players.add_counters`, in the transaction that stores the hand), against
a fresh SQLite file migrated to head. Every seat is a person: the most rows a hand writes.
Each transaction is timed with and without the stats write, alternately, so the
difference is what the stats add to a hand's commit. Prints a Markdown table for
bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert

from app.db.engine import Database
from app.db.migrations import upgrade
from app.db.models import User
from app.db.players import add_counters
from app.poker.engine import Hand
from app.poker.player_stats import Counters, hand_counters, public_hand
from bench.engine import play_random
from bench.evaluator import machine


def counting(hands: list[Hand]) -> tuple[list[dict[int, Counters]], float]:
    """Each hand's counters, and the microseconds per hand it took."""
    start = time.perf_counter()
    counts = [hand_counters(public_hand(hand)) for hand in hands]
    return counts, (time.perf_counter() - start) / len(hands) * 1e6


async def storing(counts: list[dict[int, Counters]]) -> dict[int, tuple[float, float]]:
    """By people dealt in: the median milliseconds of a hand's commit without and with the
    stats write."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/stats.sqlite3"
        await asyncio.to_thread(upgrade, url)
        database = Database(url)
        async with database.sessions() as session:
            await session.execute(insert(User), [{"public_id": f"{i:032x}", "balance": 0}
                                                 for i in range(1, 11)])
            await session.commit()
        timings: dict[int, tuple[list[float], list[float]]] = {}
        for hand in counts:
            dealt_in = [(seat + 1, c) for seat, c in hand.items()]
            plain, with_stats = timings.setdefault(len(dealt_in), ([], []))
            for into, rows in ((plain, []), (with_stats, dealt_in)):
                start = time.perf_counter()
                async with database.sessions() as session:
                    await add_counters(session, rows)
                    await session.commit()
                into.append((time.perf_counter() - start) * 1e3)
        await database.dispose()
    return {n: (statistics.median(a), statistics.median(b))
            for n, (a, b) in sorted(timings.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    rng = Random(args.seed)
    hands = [play_random(rng)[0] for _ in range(args.hands)]
    counts, micros = counting(hands)
    stored = asyncio.run(storing(counts))
    print(machine())
    print(f"\n{args.hands:,} random hands (seed {args.seed}); counting: {micros:.1f} µs "
          "per hand\n")
    print("| people dealt in | rows written | empty transaction (ms) | "
          "with the stats write (ms) | stats add (ms) |")
    print("|---:|---:|---:|---:|---:|")
    for n, (plain, with_stats) in stored.items():
        print(f"| {n} | {n * n} | {plain:.2f} | {with_stats:.2f} | {with_stats - plain:.2f} |")


if __name__ == "__main__":
    main()
