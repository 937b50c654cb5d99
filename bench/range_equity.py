"""Exact range-against-range equity preflop: ours against the best Python alternatives.

QQ+,AKs against 22+,A2s+ (22 x 126 combos, 2,442 matchups that share no card,
4,181,446,368 deals). Nothing installable enumerates ranges exactly, so in the
same run this times: ours exact (app/poker/range_equity.py); eval7's
``py_all_hands_vs_range`` (C, Monte Carlo per hero combo, weighted here by each
combo's live matchups); pokerkit's ``calculate_equities`` (Monte Carlo); and the
exact answer by a loop over phevaluator's C ``evaluate_7cards``, timed on one
matchup and multiplied by the number of matchups. Prints the machine, times,
equities and each sample's error against the exact answer.

    .venv/bin/python bench/range_equity.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from importlib.metadata import version

import eval7
from equity import machine, timed
from phevaluator import _pheval
from pokerkit import Deck, StandardHighHand, calculate_equities
from pokerkit import parse_range as pokerkit_range

from app.poker.range_equity import range_equity
from app.poker.ranges import parse_range

HERO, VILLAIN = "QQ+,AKs", "22+,A2s+"
TARGET_SECONDS = 1.0


def matchups() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every pair of combos that share no card."""
    first = [(int(a), int(b)) for a, b in parse_range(HERO)]
    second = [(int(a), int(b)) for a, b in parse_range(VILLAIN)]
    return [(a, b) for a in first for b in second if not set(a) & set(b)]


def ours() -> float:
    result = range_equity([HERO, VILLAIN])
    assert result.exact
    return result.hands[0].equity


def eval7_monte_carlo(per_combo: int) -> float:
    """eval7's equity of each hero combo, weighted by the villain combos it can meet."""
    shares = eval7.py_all_hands_vs_range(eval7.HandRange(HERO), eval7.HandRange(VILLAIN), [],
                                         per_combo)
    villains = [frozenset(str(c) for c in hand) for hand, _ in eval7.HandRange(VILLAIN).hands]
    total = weight = 0.0
    for hand, share in shares.items():
        cards = {str(c) for c in hand}
        live = sum(1 for v in villains if not v & cards)
        total += share * live
        weight += live
    return total / weight


def pokerkit_monte_carlo(samples: int) -> float:
    ranges = (pokerkit_range(HERO), pokerkit_range(VILLAIN))
    return float(calculate_equities(ranges, (), 2, 5, Deck.STANDARD, (StandardHighHand,),
                                    sample_count=samples)[0])


def phevaluator_one_matchup() -> int:
    """One matchup exactly: every board, two C calls each; the hero's wins."""
    rank7 = _pheval.evaluate_7cards
    (a, b), (c, d) = matchups()[0]
    rest = [i for i in range(52) if i not in (a, b, c, d)]
    return sum(rank7(a, b, *board) < rank7(c, d, *board)
               for board in itertools.combinations(rest, 5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of ours (best kept)")
    repeat = parser.parse_args().repeat
    print(machine())
    print(f"pokerkit {version('pokerkit')}")
    pairs = len(matchups())
    print(f"{HERO} vs {VILLAIN} preflop: {pairs:,} matchups")
    (cold,), _ = timed(ours, 1)
    our_times, exact = timed(ours, repeat)
    print(f"  ours, exact            {min(our_times):7.3f} s  (median "
          f"{statistics.median(our_times):.3f}, first call {cold:.3f})  equity {exact:.4%}")
    for per_combo in (100_000, 1_000_000):
        (seconds,), share = timed(lambda n=per_combo: eval7_monte_carlo(n), 1)
        print(f"  eval7 MC, {per_combo:>9,} per combo {seconds:7.3f} s  equity {share:.4%} "
              f"(off by {share - exact:+.4%})")
    (seconds,), share = timed(lambda: pokerkit_monte_carlo(20_000), 1)
    print(f"  pokerkit MC, 20,000     {seconds:7.3f} s  equity {share:.4%} "
          f"(off by {share - exact:+.4%})")
    (one,), _ = timed(phevaluator_one_matchup, 1)
    print(f"  phevaluator loop, exact {one * pairs:7.0f} s  (one matchup {one:.2f} s x {pairs:,})")
    sampled = range_equity([HERO, VILLAIN], exact_work=0, iterations=1_000_000, seed=1)
    (seconds,), _ = timed(lambda: range_equity([HERO, VILLAIN], exact_work=0,
                                               iterations=1_000_000, seed=1), 1)
    mine = sampled.hands[0]
    print(f"  ours MC, 1,000,000      {seconds:7.3f} s  equity {mine.equity:.4%} ± "
          f"{mine.stderr:.4%} (off by {mine.equity - exact:+.4%})")
    verdict = "met" if min(our_times) < TARGET_SECONDS else "MISSED"
    print(f"  target: exact under {TARGET_SECONDS} s: {verdict}")


if __name__ == "__main__":
    main()
