"""Bodies of ``/stats`` and ``/notes``."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

NOTE_LENGTH = 1000


class Stat(BaseModel):
    """One stat: a percentage (the aggression factor: a ratio), ``None`` before its first
    chance, and its sample (the chances it was counted over)."""

    value: float | None
    sample: int


class PlayerStatsPublic(BaseModel):
    """What a viewer counted about a player over the hands both were dealt into."""

    public_id: str
    hands: int
    vpip: Stat
    pfr: Stat
    three_bet: Stat
    fold_to_three_bet: Stat
    cbet: Stat
    fold_to_cbet: Stat
    af: Stat
    wtsd: Stat
    wsd: Stat


class PlayersStatsPublic(BaseModel):
    """Your stats about several players (the HUD), in the order asked."""

    items: list[PlayerStatsPublic]
    count: int


class ResultPoint(BaseModel):
    """Your running result after one hand."""

    hand_id: str
    ended_at: datetime
    net: int
    total: int
    all_in_net: int  # the net had any all-in been settled by its equity
    all_in_total: int


class ResultsPublic(BaseModel):
    """Your results hand by hand, oldest first: the points of the results graph."""

    items: list[ResultPoint]
    count: int


class NoteColor(StrEnum):
    """A colour tag for a player."""

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    GRAY = "gray"


class NoteUpdate(BaseModel):
    """A note about a player and its colour tag (either may be empty, not both)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(default="", max_length=NOTE_LENGTH)
    # Strict: nothing coerced; an enum's value given as its text (JSON has no enums).
    color: Annotated[NoteColor | None, Field(strict=False)] = None


class NotePublic(BaseModel):
    """Your note about a player."""

    public_id: str
    text: str
    color: NoteColor | None
    updated_at: datetime


class NotesPublic(BaseModel):
    """Every note you wrote."""

    items: list[NotePublic]
    count: int
