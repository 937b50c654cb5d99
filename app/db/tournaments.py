"""ORM models of tournaments: the tournament with its live state and prize pool, its entries.

A tournament's live state (entries' chips and seats, tables, busts, the clock)
is one JSON document (:meth:`app.tournaments.tournament.Tournament.to_dict`)
rewritten after every change, so a restarted server resumes it. ``pool_held``
is the prize pool escrow: buy-ins paid in and not yet refunded or paid out as
prizes (:func:`app.db.ledger.audit` counts it with the chips held at tables).
One row per entry records who paid what and, at the end, the place and prize.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, _enum, utcnow


class TournamentKind(enum.StrEnum):
    """Sit & go (one table, starts when full) or multi-table (scheduled start)."""

    SIT_AND_GO = "sit_and_go"
    MULTI_TABLE = "multi_table"


class TournamentStatus(enum.StrEnum):
    """Where a tournament is in its life."""

    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntryStatus(enum.StrEnum):
    """Where one paid entry stands."""

    REGISTERED = "registered"
    REFUNDED = "refunded"
    FINISHED = "finished"


class TournamentRecord(Base):
    """One tournament: its rules, live state, prize pool escrow and status."""

    __tablename__ = "tournaments"
    __table_args__ = (CheckConstraint("pool_held >= 0", name="pool_held_not_negative"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[TournamentKind] = mapped_column(_enum(TournamentKind))
    status: Mapped[TournamentStatus] = mapped_column(_enum(TournamentStatus), index=True)
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    pool_held: Mapped[int] = mapped_column(BigInteger, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    starts_at: Mapped[datetime | None]
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None]


class TournamentEntryRecord(Base):
    """One paid entry: who paid (a bot's entry is paid by the house), place and prize."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "entry", name="uq_tournament_entries_entry"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    entry: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[EntryStatus] = mapped_column(_enum(EntryStatus), default=EntryStatus.REGISTERED)
    place: Mapped[int | None] = mapped_column(Integer)
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentScheduleRecord(Base):
    """A recurring tournament: a template created before each occurrence's start.

    ``weekday`` is 0 (Monday) to 6 (Sunday), or null for every day; ``hour`` and
    ``minute`` are UTC. Each occurrence's tournament is created ``lead_minutes`` before
    it starts (registration opens then).
    """

    __tablename__ = "tournament_schedules"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    template: Mapped[str] = mapped_column(String(32))
    buy_in: Mapped[int] = mapped_column(BigInteger)
    fee: Mapped[int] = mapped_column(BigInteger)
    weekday: Mapped[int | None] = mapped_column(Integer)
    hour: Mapped[int] = mapped_column(Integer)
    minute: Mapped[int] = mapped_column(Integer)
    lead_minutes: Mapped[int] = mapped_column(Integer)
    paused: Mapped[bool] = mapped_column(default=False)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentOccurrenceRecord(Base):
    """One occurrence of a schedule whose tournament was created: the unique key makes
    that happen once, however many processes try at the same moment."""

    __tablename__ = "tournament_occurrences"
    __table_args__ = (
        UniqueConstraint("schedule_id", "starts_at", name="uq_tournament_occurrences_start"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    schedule_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_schedules.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime]
    tournament_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
