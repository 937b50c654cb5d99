"""Finishing places: busts in order, and the prizes they win.

Players knocked out in the same hand (or, during hand-for-hand play, in the
same round of hands at different tables) form one *bust group*: within it the
bigger stack at the start of the hand finishes higher, and players who
started with equal stacks tie and share the prizes of the places they cover.
Ranking a hand-for-hand round's busts at different tables this way is our
choice (the online rooms' "synchronized hand"); the TDA's hand-for-hand rule
would tie them all instead.
Places are counted from the bottom once the field is known, so an early
bust during late registration still ends up behind every later entry.

>>> groups = [[("e", 300)], [("c", 500), ("d", 900)]]
>>> [(f.player, f.place) for f in finishes(groups, entries=4, winner="a")]
[('a', 1), ('d', 2), ('c', 3), ('e', 4)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from app.tournaments.payouts import split_tie

BustGroup = Sequence[tuple[str, int]]
"""The players out in one hand (or hand-for-hand round), each with their starting stack."""


@dataclass(frozen=True, slots=True)
class Finish:
    """One entry's finishing place; ``tied`` counts the entries sharing it."""

    player: str
    place: int
    tied: int = 1


def finishes(groups: Sequence[BustGroup], *, entries: int, winner: str | None) -> list[Finish]:
    """Places of the winner and every busted entry, best first."""
    out: list[Finish] = []
    below = entries
    for group in groups:
        ranked = sorted(group, key=lambda p: -p[1])
        covered = below - len(group) + 1
        for _, same in groupby(ranked, key=lambda p: p[1]):
            tied = list(same)
            place = covered
            out.extend(Finish(player, place, len(tied)) for player, _ in tied)
            covered += len(tied)
        below -= len(group)
    if winner is not None:
        out.append(Finish(winner, 1))
    return sorted(out, key=lambda f: (f.place, f.player))


def awards(results: Sequence[Finish], prizes: Sequence[int]) -> dict[str, int]:
    """Each paid player's prize; tied players share the prizes of the places they cover."""
    out: dict[str, int] = {}
    for place, same in groupby(sorted(results, key=lambda f: (f.place, f.player)),
                               key=lambda f: f.place):
        tied = list(same)
        amounts = [_prize(prizes, place + k) for k in range(len(tied))]
        for f, amount in zip(tied, split_tie(amounts), strict=True):
            if amount:
                out[f.player] = amount
    return out


def _prize(prizes: Sequence[int], place: int) -> int:
    return prizes[place - 1] if place <= len(prizes) else 0


def standing(stacks: Mapping[str, int], player: str) -> int:
    """A live player's rank by chips among those still in (1 = chip leader)."""
    mine = stacks[player]
    return 1 + sum(1 for other, chips in stacks.items() if chips > mine and other != player)
