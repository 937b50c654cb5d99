"""A table's clock rules: the time bank each seat holds and how it refills, and the
named timing profiles a table is opened with.

Each decision has the table's ``action_seconds``. When they run out, a connected
player's time bank starts; what they use of it is gone. The bank starts at
``seconds`` when a player sits down and gains ``add_seconds`` at the start of every
``every_hands``-th hand they are dealt into, up to ``max_seconds`` (``every_hands`` 0:
it never refills). A player who is disconnected on their turn gets a short grace
instead (the table's ``disconnect_grace_seconds``, else the server's) and their bank is
kept for their return: a disconnected player never spends it (see :mod:`app.table.clock`).

>>> rule = TimeBank(seconds=30, add_seconds=10, every_hands=5, max_seconds=45)
>>> rule.dealt_in(30, 4)
(40, 0)
>>> rule.dealt_in(40, 4)
(45, 0)
>>> rule.dealt_in(40, 2)
(40, 3)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TimeBank:
    """How a table's time banks start and refill."""

    seconds: float
    add_seconds: float = 0.0
    every_hands: int = 0
    max_seconds: float = 0.0

    def dealt_in(self, bank: float, counted: int) -> tuple[float, int]:
        """A seat holding ``bank`` seconds, ``counted`` hands into the current refill
        period, is dealt into one more hand: its bank and count after it."""
        if self.every_hands <= 0:
            return bank, 0
        counted += 1
        if counted < self.every_hands:
            return bank, counted
        return max(bank, min(self.max_seconds, bank + self.add_seconds)), 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (also what every viewer may see of it)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, *, seconds: float) -> TimeBank:
        """Inverse of :meth:`to_dict`; a table stored before banks refilled has a bank of
        ``seconds``, spent once."""
        if not data:
            return cls(seconds=seconds, max_seconds=seconds)
        return cls(seconds=float(data["seconds"]), add_seconds=float(data["add_seconds"]),
                   every_hands=int(data["every_hands"]),
                   max_seconds=float(data["max_seconds"]))


@dataclass(frozen=True, slots=True)
class TimingProfile:
    """A named set of clock settings a table is opened with: seconds to act, the time
    bank rule and the disconnect grace."""

    key: str
    label: str
    action_seconds: float
    bank: TimeBank
    disconnect_grace_seconds: float

    def public(self) -> dict[str, Any]:
        """Every setting, by the names a table's creation takes."""
        return {"key": self.key, "label": self.label, "action_seconds": self.action_seconds,
                "time_bank_seconds": self.bank.seconds,
                "time_bank_add_seconds": self.bank.add_seconds,
                "time_bank_every_hands": self.bank.every_hands,
                "time_bank_max_seconds": self.bank.max_seconds,
                "disconnect_grace_seconds": self.disconnect_grace_seconds}


TIMING_PROFILES: dict[str, TimingProfile] = {
    p.key: p for p in (
        TimingProfile("fast", "Fast", 10, TimeBank(15, 5, 10, 30), 10),
        TimingProfile("normal", "Normal", 20, TimeBank(30, 10, 10, 60), 20),
        TimingProfile("slow", "Slow", 40, TimeBank(60, 15, 10, 120), 45),
    )
}
"""Fast: 10 s to act, a 15 s bank (+5 s every 10 hands, at most 30 s), 10 s to come back;
normal: 20 s, 30 s (+10 s, 60 s), 20 s; slow: 40 s, 60 s (+15 s, 120 s), 45 s."""
