"""What a table's host has set, as plain data stored with the table's state: whether the
table is paused, whether seats need the host's approval (and who asks), the seats kept
for players who are away, and the log of the host's controls.

The controls themselves are :mod:`app.table.host`; this module only holds their
outcome, so that a restart keeps a pause, the approval queue and the away timers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

HOST_LOG_KEPT = 50


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A person asking the host of a private table for ``seat`` with ``buy_in`` credits."""

    user_id: int
    public_id: str
    name: str
    seat: int
    buy_in: int
    at: float

    def public(self) -> dict[str, Any]:
        """What everyone at the table sees of the request (no internal user id)."""
        return {"player": {"public_id": self.public_id, "name": self.name, "bot": None},
                "seat": self.seat, "buy_in": self.buy_in, "at": self.at}


@dataclass(slots=True)
class HostDesk:
    """A table's host settings and queue (see the module docstring)."""

    paused: bool = False
    approval: bool = False
    requests: list[SeatRequest] = field(default_factory=list)
    # Seat number -> Unix time when a player the host marked away is stood up.
    away: dict[int, float] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def request_of(self, public_id: str) -> SeatRequest | None:
        """The waiting seat request of the person with ``public_id``, if any."""
        return next((r for r in self.requests if r.public_id == public_id), None)

    def record(self, entry: dict[str, Any]) -> None:
        """Keep one applied control (only the last 50 are kept)."""
        self.log.append(entry)
        del self.log[:-HOST_LOG_KEPT]

    def notes_of(self, hand_number: int) -> list[str]:
        """The controls applied after hand ``hand_number - 1`` was dealt (so before hand
        ``hand_number`` or during the one before it), as notes of its history."""
        return [f"{entry['by']['name']}: {entry['action']} ({entry['reason']})"
                for entry in self.log if entry.get("hand_number") == hand_number - 1]

    def public(self) -> dict[str, Any]:
        """The desk as every viewer of the table sees it."""
        return {"paused": self.paused, "approval": self.approval,
                "requests": [r.public() for r in self.requests],
                "away": [{"seat": seat, "until": until}
                         for seat, until in sorted(self.away.items())],
                "log": list(self.log)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data (server side: with user ids)."""
        return {"paused": self.paused, "approval": self.approval,
                "requests": [asdict(r) for r in self.requests],
                "away": [[seat, until] for seat, until in self.away.items()],
                "log": list(self.log)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> HostDesk:
        """Inverse of :meth:`to_dict` (None: a table stored before it had a desk)."""
        if not data:
            return cls()
        return cls(paused=bool(data["paused"]), approval=bool(data["approval"]),
                   requests=[SeatRequest(**r) for r in data["requests"]],
                   away={int(seat): float(until) for seat, until in data["away"]},
                   log=list(data["log"]))
