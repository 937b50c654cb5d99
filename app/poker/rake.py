"""Rake: the house's share of a pot, taken when the hand settles.

The rules (the usual ones of online cash games):

- **A percentage of the pot**, rounded down to whole chips, with a **cap** that
  depends on how many players were dealt in (a heads-up pot usually pays less).
- **No flop, no drop**: a hand that ends before the flop is dealt pays nothing (a
  table may turn this off).
- **Only chips that were called are raked**: an uncalled bet goes back to its owner
  before the pots are formed, so it is never part of the pot raked.
- **Taken once, before anything is awarded**: from a hand run twice too, the pots are
  raked before each is split between the boards.
- **From every pot in proportion** to its size (main and side pots alike), in whole
  chips: each pot pays the rounded-down share of its size, and the chips left go one
  at a time to the pots with the largest remainders, the main pot first on a tie. So a
  short all-in who can only win the main pot pays for that pot only, in proportion.

>>> rule = RakeRule(percent_hundredths=500, caps=((2, 3), (3, 6)))
>>> rule.amount(120, players=2, flop=True), rule.amount(120, players=4, flop=True)
(3, 6)
>>> rule.amount(120, players=4, flop=False)
0
>>> split_rake(5, [100, 40, 10])
[4, 1, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.poker.errors import InvalidHandSetup

MAX_PERCENT_HUNDREDTHS = 1000  # 10 %
MIN_PLAYERS, MAX_PLAYERS = 2, 10


@dataclass(frozen=True, slots=True)
class RakeRule:
    """A table's rake: ``percent_hundredths`` (500 is 5 %) of each pot, at most the cap of
    the largest ``caps`` entry ``(players, cap)`` whose ``players`` is not above the
    number dealt in (no entry applies: uncapped); with ``no_flop_no_drop`` nothing from a
    hand that ended before the flop."""

    percent_hundredths: int
    caps: tuple[tuple[int, int], ...] = ()
    no_flop_no_drop: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.percent_hundredths <= MAX_PERCENT_HUNDREDTHS:
            raise InvalidHandSetup(f"expected a rake of 0 to 10 %, got "
                                   f"{self.percent_hundredths / 100} %")
        players = [p for p, _ in self.caps]
        if players != sorted(set(players)):
            raise InvalidHandSetup(f"expected rake caps for distinct player counts in "
                                   f"increasing order, got {players}")
        for count, cap in self.caps:
            if not MIN_PLAYERS <= count <= MAX_PLAYERS or cap < 0:
                raise InvalidHandSetup(f"expected a rake cap for 2 to 10 players of 0 or "
                                       f"more chips, got {cap} for {count}")

    @property
    def percent(self) -> float:
        """The percentage as players read it (``5.0``, ``2.5``)."""
        return self.percent_hundredths / 100

    def cap_for(self, players: int) -> int | None:
        """The cap of a hand dealt to ``players`` (None: uncapped).

        >>> RakeRule(500, caps=((2, 1), (3, 2), (5, 3))).cap_for(4)
        2
        """
        cap: int | None = None
        for count, amount in self.caps:
            if count <= players:
                cap = amount
        return cap

    def amount(self, pot: int, *, players: int, flop: bool) -> int:
        """The rake of a ``pot`` (the chips called into it, every pot together) of a hand
        dealt to ``players`` that reached the flop (``flop``) or not."""
        if pot <= 0 or (self.no_flop_no_drop and not flop):
            return 0
        rake = pot * self.percent_hundredths // 10_000
        cap = self.cap_for(players)
        return rake if cap is None else min(rake, cap)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (the table's config and the API's ``rake`` object)."""
        return {"percent": self.percent,
                "caps": [{"players": p, "cap": c} for p, c in self.caps],
                "no_flop_no_drop": self.no_flop_no_drop}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RakeRule:
        """Inverse of :meth:`to_dict`."""
        return cls(percent_hundredths=round(float(data["percent"]) * 100),
                   caps=tuple((int(c["players"]), int(c["cap"])) for c in data.get("caps", ())),
                   no_flop_no_drop=bool(data.get("no_flop_no_drop", True)))


def split_rake(rake: int, pots: Sequence[int]) -> list[int]:
    """What each pot (main pot first) pays of ``rake``, in proportion to its size, whole
    chips, the odd chips to the largest remainders (the main pot first on a tie).

    >>> split_rake(3, [60, 60])
    [2, 1]
    >>> split_rake(0, [60, 60])
    [0, 0]
    """
    total = sum(pots)
    if rake <= 0 or total <= 0:
        return [0] * len(pots)
    if rake > total:
        raise ValueError(f"expected a rake of at most the pot {total}, got {rake}")
    shares = [rake * amount // total for amount in pots]
    remainders = [rake * amount % total for amount in pots]
    left = rake - sum(shares)
    for k in sorted(range(len(pots)), key=lambda k: (-remainders[k], k))[:left]:
        shares[k] += 1
    return shares
