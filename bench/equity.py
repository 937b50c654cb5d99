"""Exact heads-up preflop equity: ours against a plain loop over phevaluator's C function.

Both enumerate all 1,712,304 boards of AhKh vs QsQd (3,424,608 seven-card
hands) in the same run; eval7, which has no exact preflop mode, is timed doing
Monte Carlo with as many samples. Also times our seeded Monte Carlo against a
random hand. Prints the machine, versions, times and ratios.

    .venv/bin/python bench/equity.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import statistics
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import TypeVar

import eval7
from phevaluator import _pheval

from app.poker.cards import parse_cards
from app.poker.equity import equity

HERO, VILLAIN = "AhKh", "QsQd"
BOARDS = 1_712_304
TARGET_SECONDS, TARGET_RATIO = 0.25, 3.0
T = TypeVar("T")


def machine() -> str:
    """``nproc``, the CPU model, the load and the library versions."""
    model = "unknown CPU"
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    libs = ", ".join(f"{n} {version(n)}" for n in ("numpy", "phevaluator", "eval7"))
    return (f"{os.cpu_count()} CPUs, {model}, {idle_percent():.0f}% idle over 1 s "
            f"(load average {os.getloadavg()[0]:.2f}); Python {platform.python_version()}, {libs}")


def idle_percent(seconds: float = 1.0) -> float:
    """How idle the CPUs are right now (the load average lags by a minute)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat", encoding="utf-8") as stat:
            ticks = [int(t) for t in stat.readline().split()[1:]]
        return ticks[3] + ticks[4], sum(ticks)

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return 100.0 * (idle1 - idle0) / max(total1 - total0, 1)


def timed(run: Callable[[], T], repeat: int) -> tuple[list[float], T]:
    """Wall-clock seconds of each of ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    assert result is not None
    return times, result


def ours() -> tuple[int, int, int]:
    """(hero wins, villain wins, ties) from our exact enumeration."""
    result = equity([HERO, VILLAIN])
    assert result.exact and result.boards == BOARDS
    hero, villain = result.hands
    return round(hero.win * BOARDS), round(villain.win * BOARDS), round(hero.tie * BOARDS)


def phevaluator_loop() -> tuple[int, int, int]:
    """(hero wins, villain wins, ties): one C call per hand per board, from Python."""
    rank7 = _pheval.evaluate_7cards  # same card ids as ours; lower rank is better
    a, b = (int(c) for c in parse_cards(HERO))
    c, d = (int(c) for c in parse_cards(VILLAIN))
    rest = [i for i in range(52) if i not in (a, b, c, d)]
    wins = losses = ties = 0
    for board in itertools.combinations(rest, 5):
        mine, theirs = rank7(a, b, *board), rank7(c, d, *board)
        if mine < theirs:
            wins += 1
        elif mine > theirs:
            losses += 1
        else:
            ties += 1
    return wins, losses, ties


def eval7_monte_carlo() -> float:
    """eval7's hero equity from as many Monte Carlo samples as there are boards."""
    hero = [eval7.Card(str(c)) for c in parse_cards(HERO)]
    return float(eval7.py_hand_vs_range_monte_carlo(hero, eval7.HandRange(VILLAIN), [], BOARDS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per contender (best kept)")
    repeat = parser.parse_args().repeat
    print(machine())
    print(f"{HERO} vs {VILLAIN} preflop: {BOARDS:,} boards, {2 * BOARDS:,} seven-card hands")
    (cold,), _ = timed(ours, 1)
    our_times, counts = timed(ours, repeat)
    phe_times, phe_counts = timed(phevaluator_loop, max(1, repeat // 2))
    e7_times, e7_equity = timed(eval7_monte_carlo, max(1, repeat // 2))
    mc_times, mc = timed(lambda: equity([HERO, None], iterations=1_000_000, seed=1), 3)
    best, phe_best = min(our_times), min(phe_times)
    assert counts == phe_counts, (counts, phe_counts)
    share = (counts[0] + counts[2] / 2) / BOARDS
    print(f"  ours, exact             {best:7.3f} s  (median {statistics.median(our_times):.3f},"
          f" first call {cold:.3f})  equity {share:.4%} / {1 - share:.4%}, "
          f"win/lose/tie {counts[0]:,}/{counts[1]:,}/{counts[2]:,}")
    print(f"  phevaluator loop, exact {phe_best:7.3f} s  same counts; ours is "
          f"{phe_best / best:.1f}x faster (target >= {TARGET_RATIO:.0f}x)")
    print(f"  eval7 Monte Carlo       {min(e7_times):7.3f} s  equity {e7_equity:.4%} "
          f"(not exact); ours exact is {min(e7_times) / best:.1f}x faster")
    print(f"  ours, Monte Carlo vs ?? {min(mc_times):7.3f} s  1,000,000 deals, "
          f"{1_000_000 / min(mc_times) / 1e6:.1f}M deals/s, equity "
          f"{mc.hands[0].equity:.4%} ± {mc.hands[0].stderr:.4%}")
    verdict = "met" if best < TARGET_SECONDS and phe_best / best >= TARGET_RATIO else "MISSED"
    print(f"  target: exact under {TARGET_SECONDS} s and >= {TARGET_RATIO:.0f}x phevaluator: "
          f"{verdict}")


if __name__ == "__main__":
    main()
