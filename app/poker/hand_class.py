"""The 169 preflop hand classes: ``AA``, ``AKs``, ``AKo`` ... ``32o``.

Two hole cards belong to one class: a pair (6 combos), suited (4) or offsuit (12)
ranks. Classes are numbered in a fixed order, pairs from ``AA`` down, then suited and
offsuit hands from ``AK`` down, so a class index can be stored in a table or a count.

>>> from app.poker.cards import parse_cards
>>> [CLASS_NAMES[class_of(parse_cards(h))] for h in ("AsAd", "Kh9h", "7c2d")]
['AA', 'K9s', '72o']
>>> sum(CLASS_COMBOS) == 1326
True
"""

from __future__ import annotations

from itertools import combinations

from app.poker.cards import RANKS, Card

CLASSES = 169


def _names() -> tuple[str, ...]:
    pairs = [RANKS[r] * 2 for r in range(12, -1, -1)]
    suited, offsuit = [], []
    for high in range(12, 0, -1):
        for low in range(high - 1, -1, -1):
            suited.append(f"{RANKS[high]}{RANKS[low]}s")
            offsuit.append(f"{RANKS[high]}{RANKS[low]}o")
    return (*pairs, *suited, *offsuit)


CLASS_NAMES: tuple[str, ...] = _names()
_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}
CLASS_COMBOS: tuple[int, ...] = tuple(6 if len(n) == 2 else 4 if n[2] == "s" else 12
                                      for n in CLASS_NAMES)


def class_of(hole: tuple[Card, ...]) -> int:
    """The class index of two hole cards (natural cards)."""
    high, low = sorted(hole[:2], key=lambda c: c.rank, reverse=True)
    return class_of_ids(int(high), int(low))


def class_of_ids(a: int, b: int) -> int:
    """The class index of two card ids (``rank * 4 + suit``), in either order."""
    high, low = max(a // 4, b // 4), min(a // 4, b // 4)
    if high == low:
        return _INDEX[RANKS[high] * 2]
    kind = "s" if a % 4 == b % 4 else "o"
    return _INDEX[f"{RANKS[high]}{RANKS[low]}{kind}"]


def class_index(name: str) -> int:
    """The index of a class named like ``AKs``, ``TT`` or ``72o``.

    >>> class_index("AA"), class_index("32o")
    (0, 168)
    """
    return _INDEX[name]


def all_combos() -> list[tuple[int, int]]:
    """All 1,326 two-card combos as card-id pairs, in a stable order."""
    return list(combinations(range(52), 2))
