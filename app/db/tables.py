"""ORM models of the realtime layer: poker tables, their live state, and finished hands.

A table's live state (seats, stacks between hands, the hand in play, chat) is
one JSON document rewritten after every change, so a restarted server can
restore every open table. Finished hands keep their PHH text, a JSON summary
and one row per human player dealt in (what ``GET /hands`` and the stats read).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, _enum, utcnow


class TableStatus(enum.StrEnum):
    """Whether a table still plays (and is restored on start)."""

    OPEN = "open"
    CLOSED = "closed"


class TableRecord(Base):
    """One poker table: its settings, its live state as JSON, and whether it is open."""

    __tablename__ = "poker_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    private: Mapped[bool]
    status: Mapped[TableStatus] = mapped_column(_enum(TableStatus), default=TableStatus.OPEN,
                                                index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    # A tournament's table: its hands are played for tournament chips, not credits.
    tournament_id: Mapped[str | None] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    closed_at: Mapped[datetime | None]
    # Ownership (see app/hosting/leases.py): the process running the table, and the
    # fencing token every write of its state must carry.
    lease_owner: Mapped[str | None] = mapped_column(String(64), index=True)
    lease_token: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class ServerProcess(Base):
    """A live server process that may run tables; alive while its heartbeat is recent."""

    __tablename__ = "server_processes"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    started_at: Mapped[datetime]
    heartbeat_at: Mapped[datetime]
    draining: Mapped[bool] = mapped_column(default=False)
    tables: Mapped[int] = mapped_column(Integer, default=0)


class HandRecord(Base):
    """A finished hand: its hand history (PHH) and a summary of who won what."""

    __tablename__ = "hand_histories"
    __table_args__ = (Index("ix_hand_histories_table_id_number", "table_id", "number"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("poker_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    pot: Mapped[int] = mapped_column(BigInteger)
    phh: Mapped[str] = mapped_column(Text)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The game it was dealt in (app.poker.state.Game), for results by game.
    game: Mapped[str] = mapped_column(String(8), default="nlhe", server_default="nlhe")
    # What the house took from its pots (app.poker.rake), paid to it in the same commit.
    rake: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class HandPlayer(Base):
    """A human player dealt into a finished hand, with their net result in credits and the
    part of it that came from the house's bots (``house_net``; negative: went to them)."""

    __tablename__ = "hand_players"
    __table_args__ = (Index("ix_hand_players_user_id_ended_at", "user_id", "ended_at"),)

    hand_id: Mapped[str] = mapped_column(
        ForeignKey("hand_histories.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    net: Mapped[int] = mapped_column(BigInteger)
    house_net: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # The net had the pots been shared by the all-in equity (None: no all-in decided it).
    all_in_net: Mapped[int | None] = mapped_column(BigInteger)
    ended_at: Mapped[datetime] = mapped_column(default=utcnow)
