"""Equity of hand ranges: range against range exactly, any number of ranges by Monte Carlo.

A range stands for each of its combos with equal probability; a deal is a
combo for every player and a board, all cards distinct, every such deal
equally likely (as PokerStove and Equilab count them).

Two ranges are compared exactly when the work is bounded: every board is
ranked once against every combo of both ranges (:func:`app.poker.evaluator.
rank_on_boards`); on each board the second range's ranks are sorted, so each
combo of the first counts the combos it beats or ties by a binary search, and
the pairs of combos that share a card are taken back out one by one. A board
and its image under a relabelling of the suits that maps both ranges, the board
and the dead cards onto themselves are worth the same, so boards are taken one
per orbit, weighted by its size: preflop, when both ranges are closed under every
relabelling (``QQ+,AKs`` is), 134,459 suit patterns stand for all 2,598,960
boards; ``AhKh`` against ``QQ+,AKs`` keeps the six relabellings that leave hearts
alone, and 433,000 or so boards stand for them. A single hand is a range of one
combo, and is counted exactly the same way.

The work of an exact answer is known before it starts: boards times (combos of
both ranges plus pairs of combos that share a card), :func:`range_equity_work`.
Past :data:`EXACT_WORK`, or with more than two ranges, ``iterations`` deals are
sampled (seeded) and each equity has its standard error. Boards are handled a
chunk at a time, so an answer holds about :data:`_CHUNK_CELLS` cells of work
in memory whatever its size.

>>> r = range_equity(["QQ+,AKs", "AhKd"], board="Ks 7d 2c")
>>> r.exact, [round(h.equity, 4) for h in r.hands]
(True, [0.4354, 0.5646])
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product
from math import comb, factorial

import numpy as np
import numpy.typing as npt

from app.poker.cards import Card, DeckExhausted
from app.poker.equity import (
    DEFAULT_ITERATIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    InvalidBoard,
    InvalidPlayerCount,
    InvalidSampling,
    check_distinct,
    combination_ids,
    natural_cards,
)
from app.poker.evaluator import rank_batch, rank_on_boards
from app.poker.ranges import InvalidRange, parse_range

# Work (see app.poker.equity.RANKED_HAND_WORK) of one exact answer at most: a cell is one
# combo or one pair of combos sharing a card on one board, and each board costs as much as
# _BOARD_WORK cells besides. About three seconds on one core; past it, sample.
EXACT_WORK = 100_000_000
_BOARD_WORK = 32
# Work of finding one board's orbit, per relabelling tried (about the cost of 4 cells).
_ORBIT_WORK = 4
# Work of one hand of a sampled deal (dealt, ranked and compared one deal at a time).
SAMPLED_HAND_WORK = 32
_CHUNK_CELLS = 1 << 20  # cells of work held in memory at once (a few tens of MB)
_NEVER = 16_000  # the second range's rank where its combo shares a card with the board
_RANK_SPAN = 1 << 14  # above every rank and _NEVER: each board's ranks get their own span
_SAMPLE_CHUNK = 1 << 15
Ids = npt.NDArray[np.int64]
BoardIds = npt.NDArray[np.uint8] | Ids  # (boards, 5) card ids


class RangeConflict(InvalidRange):
    """A range left with no combo once the board, the dead cards and the other hands are
    taken out (or ranges that can never be dealt together)."""

    code = "range_conflict"


@dataclass(frozen=True, slots=True)
class RangeShare:
    """One range's result: ``win`` alone, ``tie`` for best, ``equity`` with ties split,
    ``stderr`` of the equity (0.0 when exact), and how many of its combos are live."""

    range: str
    combos: int
    win: float
    tie: float
    equity: float
    stderr: float


@dataclass(frozen=True, slots=True)
class RangeEquityResult:
    """Per-range results in input order; ``deals`` deals were counted (weighted when exact)."""

    hands: tuple[RangeShare, ...]
    exact: bool
    deals: int


def range_equity(
    ranges: Sequence[str],
    board: str | Sequence[Card] = (),
    dead: str | Sequence[Card] = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    exact_work: int = EXACT_WORK,
) -> RangeEquityResult:
    """Win, tie and equity of 2 to 9 ranges (exact for two when the work allows).

    Exact when :func:`range_equity_work` of the exact answer is at most ``exact_work``;
    otherwise ``iterations`` deals sampled with ``numpy.random.default_rng(seed)``.
    """
    if seed < 0:
        raise InvalidSampling(f"need seed >= 0, got {seed}", seed=seed)
    spot = _prepare(ranges, board, dead, iterations=iterations, exact_work=exact_work)
    if spot.exact_cells is not None:
        return _exact(ranges, spot.combos, *_boards(spot.board, spot.dead, spot.group))
    return _sampled(ranges, spot.combos, spot.board, spot.taken, iterations, seed)


def range_equity_work(
    ranges: Sequence[str],
    board: str | Sequence[Card] = (),
    dead: str | Sequence[Card] = (),
    *,
    iterations: int = DEFAULT_ITERATIONS,
    exact_work: int = EXACT_WORK,
) -> int:
    """The work :func:`range_equity` would do, known before it starts: for the exact
    answer, boards x (combos of both ranges + pairs of combos sharing a card + a board's
    own cost), else ``iterations`` x ranges x :data:`SAMPLED_HAND_WORK`.

    >>> range_equity_work(["QQ+,AKs", "AhKd"], board="Ks 7d 2c")
    68208
    >>> range_equity_work(["AA", "KK", "QQ"], iterations=1000)
    96000
    """
    spot = _prepare(ranges, board, dead, iterations=iterations, exact_work=exact_work)
    if spot.exact_cells is not None:
        return spot.exact_cells
    return iterations * len(ranges) * SAMPLED_HAND_WORK


@dataclass(frozen=True, slots=True)
class _RangeSpot:
    """A validated question: live combos, known cards, and the exact answer's cells when
    it is within the work allowed (else ``None``: sample)."""

    combos: list[Ids]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    taken: set[int]
    exact_cells: int | None
    group: tuple[tuple[int, ...], ...] = ()


def _prepare(ranges: Sequence[str], board: str | Sequence[Card], dead: str | Sequence[Card],
             *, iterations: int, exact_work: int) -> _RangeSpot:
    if iterations < 1 or exact_work < 0:
        raise InvalidSampling(f"need iterations >= 1 and exact_work >= 0, got {iterations} "
                              f"and {exact_work}", iterations=iterations, exact_work=exact_work)
    if not MIN_PLAYERS <= len(ranges) <= MAX_PLAYERS:
        raise InvalidPlayerCount(f"equity needs {MIN_PLAYERS} to {MAX_PLAYERS} ranges, got "
                                 f"{len(ranges)}", count=len(ranges))
    board_cards, dead_cards = natural_cards(board), natural_cards(dead)
    if len(board_cards) not in (0, 3, 4, 5):
        raise InvalidBoard(f"a board has 0, 3, 4 or 5 cards, got {len(board_cards)}",
                           count=len(board_cards))
    check_distinct([*board_cards, *dead_cards])
    taken = {int(c) for c in (*board_cards, *dead_cards)}
    combos = [_live(text, taken) for text in ranges]
    if len(ranges) != 2:
        return _RangeSpot(combos, board_cards, dead_cards, taken, None)
    apart = _disjoint(*combos)
    if not apart.any():
        raise RangeConflict("these ranges can never be dealt together")
    per_board = len(combos[0]) + len(combos[1]) + int(apart.size - apart.sum()) + _BOARD_WORK
    cells, group = _exact_plan(combos, board_cards, dead_cards, per_board)
    return _RangeSpot(combos, board_cards, dead_cards, taken,
                      cells if cells <= exact_work else None, group)


def _live(text: str, taken: set[int]) -> Ids:
    """The combos of a range (``??``: any two cards) that avoid the known cards."""
    combos = (list(combinations(range(52), 2)) if text.strip() == "??"
              else [(int(a), int(b)) for a, b in parse_range(text)])
    live = [(a, b) for a, b in combos if a not in taken and b not in taken]
    if not live:
        raise RangeConflict(f"no combo of {text!r} is left beside the board and dead cards",
                            range=text)
    return np.array(live, dtype=np.int64)


# ---- exact: every board, every pair of combos ----------------------------------------


def _exact_plan(combos: list[Ids], board: tuple[Card, ...], dead: tuple[Card, ...],
                per_board: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The work of the exact answer and the relabellings its boards are taken under: every
    board, or one per orbit (:func:`_symmetries`) when that is less work, finding the
    orbits included."""
    group = _symmetries(combos, board, dead)
    if not board and not dead and len(group) == len(_PERMUTATIONS):
        return len(_suit_patterns()[0]) * per_board, group
    unseen, size = _unseen(board, dead), 5 - len(board)
    every = comb(len(unseen), size) * per_board
    if len(group) > 1:
        orbits = (_orbit_count(unseen, size, group) * per_board
                  + comb(len(unseen), size) * len(group) * _ORBIT_WORK)
        if orbits < every:
            return orbits, group
    return every, ()


def _boards(board: tuple[Card, ...], dead: tuple[Card, ...],
            group: tuple[tuple[int, ...], ...]) -> tuple[BoardIds, Ids]:
    """The boards to count and their weights: one per orbit of ``group`` weighted by its
    size (the suit patterns when that is every relabelling), or every board once."""
    if not board and not dead and len(group) == len(_PERMUTATIONS):
        return _suit_patterns()
    # One byte a card: 2,598,960 boards take 13 MB.
    tails = combination_ids(_unseen(board, dead), 5 - len(board)).astype(np.uint8)
    weights = np.ones(len(tails), np.int64)
    if group:
        tails, weights = _orbits(tails, group)
    fixed = np.tile(np.array([int(c) for c in board], dtype=np.uint8), (len(tails), 1))
    return np.concatenate([fixed, tails], axis=1), weights


def _unseen(board: tuple[Card, ...], dead: tuple[Card, ...]) -> list[int]:
    return sorted(set(range(52)) - {int(c) for c in (*board, *dead)})


_PERMUTATIONS = tuple(permutations(range(4)))


def _relabel(card: int, perm: tuple[int, ...]) -> int:
    return card - card % 4 + perm[card % 4]


def _symmetries(combos: list[Ids], board: tuple[Card, ...], dead: tuple[Card, ...]
                ) -> tuple[tuple[int, ...], ...]:
    """The relabellings of the suits that map every range, the board and the dead cards
    onto themselves: each deal and its relabelling are worth the same to every range.

    ``QQ+,AKs`` against ``AhKh`` preflop keeps the six that leave hearts alone.
    """
    known = [frozenset(int(c) for c in cards) for cards in (board, dead)]
    ranges = [{frozenset(map(int, combo)) for combo in rows} for rows in combos]

    def kept(perm: tuple[int, ...]) -> bool:
        def moved(cards: frozenset[int]) -> frozenset[int]:
            return frozenset(_relabel(card, perm) for card in cards)
        return (all(moved(cards) == cards for cards in known)
                and all({moved(combo) for combo in have} == have for have in ranges))

    return tuple(perm for perm in _PERMUTATIONS if kept(perm))


def _orbit_count(unseen: list[int], size: int, group: tuple[tuple[int, ...], ...]) -> int:
    """How many orbits the group makes of the ``size``-card subsets of ``unseen`` (Burnside:
    the average number of subsets each relabelling leaves as they are, which are the unions
    of its cycles)."""
    total = 0
    for perm in group:
        subsets, seen = [1] + [0] * size, set()
        for card in unseen:
            if card in seen:
                continue
            length, at = 0, card
            while at not in seen:
                seen.add(at)
                at, length = _relabel(at, perm), length + 1
            for k in range(size, length - 1, -1):
                subsets[k] += subsets[k - length]
        total += subsets[size]
    return total // len(group)


def _orbits(tails: npt.NDArray[np.uint8], group: tuple[tuple[int, ...], ...]
            ) -> tuple[npt.NDArray[np.uint8], Ids]:
    """One row per orbit of ``tails`` under ``group`` and the number of rows it stands for.

    A row stands for its orbit when no relabelling makes a lower set of cards of it; the
    orbit has ``len(group)`` rows over the number of relabellings that leave it as it is.
    """
    maps = np.array([[_relabel(card, perm) for card in range(52)] for perm in group],
                    dtype=np.int64)
    keep = np.zeros(len(tails), np.bool_)
    sizes = np.zeros(len(tails), np.int64)
    step = max(1, _CHUNK_CELLS // len(group))
    for start in range(0, len(tails), step):
        part = slice(start, start + step)
        masks = np.bitwise_or.reduce(np.int64(1) << maps[:, tails[part]], axis=2)
        own = np.bitwise_or.reduce(np.int64(1) << tails[part].astype(np.int64), axis=1)
        keep[part] = (masks >= own).all(axis=0)
        sizes[part] = len(group) // (masks == own).sum(axis=0)
    return tails[keep], sizes[keep]


@cache
def _suit_patterns() -> tuple[Ids, Ids]:
    """One board per suit pattern of five cards, with how many boards it stands for.

    A board is four rank sets, one per suit; relabelling suits permutes them, so
    the patterns are the multisets of four rank sets holding five ranks in all
    (listed here in decreasing order), each standing for 24 / (k1! k2! ...) boards
    where k are the numbers of equal rank sets.
    """
    by_count = {n: [m for m in range(1 << 13) if m.bit_count() == n] for n in range(6)}
    rows: list[tuple[int, ...]] = []

    def choose(left: int, masks: tuple[int, ...], top: tuple[int, int]) -> None:
        if len(masks) == 4:
            if left == 0:
                rows.append(masks)
            return
        for n in range(min(left, top[0]), -1, -1):
            some = by_count[n][: bisect_right(by_count[n], top[1])] if n == top[0] else (
                by_count[n])
            for mask in some:
                choose(left - n, (*masks, mask), (n, mask))

    choose(5, (), (5, (1 << 13) - 1))
    masks = np.array(rows, dtype=np.int64)
    bits = (masks[:, :, None] >> np.arange(13)) & 1  # (patterns, suit, rank)
    cards = np.nonzero(bits.transpose(0, 2, 1).reshape(len(masks), 52))[1].reshape(-1, 5)
    same = masks[:, 1:] == masks[:, :-1]
    weights = np.array([_RELABELLINGS[tuple(row)] for row in same.tolist()], dtype=np.int64)
    return cards.astype(np.int64), weights


def _relabellings(same: tuple[bool, ...]) -> int:
    """24 / (k1! k2! ...) for runs of equal neighbours in a sorted row of four rank sets."""
    runs, length = [], 1
    for equal in same:
        if equal:
            length += 1
        else:
            runs.append(length)
            length = 1
    runs.append(length)
    divisor = 1
    for run in runs:
        divisor *= factorial(run)
    return 24 // divisor


_RELABELLINGS = {same: _relabellings(same) for same in product((False, True), repeat=3)}


def _exact(ranges: Sequence[str], combos: list[Ids], boards: BoardIds, weights: Ids
           ) -> RangeEquityResult:
    first, second = combos
    # The pairs of combos that can never be dealt together (they share a card).
    clash_a, clash_b = np.nonzero(~_disjoint(first, second))
    step = max(1, _CHUNK_CELLS // (len(first) + len(second) + len(clash_a)))
    deals = won = tied = 0
    for start in range(0, len(boards), step):
        part = slice(start, start + step)
        live, wins, ties = _count(boards[part], first, second, clash_a, clash_b)
        deals += int(live @ weights[part])
        won += int(wins @ weights[part])
        tied += int(ties @ weights[part])
    if deals == 0:
        raise RangeConflict("these ranges can never be dealt together")
    lost = deals - won - tied
    shares = (RangeShare(ranges[0], len(first), won / deals, tied / deals,
                         (won + tied / 2) / deals, 0.0),
              RangeShare(ranges[1], len(second), lost / deals, tied / deals,
                         (lost + tied / 2) / deals, 0.0))
    return RangeEquityResult(shares, True, deals)


def _count(boards: BoardIds, first: Ids, second: Ids, clash_a: Ids, clash_b: Ids
           ) -> tuple[Ids, Ids, Ids]:
    """Per board: pairs of combos dealt with it, pairs the first range wins, pairs tied.

    A combo that shares a card with the board never wins or ties: the first range's rank
    0 is below every rank, the second range's :data:`_NEVER` above every rank.
    """
    ranks_a = rank_on_boards(boards, first)
    ranks_b = rank_on_boards(boards, second)
    ranks_b[ranks_b == 0] = _NEVER
    # Every board's ranks in a span of their own, so one search serves every board.
    spans = np.arange(len(boards), dtype=np.int64)[:, None] * _RANK_SPAN
    ordered = (np.sort(ranks_b, axis=1) + spans).ravel()
    before = np.arange(len(boards), dtype=np.int64) * len(second)
    queries = ranks_a + spans
    below = np.searchsorted(ordered, queries, side="left").sum(axis=1) - before * len(first)
    up_to = np.searchsorted(ordered, queries, side="right").sum(axis=1) - before * len(first)
    live = np.count_nonzero(ranks_a > 0, axis=1) * np.count_nonzero(ranks_b != _NEVER, axis=1)
    a, b = ranks_a[:, clash_a], ranks_b[:, clash_b]
    live -= np.count_nonzero((a > 0) & (b != _NEVER), axis=1)
    wins = below - np.count_nonzero(a > b, axis=1)
    ties = up_to - below - np.count_nonzero(a == b, axis=1)
    return live, wins, ties


def _disjoint(first: Ids, second: Ids) -> npt.NDArray[np.bool_]:
    one = np.int64(1)
    bits_a = (one << first[:, 0]) | (one << first[:, 1])
    bits_b = (one << second[:, 0]) | (one << second[:, 1])
    apart: npt.NDArray[np.bool_] = (bits_a[:, None] & bits_b[None, :]) == 0
    return apart


# ---- sampled: random combos and boards ---------------------------------------------------


def _sampled(ranges: Sequence[str], combos: list[Ids], board: tuple[Card, ...],
             taken: set[int], iterations: int, seed: int) -> RangeEquityResult:
    rng = np.random.default_rng(seed)
    players = len(combos)
    share_sum = np.zeros(players)
    share_squares = np.zeros(players)
    wins = np.zeros(players, np.int64)
    ties = np.zeros(players, np.int64)
    done = 0
    while done < iterations:
        size = min(_SAMPLE_CHUNK, iterations - done)
        holes = _sample_holes(combos, rng, size)
        boards = _complete_boards(holes, board, taken, rng)
        ranks = np.stack([_rank_rows(boards, holes[p]) for p in range(players)])
        top = ranks == ranks.max(axis=0)
        sharing = top.sum(axis=0)
        shares = top / sharing
        share_sum += shares.sum(axis=1)
        share_squares += (shares ** 2).sum(axis=1)
        wins += np.count_nonzero(top & (sharing == 1), axis=1)
        ties += np.count_nonzero(top & (sharing > 1), axis=1)
        done += size
    means = share_sum / iterations
    errors = np.sqrt(np.maximum(share_squares / iterations - means ** 2, 0.0) / iterations)
    out = tuple(RangeShare(ranges[p], len(combos[p]), int(wins[p]) / iterations,
                           int(ties[p]) / iterations, float(means[p]), float(errors[p]))
                for p in range(players))
    return RangeEquityResult(out, False, iterations)


def _sample_holes(combos: list[Ids], rng: np.random.Generator, size: int) -> Ids:
    """(players, size, 2) combos, one per player per deal, no card twice in a deal."""
    players = len(combos)
    holes = np.empty((players, size, 2), np.int64)
    pending = np.arange(size)
    for _ in range(1000):
        for p, live in enumerate(combos):
            holes[p, pending] = live[rng.integers(0, len(live), len(pending))]
        bits = np.zeros(len(pending), np.int64)
        clash = np.zeros(len(pending), bool)
        for p in range(players):
            for k in range(2):
                bit = np.int64(1) << holes[p, pending, k]
                clash |= (bits & bit) != 0
                bits |= bit
        pending = pending[clash]
        if not pending.size:
            return holes
    raise RangeConflict("these ranges can (almost) never be dealt together")


def _complete_boards(holes: Ids, board: tuple[Card, ...], taken: set[int],
                     rng: np.random.Generator) -> Ids:
    """Each deal's board: the known cards, then random unseen ones."""
    size = holes.shape[1]
    keys = rng.random((size, 52))
    if taken:
        keys[:, sorted(taken)] = 2.0
    rows = np.arange(size)[:, None]
    keys[rows, holes.transpose(1, 0, 2).reshape(size, -1)] = 2.0
    rest = 5 - len(board)
    if rest > 52 - len(taken) - 2 * holes.shape[0]:
        raise DeckExhausted("not enough cards left for the board")
    drawn = np.argpartition(keys, rest, axis=1)[:, :rest] if rest else np.empty((size, 0))
    fixed = np.tile(np.array([int(c) for c in board], dtype=np.int64), (size, 1))
    return np.concatenate([fixed, drawn.astype(np.int64)], axis=1)


def _rank_rows(boards: Ids, holes: Ids) -> npt.NDArray[np.int64]:
    """Ranks of row i's hole cards on row i's board."""
    return rank_batch(np.concatenate([boards, holes], axis=1))
