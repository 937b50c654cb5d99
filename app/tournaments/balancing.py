"""Table balancing and breaking, by the TDA rules (the choices we made).

Between hands, with the tables' seats as they are:

1. **Breaking.** When the players left fit at fewer tables, tables break in
   a fixed order: the highest-numbered table first. Its players are seated
   one by one, in seat order, at the table with the fewest players (ties:
   the lowest number), in an empty seat drawn at random (the RNG is
   injected). The final table forms this way when everyone fits at one.
2. **Balancing.** While the biggest table has more than one player more
   than the smallest, one player moves from the biggest (ties: the highest
   number) to the smallest (ties: the lowest number). The player who would
   post the big blind next hand moves, into the empty seat that reaches the
   big blind soonest at the new table: the same position, or worse.

A table in the middle of a hand is never broken or moved from; players may
be seated at it (they are dealt in from its next hand) unless it is due to
break: a table that will break never receives players, and until it breaks
the others balance among themselves. So the moves wait until the table that
owes them finishes its hand, and after any balancing point at which every
table is between hands the tables differ by at most one.

>>> tables = [Seating(1, 3, {0: "a", 1: "b", 2: "c"}, button=0), Seating(2, 3, {0: "d"})]
>>> [(m.player, m.to_table, m.to_seat) for m in plan_moves(tables, rng=Random(1))]
[('a', 2, 1)]
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from random import Random
from typing import Any

from app.poker.blinds import Occupant, plan_next_hand


class MoveReason(StrEnum):
    """Why a player changes tables."""

    BALANCE = "balance"
    BREAK = "break"


@dataclass(slots=True)
class Seating:
    """One tournament table between hands: its seats (seat to entry id) and last button."""

    number: int
    size: int
    seats: dict[int, str] = field(default_factory=dict)
    button: int | None = None

    @property
    def empty_seats(self) -> list[int]:
        """Free seat numbers, lowest first."""
        return [n for n in range(self.size) if n not in self.seats]

    def copy(self) -> Seating:
        """An independent copy."""
        return replace(self, seats=dict(self.seats))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (seat numbers become strings)."""
        return {
            "number": self.number, "size": self.size, "button": self.button,
            "seats": {str(k): v for k, v in self.seats.items()},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seating:
        """Inverse of :meth:`to_dict`."""
        seats = {int(k): str(v) for k, v in data["seats"].items()}
        return cls(int(data["number"]), int(data["size"]), seats, data["button"])


@dataclass(frozen=True, slots=True)
class Move:
    """One player changing tables."""

    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason


def next_big_blind(table: Seating) -> int | None:
    """The seat that posts the big blind in the table's next hand (None under two players)."""
    plan = plan_next_hand(_occupants(table.seats), previous_button=table.button)
    return plan.big_blind if plan else None


def hands_until_big_blind(table: Seating, seat: int) -> int:
    """How many hands are dealt at ``table`` before a player in ``seat`` posts the big blind."""
    seats = {**table.seats, seat: "?"}
    button = table.button
    for hands in range(len(seats) + 1):
        plan = plan_next_hand(_occupants(seats), previous_button=button)
        if plan is None or plan.big_blind == seat:
            return hands
        button = plan.button
    return len(seats)


def tables_needed(players: int, size: int) -> int:
    """The fewest tables of ``size`` seats that hold ``players`` (at least one)."""
    return max(1, math.ceil(players / size))


def plan_moves(
    tables: Sequence[Seating], *, rng: Random, idle: Collection[int] | None = None
) -> list[Move]:
    """Every move due now, in order; ``idle`` are the tables between hands (default: all)."""
    work = {t.number: t.copy() for t in tables}
    free = set(work) if idle is None else set(idle)
    moves: list[Move] = []
    moves += _breaks(work, free, rng)
    moves += _balance(work, free)
    return moves


def apply_moves(tables: dict[int, Seating], moves: Sequence[Move]) -> None:
    """Carry out ``moves`` on ``tables``; a table left empty by a break is removed."""
    for m in moves:
        del tables[m.from_table].seats[m.from_seat]
        tables[m.to_table].seats[m.to_seat] = m.player
    for number in [n for n, t in tables.items() if not t.seats]:
        del tables[number]


def _breaks(work: dict[int, Seating], free: set[int], rng: Random) -> list[Move]:
    moves: list[Move] = []
    kept = _kept(work)
    for number in sorted(set(work) - kept, reverse=True):
        if number not in free:
            break  # the fixed order waits for this table's hand to end
        breaking = work.pop(number)
        for seat, player in sorted(breaking.seats.items()):
            target = min(
                (work[n] for n in kept if work[n].empty_seats),
                key=lambda t: (len(t.seats), t.number),
            )
            to_seat = rng.choice(target.empty_seats)
            target.seats[to_seat] = player
            moves.append(
                Move(player, breaking.number, seat, target.number, to_seat, MoveReason.BREAK)
            )
    return moves


def _balance(work: dict[int, Seating], free: set[int]) -> list[Move]:
    moves: list[Move] = []
    kept = _kept(work)  # a table due to break (still in a hand) neither gives nor receives
    while len(kept) > 1:
        counts = {n: len(work[n].seats) for n in kept}
        low = min(counts.values())
        sources = [n for n, c in counts.items() if c - low > 1 and n in free]
        if not sources:
            return moves
        source = work[max(sources, key=lambda n: (counts[n], n))]
        target = work[min(counts, key=lambda n: (counts[n], n))]
        seat = next_big_blind(source)
        if seat is None:
            return moves
        to_seat = min(target.empty_seats, key=lambda s: (hands_until_big_blind(target, s), s))
        player = source.seats.pop(seat)
        target.seats[to_seat] = player
        moves.append(
            Move(player, source.number, seat, target.number, to_seat, MoveReason.BALANCE)
        )
    return moves


def _kept(work: dict[int, Seating]) -> set[int]:
    """The tables that stay: the lowest numbers, as many as the players left need."""
    players = sum(len(t.seats) for t in work.values())
    size = max(t.size for t in work.values())
    return set(sorted(work)[: tables_needed(players, size)])


def _occupants(seats: dict[int, str]) -> dict[int, Occupant]:
    return {n: Occupant(1) for n in seats}
