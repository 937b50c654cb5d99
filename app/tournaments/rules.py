"""What a tournament is (kind, structure, money, limits) and one entry in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.db.tournaments import TournamentKind, TournamentStatus
from app.poker.state import MAX_SEATS, Game
from app.tournaments.structure import InvalidStructure, Structure, structure_from_dict

__all__ = ["Entry", "Rules", "TournamentKind", "TournamentStatus"]


@dataclass(frozen=True, slots=True)
class Rules:
    """What a tournament is: kind, structure, table size, money and limits.

    ``max_entrants`` 0 means no limit (a sit & go is always limited to its
    table); ``entries_per_player`` above 1 allows re-entry while late
    registration is open; ``starts_at`` (seconds) is a multi-table start.
    """

    kind: TournamentKind
    structure: Structure
    table_size: int
    buy_in: int
    fee: int = 0
    max_entrants: int = 0
    entries_per_player: int = 1
    starts_at: float | None = None
    min_entrants: int = 2
    game: Game = Game.NLHE

    def __post_init__(self) -> None:
        if not 2 <= self.table_size <= MAX_SEATS:
            raise InvalidStructure(
                f"expected 2 to {MAX_SEATS} seats a table, got {self.table_size}"
            )
        if self.buy_in < 0 or self.fee < 0 or self.entries_per_player < 1:
            raise InvalidStructure("expected a buy-in and fee of 0 or more and 1 entry or more")
        if self.kind is TournamentKind.MULTI_TABLE and self.starts_at is None:
            raise InvalidStructure("expected a start time for a multi-table tournament")

    @property
    def capacity(self) -> int:
        """The most entries (0: no limit)."""
        return self.table_size if self.kind is TournamentKind.SIT_AND_GO else self.max_entrants

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "kind": self.kind.value, "structure": self.structure.to_dict(),
            "table_size": self.table_size, "buy_in": self.buy_in, "fee": self.fee,
            "max_entrants": self.max_entrants, "entries_per_player": self.entries_per_player,
            "starts_at": self.starts_at, "min_entrants": self.min_entrants,
            "game": self.game.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict`."""
        return cls(
            TournamentKind(data["kind"]), structure_from_dict(data["structure"]),
            data["table_size"], data["buy_in"], data["fee"], data["max_entrants"],
            data["entries_per_player"], data["starts_at"], data["min_entrants"],
            Game(data.get("game", Game.NLHE)),
        )


@dataclass(slots=True)
class Entry:
    """One buy-in of one player: their tournament chips and where they sit."""

    id: str
    player: str
    number: int
    chips: int
    table: int | None = None
    seat: int | None = None
    busted: bool = False
    absent: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data."""
        return {
            "id": self.id, "player": self.player, "number": self.number, "chips": self.chips,
            "table": self.table, "seat": self.seat, "busted": self.busted, "absent": self.absent,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)
