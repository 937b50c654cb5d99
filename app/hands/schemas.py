"""Bodies of the hand-history and statistics API (and the admin's table close)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field

from app.accounts.schemas import Strict
from app.text import bounded


class HandPublic(BaseModel):
    """A finished hand: where and when, the pot, and what it meant for you."""

    id: str
    table_id: str
    number: int
    pot: int
    started_at: datetime
    ended_at: datetime
    net: int | None
    seat: int | None
    table_name: str | None = Field(
        default=None, description="The table's name (in lists of your hands)")


class HandDetail(HandPublic):
    """A finished hand with its summary: players, board, shown cards and pots."""

    summary: dict[str, Any]


class HandReplay(BaseModel):
    """A finished hand step by step, as you saw it: after the deal, then after each decision.

    Each frame has ``events`` (what the step did, as ``table:event`` bodies) and ``hand``
    (the hand after it, as in ``table:snapshot``): your own cards, and other players'
    cards only once they were shown.
    """

    hand_id: str
    phh_url: str
    frames: list[dict[str, Any]]


class HandsPublic(BaseModel):
    """A page of hands, newest first, and how many there are in all."""

    items: list[HandPublic]
    count: int
    page: int
    per_page: int


class StatsPublic(BaseModel):
    """Your results over every hand you were dealt into."""

    hands_played: int
    hands_won: int
    net: int


class AdminTablePublic(BaseModel):
    """A live table as admins see it: the lobby line plus its state of play."""

    table: dict[str, Any]
    hand_id: str | None
    hand_number: int
    players: list[dict[str, Any]]
    escrowed: int


class AdminTablesPublic(BaseModel):
    """Every live table."""

    items: list[AdminTablePublic]
    count: int


class TableCloseRequest(Strict):
    """Why the table is closed (shown to its players)."""

    reason: Annotated[str, Field(min_length=3, max_length=200),
                      bounded(200, min_length=3)] = "closed by an admin"


class TableClosed(BaseModel):
    """A closed table and the credits paid back to its players."""

    table_id: str
    paid_out: int
