"""Push or fold: which hands to move all-in with, and which to call with, when short.

With 15 big blinds or fewer (:data:`PUSH_FOLD_BB`) there is no room to raise and
fold: a bot moves all-in or folds, and calls an all-in by the price. The ranges
come from ``data/pushfold.json``, computed by :mod:`app.poker.preflop_build` with
the project's own equity table: the heads-up chip-EV equilibrium of the push/fold
game over the 169 hand classes (fictitious play), and, with more players left to
act, the best response to callers who answer with theirs. Like the published
charts, each class is stored as the largest effective stack (in big blinds, in
halves up to 20) at which it is pushed, per number of players left behind.

>>> from app.poker.hand_class import class_index
>>> pushes(class_index("AA"), 15, behind=8), pushes(class_index("72o"), 15, behind=8)
(True, False)
>>> pushes(class_index("K2s"), 10, behind=1)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.poker.hand_class import CLASS_COMBOS, CLASS_NAMES, CLASSES

CHART = Path(__file__).with_name("data") / "pushfold.json"
PUSH_FOLD_BB = 15.0
MAX_BEHIND = 8


@dataclass(frozen=True, slots=True)
class PushFoldChart:
    """Per class, the largest stack (big blinds) it is pushed at with 1 to 8 players
    behind, and called at in the big blind against a small blind's push."""

    push: tuple[tuple[float, ...], ...]
    call: tuple[float, ...]


@cache
def chart() -> PushFoldChart:
    """The shipped chart (read once)."""
    data = json.loads(CHART.read_text())
    if tuple(data["classes"]) != CLASS_NAMES:
        raise ValueError(f"expected the chart's classes in the order of {CLASS_NAMES[:3]}...")
    return PushFoldChart(tuple(tuple(row) for row in data["push"]), tuple(data["call"]))


def _behind(behind: int) -> int:
    return min(MAX_BEHIND, max(1, behind))


def pushes(hand_class: int, stack_bb: float, *, behind: int) -> bool:
    """Whether the chart moves all-in with ``hand_class`` at ``stack_bb`` effective big
    blinds into an unopened pot with ``behind`` players left to act."""
    return stack_bb <= chart().push[_behind(behind) - 1][hand_class] + 1e-9


def calls(hand_class: int, stack_bb: float) -> bool:
    """Whether the big blind calls a small blind's push (the heads-up equilibrium)."""
    return stack_bb <= chart().call[hand_class] + 1e-9


def push_range(stack_bb: float, *, behind: int) -> frozenset[int]:
    """The classes the chart pushes at this stack and position."""
    return _push_range(round(stack_bb * 2) / 2, _behind(behind))


@cache
def _push_range(stack_bb: float, behind: int) -> frozenset[int]:
    row = chart().push[behind - 1]
    return frozenset(c for c in range(CLASSES) if stack_bb <= row[c] + 1e-9)


def push_fraction(stack_bb: float, *, behind: int) -> float:
    """The share of all combos the chart pushes at this stack and position."""
    return sum(CLASS_COMBOS[c] for c in push_range(stack_bb, behind=behind)) / 1326
