"""The Independent Chip Model, and an ICM deal in whole credits.

ICM (Malmuth-Harville) values a stack as the prize money it wins on average
if each player's chance of finishing first is their share of the chips, and
the same holds for each later place among those left. It is exact here
(every finishing order is counted, with memoisation), which is fast for a
final table of up to ten.

>>> [round(x, 2) for x in icm_equities([5000, 3000, 2000], [50, 30, 20])]
[38.39, 32.75, 28.86]
>>> icm_deal([5000, 3000, 2000], [50, 30, 20])
[38, 33, 29]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from app.errors import HoldemError

MAX_PLAYERS = 10


class InvalidDeal(HoldemError):
    """A deal that cannot be computed (too many players, no chips, ...)."""

    code = "invalid_deal"


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Each stack's expected prize money; the values add up to the prizes paid."""
    n = len(stacks)
    if not 1 <= n <= MAX_PLAYERS:
        raise InvalidDeal(f"expected 1 to {MAX_PLAYERS} players in a deal, got {n}")
    if any(s <= 0 for s in stacks):
        raise InvalidDeal("expected every player in a deal to have chips")
    paid = list(prizes[:n]) + [0] * max(0, n - len(prizes))
    chips = tuple(stacks)

    @cache
    def value(left: int, place: int) -> tuple[float, ...]:
        """Expected winnings of each player when ``left`` (bitmask) fight for ``place`` on."""
        out = [0.0] * n
        if place >= n or not left:
            return tuple(out)
        total = sum(chips[i] for i in range(n) if left >> i & 1)
        for i in range(n):
            if left >> i & 1:
                p = chips[i] / total
                out[i] += p * paid[place]
                rest = value(left & ~(1 << i), place + 1)
                for j in range(n):
                    out[j] += p * rest[j]
        return tuple(out)

    return list(value((1 << n) - 1, 0))


def icm_deal(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The ICM equities rounded to whole credits that add up to the prizes exactly.

    Each gets the floor of its equity; the credits left go one at a time to
    the largest fractions (ties: the bigger stack, then the earlier player).
    """
    equities = icm_equities(stacks, prizes)
    total = sum(prizes[: len(stacks)])
    amounts = [int(e) for e in equities]
    order = sorted(
        range(len(stacks)), key=lambda i: (-(equities[i] - amounts[i]), -stacks[i], i)
    )
    for i in order[: total - sum(amounts)]:
        amounts[i] += 1
    return amounts
