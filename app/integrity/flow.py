"""Chip flow between players: who won how much from whom, hand by hand.

In one hand, what each winner won came from the losers in proportion to what each lost
(so what a loser lost is shared among the winners in proportion to what they won; with a
rake, what the winners took home, net of it). Summed over a period per pair of players,
the flow shows who feeds chips to whom; a flow that runs one way, and far, is what chip
dumping to a second account looks like. Pure functions on plain numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

HANDS_LISTED = 20  # the hands a pair's evidence names (the most recent)


def hand_flows(nets: Mapping[int, int]) -> dict[tuple[int, int], int]:
    """What flowed from each losing seat to each winning seat in one hand, in whole chips
    (rounded down), by ``(loser, winner)``.

    >>> hand_flows({0: 300, 1: -100, 2: -200})
    {(1, 0): 100, (2, 0): 200}
    >>> hand_flows({0: 90, 1: -100, 2: 10})
    {(1, 0): 90, (1, 2): 10}
    >>> hand_flows({0: 0, 1: 0})
    {}
    """
    losers = {seat: -net for seat, net in nets.items() if net < 0}
    winners = {seat: net for seat, net in nets.items() if net > 0}
    lost = sum(losers.values())
    flows: dict[tuple[int, int], int] = {}
    for loser, loss in losers.items():
        for winner, won in winners.items():
            amount = won * loss // lost
            if amount:
                flows[loser, winner] = amount
    return flows


@dataclass(slots=True)
class PairFlow:
    """What flowed between two people (``low`` < ``high`` by user id) over some hands,
    in chips and in big blinds of the hands it flowed in."""

    low: int
    high: int
    low_to_high: int = 0
    high_to_low: int = 0
    low_to_high_bb: float = 0.0
    high_to_low_bb: float = 0.0
    hands: int = 0
    hand_ids: list[str] = field(default_factory=list)

    @property
    def net(self) -> int:
        """What flowed one way less what flowed back, in chips (never negative)."""
        return abs(self.low_to_high - self.high_to_low)

    @property
    def net_bb(self) -> float:
        """:attr:`net` in big blinds."""
        return abs(self.low_to_high_bb - self.high_to_low_bb)

    @property
    def loser(self) -> int:
        """Who the net flow came from."""
        return self.low if self.low_to_high >= self.high_to_low else self.high

    @property
    def winner(self) -> int:
        """Who the net flow went to."""
        return self.high if self.loser == self.low else self.low

    @property
    def one_way(self) -> float:
        """The share of everything that flowed between them that went the net way (0.5:
        evenly, 1: only one way).

        >>> PairFlow(1, 2, low_to_high=90, high_to_low=10).one_way
        0.9
        """
        gross = self.low_to_high + self.high_to_low
        return max(self.low_to_high, self.high_to_low) / gross if gross else 0.0


def add_hand(pairs: dict[tuple[int, int], PairFlow], hand_id: str, big_blind: int,
             nets: Mapping[int, int], people: Mapping[int, int]) -> None:
    """Count one hand in ``pairs``: ``nets`` by seat (bots' seats too: they share in the
    flow), ``people`` the user id of each seat a person held."""
    touched: set[tuple[int, int]] = set()
    for (loser, winner), amount in hand_flows(nets).items():
        if loser not in people or winner not in people:
            continue
        a, b = people[loser], people[winner]
        key = (min(a, b), max(a, b))
        pair = pairs.setdefault(key, PairFlow(*key))
        in_bb = amount / big_blind if big_blind else 0.0
        if a < b:
            pair.low_to_high += amount
            pair.low_to_high_bb += in_bb
        else:
            pair.high_to_low += amount
            pair.high_to_low_bb += in_bb
        touched.add(key)
    for key in touched:
        pair = pairs[key]
        pair.hands += 1
        pair.hand_ids = [*pair.hand_ids, hand_id][-HANDS_LISTED:]
