"""Preflop equity of a hand class against the top of the range, from a shipped table.

:mod:`app.poker.preflop_build` computed, once, the heads-up all-in equity of every
hand class against every other with card removal (``data/preflop_equity.npz``).
Classes are ordered by their equity against a random hand; "the top 20%" is the
strongest classes of that order holding 20% of the 1,326 combos (the last one in
part). The equity of a class against such a range is a weighted sum over the
table, read from running sums: a decision costs a few lookups, not a Monte Carlo.

>>> from app.poker.hand_class import class_index
>>> [round(equity_vs_top(class_index(c), 1.0), 2) for c in ("QQ", "AKo")]
[0.8, 0.65]
>>> percentile(class_index("AA")) < percentile(class_index("72o"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.poker.hand_class import CLASS_COMBOS, CLASSES

TABLE = Path(__file__).with_name("data") / "preflop_equity.npz"
_SCALE = 60_000  # equities are stored as integers out of this
MIN_FRACTION = 0.01  # the narrowest range read: about AA and KK


@dataclass(frozen=True, slots=True)
class _Tables:
    equity: npt.NDArray[np.float64]  # equity[i, j]: class i against class j
    pairs: npt.NDArray[np.float64]  # deals of a combo of each class sharing no card
    order: npt.NDArray[np.int64]  # classes from the strongest
    position: npt.NDArray[np.int64]  # position[class]: its place in ``order``
    edges: npt.NDArray[np.float64]  # combos before each place in ``order`` (170 values)
    weights: npt.NDArray[np.float64]  # running sums of deals, (class, place + 1)
    shares: npt.NDArray[np.float64]  # running sums of deals x equity, (class, place + 1)


@cache
def _tables() -> _Tables:
    with np.load(TABLE) as data:
        equity = data["equity"].astype(np.float64) / _SCALE
        pairs = data["pairs"].astype(np.float64)
    against_any = (equity * pairs).sum(1) / pairs.sum(1)
    order = np.argsort(-against_any, kind="stable")
    position = np.empty(CLASSES, np.int64)
    position[order] = np.arange(CLASSES)
    combos = np.array(CLASS_COMBOS, np.float64)[order]
    zero = np.zeros((CLASSES, 1))
    weights = np.hstack([zero, np.cumsum(pairs[:, order], axis=1)])
    shares = np.hstack([zero, np.cumsum((pairs * equity)[:, order], axis=1)])
    return _Tables(equity, pairs, order, position, np.concatenate([[0.0], np.cumsum(combos)]),
                   weights, shares)


def equity_vs_top(hand_class: int, fraction: float) -> float:
    """All-in equity of ``hand_class`` against the strongest ``fraction`` of hands.

    ``fraction`` is clamped to [:data:`MIN_FRACTION`, 1]; 1.0 is any two cards.
    """
    t = _tables()
    target = min(1.0, max(MIN_FRACTION, fraction)) * t.edges[-1]
    place = min(int(np.searchsorted(t.edges, target, side="right")) - 1, CLASSES - 1)
    part = (target - t.edges[place]) / (t.edges[place + 1] - t.edges[place])
    row_w, row_s = t.weights[hand_class], t.shares[hand_class]
    weight = row_w[place] + part * (row_w[place + 1] - row_w[place])
    share = row_s[place] + part * (row_s[place + 1] - row_s[place])
    return float(share / weight) if weight > 0 else 0.5


def percentile(hand_class: int) -> float:
    """Where a class stands among all hands, from 0 (the best) to 1: the share of
    combos in stronger classes plus half its own."""
    t = _tables()
    place = int(t.position[hand_class])
    return float((t.edges[place] + t.edges[place + 1]) / 2 / t.edges[-1])


def equity_vs_classes(hand_class: int, classes: frozenset[int]) -> float:
    """All-in equity of ``hand_class`` against a range made of whole classes."""
    t = _tables()
    members = np.fromiter(classes, np.int64)
    weights = t.pairs[hand_class, members]
    total = float(weights.sum())
    return float(weights @ t.equity[hand_class, members]) / total if total > 0 else 0.5
