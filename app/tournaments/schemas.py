"""Pydantic models of the tournament payloads (Socket.IO and REST)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from app.poker.state import Game
from app.realtime.schemas import GAME_DESCRIPTION, GameName, Message, Request
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
    game: GameName = "nlhe"
    status: TournamentStatus
    buy_in: int
    fee: int
    entrants: int
    players_left: int
    capacity: int = Field(description="The most entries; 0: no limit")
    prize_pool: int
    starts_at: float | None = Field(description="Unix time of a multi-table start")
    late_registration: bool


class PrizeWinner(BaseModel):
    """A place paid in a finished tournament."""

    name: str
    place: int
    prize: int


class FinishedTournament(TournamentSummary):
    """A tournament that finished: when, and who won what."""

    finished_at: float = Field(description="Unix time")
    winners: list[PrizeWinner] = Field(description="The paid places, first place first")


class FinishedTournaments(BaseModel):
    """The tournaments that finished last, newest first."""

    data: list[FinishedTournament]
    count: int


class TournamentRemoved(Message):
    """``lobby:tournament-removed``: a tournament finished or was cancelled."""

    tournament_id: str


class TournamentsPublic(BaseModel):
    """Open tournaments, and how many."""

    data: list[TournamentSummary]
    count: int


class TournamentPublic(TournamentSummary):
    """One tournament in full: structure, payouts, players, tables, standings (also once
    it is over: each entry's place and prize as paid)."""

    table_size: int
    structure: dict[str, Any]
    level: dict[str, Any] | None = Field(description="The level in play, its number and "
                                         "the seconds left in it")
    payouts: list[int] = Field(description="The prize of each paid place for the entries "
                               "so far")
    players: list[dict[str, Any]] = Field(description="Every entry: name, chips, table, "
                                          "seat, busted, place (null until it can no "
                                          "longer change), prize (once it is over)")
    tables: list[dict[str, Any]] = Field(description="Each table: number, table id, players")
    hand_for_hand: bool


PresetName = Literal["turbo", "regular", "deep", "hyper"]
# Every number an admin sends is bounded here, well inside the 64-bit columns and the
# clock's range: a value past them would fail in the database or the clock, not here.
Credits = Annotated[int, Field(ge=0, le=10**9)]
TournamentChips = Annotated[int, Field(ge=0, le=10**9)]
Minutes = Annotated[int, Field(ge=1, le=24 * 60)]
# 9999-12-31T23:59:59Z, the last second a datetime holds.
LAST_UNIX_TIME = 253_402_300_799


class LevelCreate(BaseModel):
    """One level of a custom structure: blinds, ante and how long it lasts."""

    model_config = {"extra": "forbid", "strict": True}

    kind: Literal["level"]
    small_blind: Annotated[int, Field(ge=1, le=10**9)]
    big_blind: Annotated[int, Field(ge=1, le=10**9)]
    ante: TournamentChips = 0
    big_blind_ante: bool = False
    minutes: Minutes


class BreakCreate(BaseModel):
    """A break between levels of a custom structure."""

    model_config = {"extra": "forbid", "strict": True}

    kind: Literal["break"]
    minutes: Minutes


class StructureCreate(BaseModel):
    """A custom structure: the starting stack, the levels and breaks in order, and for how
    many levels late registration stays open."""

    model_config = {"extra": "forbid", "strict": True}

    name: Annotated[str, Field(min_length=1, max_length=60), bounded(60)] = "custom"
    starting_stack: Annotated[int, Field(ge=1, le=10**9)]
    late_levels: Annotated[int, Field(ge=0, le=200)] = 0
    periods: Annotated[list[Annotated[LevelCreate | BreakCreate, Field(discriminator="kind")]],
                       Field(min_length=1, max_length=200)]


class TournamentCreate(BaseModel):
    """What an admin sets when creating a tournament (strict: nothing coerced)."""

    model_config = {"extra": "forbid", "strict": True}

    name: Annotated[str, Field(min_length=1, max_length=60), bounded(60)]
    kind: Literal["sit_and_go", "multi_table"]
    game: GameName = Field("nlhe", description=GAME_DESCRIPTION)
    table_size: Annotated[int, Field(ge=2, le=10)] = 9
    buy_in: Credits
    fee: Credits = 0
    preset: PresetName | None = "turbo"
    structure: StructureCreate | None = Field(None, description="A custom structure "
                                              "(starting_stack, late_levels, periods)")
    starts_at: Annotated[float, Field(ge=0, le=LAST_UNIX_TIME, allow_inf_nan=False)] | None = (
        Field(None, description="Unix time (multi-table only)"))
    max_entrants: Annotated[int, Field(ge=0, le=100_000)] = 0
    entries_per_player: Annotated[int, Field(ge=1, le=10)] = 1
    bots: Annotated[int, Field(ge=0, le=500)] = Field(0, description="Bots to register now "
                                                      "(their entries paid by the house)")

    @model_validator(mode="after")
    def _start_for_multi_table(self) -> TournamentCreate:
        if self.kind == "multi_table" and self.starts_at is None:
            raise ValueError("a multi-table tournament needs a start time")
        game = Game(self.game)
        if self.table_size > game.max_seats:
            raise ValueError(f"{game.label} deals at most {game.max_seats} players a table")
        return self


Template = Literal["turbo", "regular", "deep_stack", "heads_up"]
Weekday = Annotated[int, Field(ge=0, le=6, description="0 Monday … 6 Sunday")]


class TemplatePublic(BaseModel):
    """A tournament template: a named preset of kind, structure, seats and money."""

    key: Template
    label: str
    kind: TournamentKind
    preset: str = Field(description="The structure preset")
    table_size: int
    buy_in: int
    fee: int
    starting_stack: int
    level_minutes: int = Field(description="The first level's length")
    late_levels: int


class TemplatesPublic(BaseModel):
    """Every template."""

    data: list[TemplatePublic]
    count: int


class TournamentFromTemplate(BaseModel):
    """A tournament from a template; what is left out is the template's."""

    model_config = {"extra": "forbid", "strict": True}

    template: Template
    name: Annotated[str, Field(min_length=1, max_length=60), bounded(60)] | None = None
    buy_in: Credits | None = None
    fee: Credits | None = None
    starts_at: Annotated[float, Field(ge=0, le=LAST_UNIX_TIME, allow_inf_nan=False)] | None = (
        Field(None, description="Unix time (needed by a multi-table template)"))
    bots: Annotated[int, Field(ge=0, le=500)] = 0


class ScheduleCreate(BaseModel):
    """A recurring tournament: a template every day (``weekday`` null) or every week on
    ``weekday``, starting at ``hour``:``minute`` UTC; its tournament is created
    ``lead_minutes`` before the start (registration opens then)."""

    model_config = {"extra": "forbid", "strict": True}

    name: Annotated[str, Field(min_length=1, max_length=60), bounded(60)]
    template: Template
    buy_in: Credits | None = Field(None, description="Default: the template's")
    fee: Credits | None = Field(None, description="Default: the template's")
    weekday: Weekday | None = Field(None, description="null: every day")
    hour: Annotated[int, Field(ge=0, le=23, description="UTC")]
    minute: Annotated[int, Field(ge=0, le=59)] = 0
    lead_minutes: Annotated[int, Field(ge=1, le=24 * 60)] = 60


class SchedulePublic(BaseModel):
    """A recurring tournament, and when its next one starts and opens."""

    id: int
    name: str
    template: Template
    buy_in: int
    fee: int
    weekday: int | None
    hour: int
    minute: int
    lead_minutes: int
    paused: bool
    next_start: float = Field(description="Unix time of the next start")
    opens_at: float = Field(description="Unix time its tournament is created")
    last_tournament_id: str | None = Field(description="The tournament created last")


class SchedulesPublic(BaseModel):
    """Every recurring tournament."""

    data: list[SchedulePublic]
    count: int
