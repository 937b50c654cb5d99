"""How the shipped preflop tables in ``app/poker/data/`` are computed.

Run ``python -m app.poker.preflop_build`` to compute them again (about a minute on
two cores); the bots only read the results (:mod:`app.poker.preflop`,
:mod:`app.poker.pushfold`).

``preflop_equity.npz``
    ``equity[i, j]``: the all-in equity of hand class ``i`` against class ``j``
    heads-up before the flop, and ``pairs[i, j]``: how many deals of one combo of
    each exist (card removal: ``AA`` against ``AKs`` is 6 x 4 - 12 = 12 deals). The
    equity of every pair of classes is a seeded Monte Carlo of :data:`SAMPLES`
    deals (random combos of both classes, a random board, ranked with
    :func:`app.poker.evaluator.rank_batch`): a standard error under 0.6 points.

``pushfold.json``
    Chip-EV push/fold ranges without antes, by effective stack (1 to 20 big blinds
    in halves) and players left to act behind the pusher (1 to 8). Heads-up (one
    player behind, the small blind against the big blind) is the equilibrium of
    the push/fold game over the 169 classes with card removal, found by fictitious
    play (:data:`ROUNDS` rounds of best responses averaged): the small blind
    pushes or folds, the big blind calls or folds. With more players behind, each
    of them calls with the best response to the pusher's range (pot odds, the
    dead blinds), the pusher is called by the first of them at most, and the
    pusher's range is the best response to that; again by fictitious play. That
    second part is an approximation of the multi-way equilibrium (no over-calls,
    no fold equity left over for later callers): its ranges come out a little
    tighter than the published multi-way Nash charts, which is the safe side.
    Each class is stored as the largest stack at which it is pushed (``push``,
    one row per number of players behind) and at which the big blind calls a
    small blind's push (``call``): the format of the published charts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.poker.evaluator import rank_batch
from app.poker.hand_class import CLASS_NAMES, CLASSES, all_combos, class_of_ids

DATA = Path(__file__).with_name("data")
SAMPLES = 8_000
ROUNDS = 400
STACKS = tuple(x / 2 for x in range(2, 41))  # 1 to 20 big blinds
MAX_BEHIND = 8
Matrix = npt.NDArray[np.float64]


def combo_table() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every combo (rows of two card ids) sorted by class, and each class's first row."""
    combos = sorted(all_combos(), key=lambda c: class_of_ids(*c))
    classes = np.array([class_of_ids(*c) for c in combos])
    starts = np.searchsorted(classes, np.arange(CLASSES + 1))
    return np.array(combos, dtype=np.int64), starts


def pair_weights() -> Matrix:
    """``pairs[i, j]``: deals of a combo of class ``i`` and one of class ``j`` sharing no card."""
    combos, starts = combo_table()
    bits = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    apart = (bits[:, None] & bits[None, :]) == 0
    counts = np.add.reduceat(np.add.reduceat(apart, starts[:-1], axis=0), starts[:-1], axis=1)
    return counts.astype(np.float64)


def equity_matrix(samples: int = SAMPLES, seed: int = 169) -> Matrix:
    """``equity[i, j]`` of class ``i`` against class ``j``, ``samples`` deals per pair."""
    rng = np.random.default_rng(seed)
    combos, starts = combo_table()
    first, second = np.triu_indices(CLASSES)
    totals = np.zeros(len(first))
    for part in np.array_split(np.arange(len(first)), 256):
        pair = np.repeat(part, samples)
        shares = _shares(rng, combos, starts, first[pair], second[pair])
        totals[part] = np.bincount(pair - part[0], shares, minlength=len(part))
    equity = np.full((CLASSES, CLASSES), 0.5)
    equity[first, second] = totals / samples
    equity[second, first] = 1.0 - totals / samples
    np.fill_diagonal(equity, 0.5)  # a class against itself: even, by symmetry
    return equity


def _shares(rng: np.random.Generator, combos: npt.NDArray[np.int64],
            starts: npt.NDArray[np.int64], mine: npt.NDArray[np.int64],
            theirs: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """One deal per row: a random combo of each class, a board; the first hand's share."""
    size = len(mine)
    holes = np.empty((size, 4), np.int64)
    todo = np.arange(size)
    while todo.size:
        a = combos[starts[mine[todo]] + rng.integers(0, 1 << 30, todo.size)
                   % (starts[mine[todo] + 1] - starts[mine[todo]])]
        b = combos[starts[theirs[todo]] + rng.integers(0, 1 << 30, todo.size)
                   % (starts[theirs[todo] + 1] - starts[theirs[todo]])]
        holes[todo] = np.hstack([a, b])
        todo = todo[~_distinct(holes[todo])]
    board = np.empty((size, 5), np.int64)
    todo = np.arange(size)
    while todo.size:
        board[todo] = rng.integers(0, 52, (todo.size, 5))
        todo = todo[~_distinct(np.hstack([holes[todo], board[todo]]))]
    first = rank_batch(np.hstack([holes[:, :2], board]))
    other = rank_batch(np.hstack([holes[:, 2:], board]))
    won: npt.NDArray[np.float64] = (first > other) + 0.5 * (first == other)
    return won


def _distinct(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    ordered = np.sort(cards, axis=1)
    apart: npt.NDArray[np.bool_] = np.all(ordered[:, 1:] != ordered[:, :-1], axis=1)
    return apart


# ---- push or fold -----------------------------------------------------------------


def heads_up(equity: Matrix, pairs: Matrix, stack: float) -> tuple[Matrix, Matrix]:
    """Equilibrium push range of the small blind and call range of the big blind at
    ``stack`` big blinds (fractions of each class), by fictitious play."""
    push, call = np.ones(CLASSES), np.ones(CLASSES)
    for t in range(1, ROUNDS + 1):
        called = (equity * 2 * stack - stack)  # small blind's result when called
        ev_push = ((pairs * ((1 - call) * 1.0 + call * called)).sum(1) / pairs.sum(1))
        best_push = (ev_push > -0.5).astype(float)
        weights = pairs * push[:, None]
        seen = weights.sum(0)
        ev_call = (weights * ((1 - equity) * 2 * stack - stack)).sum(0)
        best_call = (ev_call > -np.maximum(seen, 1e-12)).astype(float)
        push += (best_push - push) / (t + 1)
        call += (best_call - call) / (t + 1)
    return push, call


def multi_way(equity: Matrix, pairs: Matrix, stack: float, behind: int) -> Matrix:
    """Push range with ``behind`` players left to act, each calling with the best
    response to it (see the module's description of this approximation)."""
    push, call = np.ones(CLASSES), np.ones(CLASSES)
    share = pairs.sum(1) / pairs.sum()
    pot = 2 * stack + 0.5  # both stacks and the blind that is not the caller's
    for t in range(1, ROUNDS + 1):
        against = pairs * call[None, :]
        eq_called = (against * equity).sum(1) / np.maximum(against.sum(1), 1e-12)
        q = float((share * call).sum())
        none = (1 - q) ** behind
        ev_push = none * 1.5 + (1 - none) * (eq_called * pot - stack)
        best_push = (ev_push > 0).astype(float)
        facing = pairs * push[:, None]
        eq_call = (facing * (1 - equity)).sum(0) / np.maximum(facing.sum(0), 1e-12)
        best_call = (eq_call * pot - stack > 0).astype(float)
        push += (best_push - push) / (t + 1)
        call += (best_call - call) / (t + 1)
    return push


def chart(equity: Matrix, pairs: Matrix) -> dict[str, object]:
    """The push and call charts: per class, the largest stack it is played at."""
    push = np.zeros((MAX_BEHIND, CLASSES))
    call = np.zeros(CLASSES)
    for stack in STACKS:
        small_blind, big_blind = heads_up(equity, pairs, stack)
        push[0] = np.where(small_blind >= 0.5, stack, push[0])
        call = np.where(big_blind >= 0.5, stack, call)
        for behind in range(2, MAX_BEHIND + 1):
            ranged = multi_way(equity, pairs, stack, behind)
            push[behind - 1] = np.where(ranged >= 0.5, stack, push[behind - 1])
    return {
        "classes": list(CLASS_NAMES), "max_stack": STACKS[-1],
        "push": [[float(x) for x in row] for row in push],
        "call": [float(x) for x in call],
    }


def main() -> None:
    """Compute both tables and write them to ``app/poker/data/``."""
    pairs = pair_weights()
    equity = equity_matrix()
    np.savez_compressed(DATA / "preflop_equity.npz",
                        equity=np.round(equity * 60_000).astype(np.uint16),
                        pairs=pairs.astype(np.uint16))
    (DATA / "pushfold.json").write_text(json.dumps(chart(equity, pairs), indent=0) + "\n")


if __name__ == "__main__":
    main()
