"""Who is paid what: a payout table by entrants, in whole credits.

Sit & go sizes use the usual fixed tables; from 11 entrants about 15% of the
field is paid, with shares falling off as 1/place (so first takes about a
fifth of a 300-player pool and the last paid place still wins more than its
buy-in). Shares are in basis points (1/100 of a percent) so that they add up
to exactly 10,000. Each prize is the pool times its share rounded down to a
whole credit; what rounding leaves over goes to first place.

>>> payout_shares(9)
(5000, 3000, 2000)
>>> prizes(1001, 9)
(501, 300, 200)
>>> sum(prizes(123_457, 300)) == 123_457
True
"""

from __future__ import annotations

BASIS = 10_000

_SMALL: tuple[tuple[int, tuple[int, ...]], ...] = (
    (3, (10_000,)),
    (6, (6_500, 3_500)),
    (10, (5_000, 3_000, 2_000)),
)


def paid_places(entrants: int) -> int:
    """How many places are paid for this many entries (at least one)."""
    return len(payout_shares(entrants))


def payout_shares(entrants: int) -> tuple[int, ...]:
    """Each paid place's share of the pool in basis points, first place first."""
    for most, shares in _SMALL:
        if entrants <= most:
            return shares
    places = max(4, entrants * 15 // 100)
    weights = [1.0 / place for place in range(1, places + 1)]
    total = sum(weights)
    computed = [int(BASIS * w / total) for w in weights]
    computed[0] += BASIS - sum(computed)
    return tuple(computed)


def prizes(pool: int, entrants: int) -> tuple[int, ...]:
    """Whole-credit prizes for each paid place; they add up to ``pool`` exactly."""
    amounts = [pool * share // BASIS for share in payout_shares(entrants)]
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


def split_tie(amounts: list[int]) -> list[int]:
    """Share the prizes of tied places equally; odd credits go one each from the first.

    >>> split_tie([300, 200])
    [250, 250]
    >>> split_tie([100, 0, 0])
    [34, 33, 33]
    """
    whole, odd = divmod(sum(amounts), len(amounts))
    return [whole + (1 if i < odd else 0) for i in range(len(amounts))]
