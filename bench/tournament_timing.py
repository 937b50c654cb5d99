"""What bench/tournament.py measures, from what its observer recorded: how long each
listed table of a tournament stayed silent, and how long each player moved between
tables stood unseated (pure; times are seconds on the observer's clock).

A table's silences are the times between its consecutive messages while it is listed
(from the first listing that shows it to the last), the edges of the listing counted as
messages, less any break. A silence that overlaps hand-for-hand play is kept apart: a
table that played its hand of the round waits for the others by design.

>>> polls = [Poll(0.0, True, False, False, frozenset({"t1"})),
...          Poll(9.0, True, False, False, frozenset({"t1"}))]
>>> [s.seconds for s in silences("t1", [(1.0, "hand_started"), (4.0, "hand_ended")], polls)]
[1.0, 3.0, 5.0]
>>> seen = [Seen(1.0, "t2", "ann", "left", 500), Seen(1.2, "t1", "ann", "sat", 500)]
>>> [(m.from_table, m.to_table, round(m.seconds, 1)) for m in moves(seen)[0]]
[('t2', 't1', 0.2)]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

CLOSE_SLACK = 2.0  # a table's closing stands everyone up just before its table_closed


@dataclass(frozen=True, slots=True)
class Span:
    """An interval of the observer's clock."""

    start: float
    end: float

    def overlap(self, other: Span) -> float:
        """Seconds this span shares with ``other``."""
        return max(0.0, min(self.end, other.end) - max(self.start, other.start))


@dataclass(frozen=True, slots=True)
class Poll:
    """One reading of ``GET /tournaments/{id}``: when, the state, the table ids listed."""

    at: float
    running: bool
    on_break: bool
    hand_for_hand: bool
    tables: frozenset[str]


@dataclass(frozen=True, slots=True)
class Silence:
    """A time without a message at a listed table, with what came before and after."""

    table: str
    start: float
    end: float
    on_break: float
    hand_for_hand: bool
    before: str
    after: str

    @property
    def seconds(self) -> float:
        """How long the table was silent outside breaks."""
        return self.end - self.start - self.on_break


@dataclass(frozen=True, slots=True)
class Seen:
    """A seat change the observer saw at a table: a player sat or left (with their
    chips), or the table closed (``player`` empty)."""

    at: float
    table: str
    player: str
    kind: Literal["sat", "left", "closed"]
    chips: int = 0


@dataclass(frozen=True, slots=True)
class Move:
    """A player who left one table with chips and sat at another."""

    player: str
    from_table: str
    to_table: str
    left: float
    sat: float

    @property
    def seconds(self) -> float:
        """How long the player had no seat (0 when the new seat came first)."""
        return max(0.0, self.sat - self.left)


def runs(polls: Sequence[Poll], keep: Callable[[Poll], bool], *, padded: bool) -> list[Span]:
    """The spans over which consecutive polls satisfy ``keep``: from the first such poll to
    the last, or, ``padded``, from the poll before the run to the poll after it (a state
    seen only by polls began and ended somewhere between them)."""
    spans: list[Span] = []
    first: int | None = None
    for i, poll in enumerate([*polls, None]):
        if poll is not None and keep(poll):
            first = i if first is None else first
            continue
        if first is not None:
            last = i - 1
            if padded:
                spans.append(Span(polls[max(first - 1, 0)].at, polls[min(i, len(polls) - 1)].at))
            else:
                spans.append(Span(polls[first].at, polls[last].at))
            first = None
    return spans


def silences(table: str, marks: Sequence[tuple[float, str]], polls: Sequence[Poll]
             ) -> list[Silence]:
    """Every silence of ``table`` while the running tournament listed it; ``marks`` are the
    times of its messages with a label each (the event type)."""
    listed = runs(polls, lambda p: p.running and table in p.tables, padded=False)
    breaks = runs(polls, lambda p: p.on_break, padded=True)
    hand_for_hand = runs(polls, lambda p: p.hand_for_hand, padded=True)
    found = []
    for span in listed:
        inside = sorted(m for m in marks if span.start <= m[0] <= span.end)
        points = [(span.start, "listed"), *inside, (span.end, "last listed")]
        for (a, before), (b, after) in pairwise(points):
            gap = Span(a, b)
            if b > a:
                found.append(Silence(table, a, b, sum(gap.overlap(x) for x in breaks),
                                     any(gap.overlap(h) > 0 for h in hand_for_hand),
                                     before, after))
    return found


def moves(seen: Iterable[Seen]) -> tuple[list[Move], list[Seen]]:
    """Each player's leaving a table with chips paired with their sitting at another: the
    moves, and the leavings never followed by a seat (a bust leaves with no chips, and the
    closing of the last table stands the winner up: neither is a move, nor one still to
    be made)."""
    ordered = sorted(seen, key=lambda s: s.at)
    closed = {s.table: s.at for s in ordered if s.kind == "closed"}
    pending: dict[str, Seen] = {}
    seated: dict[str, Seen] = {}
    early: dict[str, Seen] = {}  # sat at the new table before leaving the old one
    found: list[Move] = []
    for s in ordered:
        if s.kind == "sat":
            left = pending.pop(s.player, None)
            if left is not None and left.table != s.table:
                found.append(Move(s.player, left.table, s.table, left.at, s.at))
            elif s.player in seated and seated[s.player].table != s.table:
                early[s.player] = s
            seated[s.player] = s
        elif s.kind == "left":
            first = early.pop(s.player, None)
            if s.chips <= 0:
                pending.pop(s.player, None)
            elif first is not None and first.table != s.table:
                found.append(Move(s.player, s.table, first.table, s.at, first.at))
            else:
                pending[s.player] = s
    unseated = [s for s in pending.values()
                if not 0 <= closed.get(s.table, -math.inf) - s.at <= CLOSE_SLACK]
    return found, sorted(unseated, key=lambda s: s.at)


def figures(values: Sequence[float]) -> dict[str, Any]:
    """Count, max, p95 (nearest rank) and mean, in seconds to the millisecond."""
    if not values:
        return {"count": 0, "max": None, "p95": None, "mean": None}
    ordered = sorted(values)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return {"count": len(ordered), "max": round(ordered[-1], 3), "p95": round(p95, 3),
            "mean": round(sum(ordered) / len(ordered), 3)}
