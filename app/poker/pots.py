"""Main and side pots, uncalled bets and odd chips.

Positions in every sequence here are the hand's seat order: clockwise,
starting with the first seat left of the button (the button is last). That
order is what makes the odd-chip rule "one chip at a time, clockwise from the
left of the button" a plain left-to-right walk.

>>> build_pots([100, 100, 40], [True, True, True])
[Pot(amount=120, eligible=(0, 1, 2)), Pot(amount=120, eligible=(0, 1))]
>>> split_pot(11, [0, 2, 4])
[4, 4, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot of ``amount`` chips that only the ``eligible`` positions can win."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributions: Sequence[int], contending: Sequence[bool], dead: int = 0
) -> list[Pot]:
    """Main pot first, then side pots, by contribution level.

    Every seat's chips (folded ones too) feed each level up to what it put in;
    a level is won only by contending seats that reached it. Neighbouring
    levels with the same contenders are one pot. ``dead`` money (a big-blind
    ante) goes to the main pot, and folded chips above the highest contending
    level go to the last pot.

    >>> build_pots([50, 200, 200], [False, True, True])
    [Pot(amount=450, eligible=(1, 2))]
    """
    levels = sorted({c for c, live in zip(contributions, contending, strict=True) if live and c})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(i for i, c in enumerate(contributions) if contending[i] and c >= level)
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - previous for c in contributions if c > previous)
    if not pots:
        eligible = tuple(i for i, live in enumerate(contending) if live)
        return [Pot(leftover + dead, eligible)] if leftover + dead else []
    if leftover:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    if dead:
        pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
    return pots


def uncalled_bet(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(position, amount)`` of the part of the largest bet nobody matched, if any.

    >>> uncalled_bet([100, 400, 250])
    (1, 150)
    >>> uncalled_bet([100, 100]) is None
    True
    """
    if len(bets) < 2:
        return None
    top = max(range(len(bets)), key=bets.__getitem__)
    second = max(b for i, b in enumerate(bets) if i != top)
    return (top, bets[top] - second) if bets[top] > second else None


def split_pot(amount: int, winners: Sequence[int]) -> list[int]:
    """Shares of ``amount`` for ``winners`` (positions in seat order).

    Each winner gets an equal share; the odd chips left over go one at a time
    to the winners in clockwise order starting left of the button, that is in
    ascending position order. The shares are returned in the order of
    ``winners``.
    """
    share, odd = divmod(amount, len(winners))
    lucky = set(sorted(winners)[:odd])
    return [share + (1 if w in lucky else 0) for w in winners]


def split_between_runs(amount: int) -> tuple[int, int]:
    """A pot run twice: the halves settled on the first and on the second board. The
    first board's half takes the odd chip.

    >>> split_between_runs(101)
    (51, 50)
    """
    return amount - amount // 2, amount // 2
