"""A tournament's structure: starting stack, blind levels with antes, breaks.

A structure is a list of periods played one after another on the tournament
clock: :class:`Level` (blinds, ante, minutes) and :class:`Break` (minutes).
The last level lasts for ever. :func:`position` says where the clock is
after ``elapsed`` seconds of play.

>>> turbo = preset("turbo")
>>> position(turbo, 0).level.stakes().to_dict()
{'small_blind': 10, 'big_blind': 20, 'ante': 0, 'big_blind_ante': False, 'straddle': 0}
>>> p = position(turbo, 5 * 60 + 30)
>>> (p.index, p.level.big_blind, p.remaining)
(1, 30, 270)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from app.errors import HoldemError
from app.poker.state import Stakes


class InvalidStructure(HoldemError):
    """A structure that cannot be played (no levels, blinds out of order, ...)."""

    code = "invalid_structure"


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level: blinds, ante (per seat, or one big-blind ante) and its length."""

    small_blind: int
    big_blind: int
    minutes: int
    ante: int = 0
    big_blind_ante: bool = False

    def stakes(self) -> Stakes:
        """The engine's :class:`Stakes` for hands dealt in this level."""
        return Stakes(self.small_blind, self.big_blind, self.ante, self.big_blind_ante)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "kind": "level", "small_blind": self.small_blind, "big_blind": self.big_blind,
            "ante": self.ante, "big_blind_ante": self.big_blind_ante, "minutes": self.minutes,
        }


@dataclass(frozen=True, slots=True)
class Break:
    """A pause between levels: no hands are dealt."""

    minutes: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {"kind": "break", "minutes": self.minutes}


Period = Level | Break


@dataclass(frozen=True, slots=True)
class Structure:
    """Starting stack and periods; late registration is open for ``late_levels`` levels."""

    starting_stack: int
    periods: tuple[Period, ...]
    late_levels: int = 0
    name: str = "custom"

    def __post_init__(self) -> None:
        verify_structure(self)

    @property
    def levels(self) -> tuple[Level, ...]:
        """The levels only, in order."""
        return tuple(p for p in self.periods if isinstance(p, Level))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data; :func:`structure_from_dict` reads it back."""
        return {
            "name": self.name, "starting_stack": self.starting_stack,
            "late_levels": self.late_levels, "periods": [p.to_dict() for p in self.periods],
        }


def structure_from_dict(data: dict[str, Any]) -> Structure:
    """Inverse of :meth:`Structure.to_dict` (raises :class:`InvalidStructure`)."""
    try:
        periods: list[Period] = []
        for p in data["periods"]:
            if p["kind"] == "break":
                periods.append(Break(int(p["minutes"])))
            else:
                periods.append(Level(
                    int(p["small_blind"]), int(p["big_blind"]), int(p["minutes"]),
                    int(p.get("ante", 0)), bool(p.get("big_blind_ante", False)),
                ))
        return Structure(
            int(data["starting_stack"]), tuple(periods), int(data.get("late_levels", 0)),
            str(data.get("name", "custom")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidStructure(f"expected a structure, got {exc!r}") from None


def verify_structure(s: Structure) -> None:
    """Raise :class:`InvalidStructure` unless every level can be dealt."""
    if s.starting_stack <= 0:
        raise InvalidStructure(f"expected a positive starting stack, got {s.starting_stack}")
    levels = s.levels
    if not levels or not isinstance(s.periods[0], Level):
        raise InvalidStructure("expected the structure to start with a level")
    if any(p.minutes <= 0 for p in s.periods):
        raise InvalidStructure("expected every level and break to last at least a minute")
    for level in levels:
        if not 0 < level.small_blind <= level.big_blind or level.ante < 0:
            raise InvalidStructure(
                f"expected 0 < small blind <= big blind and an ante of 0 or more, got {level}"
            )
    if any(b.big_blind < a.big_blind for a, b in pairwise(levels)):
        raise InvalidStructure("expected blinds that never go down")
    if not 0 <= s.late_levels <= len(levels):
        raise InvalidStructure(
            f"expected late registration for 0 to {len(levels)} levels, got {s.late_levels}"
        )


@dataclass(frozen=True, slots=True)
class ClockPosition:
    """Where the tournament clock is: the period in play and the seconds left in it.

    ``level`` is the level in play, or during a break the level that follows
    it; ``level_number`` counts levels from 1; ``remaining`` is ``None`` in
    the last level, which never ends.
    """

    index: int
    level: Level
    level_number: int
    on_break: bool
    remaining: int | None
    next_level: Level | None = field(default=None)


def position(s: Structure, elapsed: float) -> ClockPosition:
    """The clock after ``elapsed`` seconds of play since the first level began."""
    left = max(0.0, elapsed)
    number = 0
    for i, period in enumerate(s.periods):
        if isinstance(period, Level):
            number += 1
        seconds = period.minutes * 60
        last = i == len(s.periods) - 1
        if left < seconds or last:
            level, upcoming = _level_at(s.periods, i)
            on_break = isinstance(period, Break)
            remaining = None if last else int(seconds - left)
            shown = number + 1 if on_break else number
            return ClockPosition(i, level, shown, on_break, remaining, upcoming)
        left -= seconds
    raise AssertionError("unreachable: the last period never ends")


def _level_at(periods: Sequence[Period], i: int) -> tuple[Level, Level | None]:
    """The level in play at period ``i`` (after a break: the next one) and the one after."""
    later = [p for p in periods[i:] if isinstance(p, Level)]
    if isinstance(periods[i], Break):
        earlier = [p for p in periods[:i] if isinstance(p, Level)]
        now = later[0] if later else earlier[-1]
        return now, later[1] if len(later) > 1 else None
    return later[0], later[1] if len(later) > 1 else None


def late_registration_open(s: Structure, elapsed: float) -> bool:
    """Whether a player may still register (or re-enter) after ``elapsed`` seconds.

    Late registration closes when level ``late_levels + 1`` begins (a break
    right after the last late level still counts as open, as in live play).
    """
    now = position(s, elapsed)
    played = now.level_number - 1 if now.on_break else now.level_number
    return played <= s.late_levels


def _ladder(blinds: Sequence[tuple[int, int, int]], minutes: int, every: int) -> list[Period]:
    """Levels of ``minutes`` with a 5-minute break after every ``every`` levels."""
    periods: list[Period] = []
    for n, (sb, bb, ante) in enumerate(blinds, start=1):
        periods.append(Level(sb, bb, minutes, ante, big_blind_ante=ante > 0))
        if n % every == 0 and n < len(blinds):
            periods.append(Break(5))
    return periods


_BLINDS = (
    (10, 20, 0), (15, 30, 0), (25, 50, 0), (50, 100, 100), (75, 150, 150),
    (100, 200, 200), (150, 300, 300), (200, 400, 400), (300, 600, 600),
    (400, 800, 800), (500, 1000, 1000), (700, 1400, 1400), (1000, 2000, 2000),
    (1500, 3000, 3000), (2000, 4000, 4000), (3000, 6000, 6000), (5000, 10000, 10000),
    (7500, 15000, 15000), (10000, 20000, 20000), (15000, 30000, 30000),
    (25000, 50000, 50000), (50000, 100000, 100000),
)

PRESETS: dict[str, Structure] = {
    "turbo": Structure(1500, tuple(_ladder(_BLINDS, 5, 6)), late_levels=3, name="turbo"),
    "regular": Structure(5000, tuple(_ladder(_BLINDS, 15, 4)), late_levels=6, name="regular"),
    "deep": Structure(10000, tuple(_ladder(_BLINDS, 20, 3)), late_levels=6, name="deep"),
    "hyper": Structure(500, tuple(_ladder(_BLINDS, 3, 8)), late_levels=0, name="hyper"),
}
"""Turbo: 1,500 chips, 5-minute levels; regular: 5,000 chips, 15-minute levels; deep:
10,000 chips, 20-minute levels; hyper: 500 chips, 3-minute levels.
From level 4 the big blind pays a big-blind ante; a 5-minute break every 6 (turbo),
4 (regular), 3 (deep) or 8 (hyper) levels."""


def preset(name: str) -> Structure:
    """A preset structure by name (``turbo``, ``regular``, ``deep`` or ``hyper``)."""
    try:
        return PRESETS[name]
    except KeyError:
        names = ", ".join(PRESETS)
        raise InvalidStructure(f"expected one of {names}, got {name!r}") from None
