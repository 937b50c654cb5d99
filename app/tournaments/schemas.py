"""Pydantic models of the tournament payloads (Socket.IO and REST)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from app.realtime.schemas import Message, Request
from app.text import bounded
from app.tournaments.rules import TournamentKind, TournamentStatus

TournamentId = Annotated[str, Field(min_length=1, max_length=32,
                                    description="The tournament's id")]


class TournamentListRequest(Request):
    """``tournament:list``: the open tournaments; also subscribes to ``lobby:tournament``."""


class TournamentRef(Request):
    """A request about one tournament."""

    tournament_id: TournamentId


class TournamentSummary(Message):
    """A tournament as the lobby lists it."""

    id: str
    name: str
    kind: TournamentKind
    status: TournamentStatus
    buy_in: int
    fee: int
    entrants: int
    players_left: int
    capacity: int = Field(description="The most entries; 0: no limit")
    prize_pool: int
    starts_at: float | None = Field(description="Unix time of a multi-table start")
    late_registration: bool


class TournamentRemoved(Message):
    """``lobby:tournament-removed``: a tournament finished or was cancelled."""

    tournament_id: str


class TournamentsPublic(BaseModel):
    """Open tournaments, and how many."""

    data: list[TournamentSummary]
    count: int


class TournamentPublic(TournamentSummary):
    """One tournament in full: structure, payouts, players, tables, standings."""

    table_size: int
    structure: dict[str, Any]
    level: dict[str, Any] | None = Field(description="The level in play, its number and "
                                         "the seconds left in it")
    payouts: list[int] = Field(description="The prize of each paid place for the entries "
                               "so far")
    players: list[dict[str, Any]] = Field(description="Every entry: name, chips, table, "
                                          "seat, place")
    tables: list[dict[str, Any]] = Field(description="Each table: number, table id, players")
    hand_for_hand: bool


class TournamentCreate(BaseModel):
    """What an admin sets when creating a tournament (strict: nothing coerced)."""

    model_config = {"extra": "forbid", "strict": True}

    name: Annotated[str, Field(min_length=1, max_length=60), bounded(60)]
    kind: Literal["sit_and_go", "multi_table"]
    table_size: Annotated[int, Field(ge=2, le=10)] = 9
    buy_in: Annotated[int, Field(ge=0, le=10**9)]
    fee: Annotated[int, Field(ge=0, le=10**9)] = 0
    preset: Literal["turbo", "regular"] | None = "turbo"
    structure: dict[str, Any] | None = Field(None, description="A custom structure "
                                             "(starting_stack, late_levels, periods)")
    starts_at: float | None = Field(None, description="Unix time (multi-table only)")
    max_entrants: Annotated[int, Field(ge=0, le=100_000)] = 0
    entries_per_player: Annotated[int, Field(ge=1, le=10)] = 1
    bots: Annotated[int, Field(ge=0, le=500)] = Field(0, description="Bots to register now "
                                                      "(their entries paid by the house)")

    @model_validator(mode="after")
    def _start_for_multi_table(self) -> TournamentCreate:
        if self.kind == "multi_table" and self.starts_at is None:
            raise ValueError("a multi-table tournament needs starts_at")
        return self
