"""Bodies of ``POST /tools/equity`` and ``POST /tools/outs``: the CLI's JSON shapes
(``holdem equity --json``, ``holdem outs --json``) plus standard errors and odds."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.poker.ranges import MAX_RANGE_TEXT

HandText = Annotated[str, Field(min_length=1, max_length=MAX_RANGE_TEXT,
                                description="Two cards (AhKh), ?? for a random hand, a "
                                            "range (QQ+,AKs,A2s+,KTo+,22-55), or an Omaha "
                                            "hand of four or five cards (AhAdKhKd)")]
Cards = Annotated[str, Field(max_length=40, description="Cards such as 'Ks 7d 2c'")]


class ToolRequest(BaseModel):
    """Unknown fields are refused and nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


class EquityRequest(ToolRequest):
    """Two to nine hands or ranges, an optional board (0, 3, 4 or 5 cards) and dead cards.
    Omaha hands (four or five cards: every hand known and of the same size) are counted
    as Omaha: exactly two hole cards and three of the board."""

    hands: Annotated[list[HandText], Field(min_length=2, max_length=9)]
    board: Cards = ""
    dead: Cards = ""
    iterations: int | None = Field(
        default=None, ge=1, description="Monte Carlo deals when an exact answer is too much "
                                        "work (at most the server's bound)")
    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="Monte Carlo seed")


class HandEquityPublic(BaseModel):
    """One hand's (or range's) share; ``odds`` is against winning outright, ``x : 1``."""

    hand: str
    win: float
    tie: float
    equity: float
    stderr: float = Field(description="Standard error of equity (0 when exact)")
    combos: int | None = Field(description="Live combos of a range; null for a hand")
    odds: str | None


class EquityPublic(BaseModel):
    """Each hand's win, tie and equity, exact or Monte Carlo."""

    exact: bool
    boards: int = Field(description="Deals counted (exact) or sampled (Monte Carlo)")
    hands: list[HandEquityPublic]


class OutsRequest(ToolRequest):
    """A hand on a flop or turn, optionally against known hands, with dead cards."""

    hand: Annotated[str, Field(min_length=1, max_length=12)]
    board: Cards
    vs: Annotated[list[Annotated[str, Field(max_length=12)]], Field(max_length=8)] = []
    dead: Cards = ""


class OutsPublic(BaseModel):
    """The outs by card, with the chance and odds to hit them."""

    hand: str
    board: str
    category: str
    outs: list[str]
    count: int
    unseen: int
    splits: list[str]
    next_card: float
    by_river: float | None
    odds: str | None
    odds_by_river: str | None
