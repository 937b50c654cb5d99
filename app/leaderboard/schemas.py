"""Bodies of ``GET /leaderboard`` and ``PUT /users/me/leaderboard``."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from app.poker.state import Game


class Period(StrEnum):
    """How far back the leaderboard counts hands."""

    DAY = "day"
    WEEK = "week"
    ALL = "all"


class LeaderPublic(BaseModel):
    """One ranked player: net credits won over the period and hands played."""

    rank: int
    public_id: str
    display_name: str | None
    avatar_url: str
    net: int
    hands: int


class LeaderboardPublic(BaseModel):
    """The best players of the period, best first (players who opted out are left out)."""

    period: Period
    game: Game | None = Field(None, description="The game counted (null: every game)")
    items: list[LeaderPublic]


class LeaderboardChoice(BaseModel):
    """Whether you appear on the leaderboard."""

    model_config = ConfigDict(extra="forbid", strict=True)

    listed: bool
