"""Soft-play and bot-like play signals, from plain data about stored hands.

- **Soft play**: two people both still in after the flop many times, and neither ever
  betting or raising while the other was still in.
- **Bot-like play**: decisions whose times to act hardly vary (a very low standard
  deviation over many decisions), or a session of very many hours without a break.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from app.integrity.flow import HANDS_LISTED

SESSION_BREAK = timedelta(minutes=15)  # a pause at least this long ends a session


@dataclass(frozen=True, slots=True)
class Action:
    """A betting action: on which street (0 before the flop, 1 flop, 2 turn, 3 river), by
    which seat, and what (``f`` fold, ``cc`` check or call, ``cbr`` bet or raise)."""

    street: int
    seat: int
    code: str


@dataclass(slots=True)
class SharedPots:
    """Two people's pots together after the flop, and how often either bet into the
    other."""

    low: int
    high: int
    hands: int = 0
    aggression: int = 0
    hand_ids: list[str] = field(default_factory=list)


def _postflop_pairs(actions: Sequence[Action], people: dict[int, int]
                    ) -> dict[tuple[int, int], int]:
    """The pairs of people both in after the flop of one hand, with the bets and raises
    either made while the other was still in."""
    folded = {a.seat for a in actions if a.street == 0 and a.code == "f"}
    if not any(a.street >= 1 for a in actions):
        return {}
    seats = sorted(s for s in people if s not in folded)
    pairs = {(a, b): 0 for i, a in enumerate(seats) for b in seats[i + 1:]}
    out: set[int] = set(folded)
    for action in actions:
        if action.street >= 1 and action.code == "cbr":
            for a, b in pairs:
                other = b if action.seat == a else a if action.seat == b else None
                if other is not None and other not in out:
                    pairs[a, b] += 1
        if action.code == "f":
            out.add(action.seat)
    return pairs


def add_shared_pots(shared: dict[tuple[int, int], SharedPots], hand_id: str,
                    actions: Sequence[Action], people: dict[int, int]) -> None:
    """Count one hand (its betting ``actions``; ``people``: the user id of each person's
    seat) in ``shared``, by pair of user ids."""
    for (a, b), bets in _postflop_pairs(actions, people).items():
        x, y = people[a], people[b]
        key = (min(x, y), max(x, y))
        pots = shared.setdefault(key, SharedPots(*key))
        pots.hands += 1
        pots.aggression += bets
        pots.hand_ids = [*pots.hand_ids, hand_id][-HANDS_LISTED:]


def soft_play(shared: Iterable[SharedPots], *, min_hands: int) -> list[SharedPots]:
    """The pairs in at least ``min_hands`` pots together after the flop, neither ever
    betting or raising into the other.

    >>> quiet, fighting = SharedPots(1, 2, hands=40), SharedPots(1, 3, hands=40, aggression=9)
    >>> [(p.low, p.high) for p in soft_play([quiet, fighting], min_hands=30)]
    [(1, 2)]
    """
    return [p for p in shared if p.hands >= min_hands and p.aggression == 0]


@dataclass(frozen=True, slots=True)
class Timing:
    """A person's decision times: how many, their mean and standard deviation (seconds)."""

    decisions: int
    mean: float
    spread: float


def timing(seconds: Sequence[float]) -> Timing:
    """The count, mean and standard deviation of decision times.

    >>> timing([1.0, 1.0, 1.0])
    Timing(decisions=3, mean=1.0, spread=0.0)
    """
    if not seconds:
        return Timing(0, 0.0, 0.0)
    spread = statistics.pstdev(seconds) if len(seconds) > 1 else 0.0
    return Timing(len(seconds), round(statistics.fmean(seconds), 3), round(spread, 3))


def robotic(found: Timing, *, min_decisions: int, max_spread: float) -> bool:
    """Whether times this regular over this many decisions look like a program's."""
    return found.decisions >= min_decisions and found.spread < max_spread


@dataclass(frozen=True, slots=True)
class Session:
    """Play without a break: from the first hand's start to the last hand's end."""

    started: datetime
    ended: datetime
    hands: int

    @property
    def hours(self) -> float:
        """How long it lasted, in hours."""
        return (self.ended - self.started).total_seconds() / 3600


def longest_session(hands: Iterable[tuple[datetime, datetime]]) -> Session | None:
    """The longest stretch of hands (``(started, ended)`` each) with no pause of
    :data:`SESSION_BREAK` between one's end and the next one's start (hands at several
    tables at once overlap: one session)."""
    best: Session | None = None
    current: Session | None = None
    for started, ended in sorted(hands):
        if current is not None and started - current.ended < SESSION_BREAK:
            current = Session(current.started, max(current.ended, ended), current.hands + 1)
        else:
            current = Session(started, ended, 1)
        if best is None or current.ended - current.started > best.ended - best.started:
            best = current
    return best
