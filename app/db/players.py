"""ORM models of what one player keeps about another: tracker counters and private notes.

:class:`PlayerStatsRow` holds a viewer's counters about one subject (the viewer's own
when the two are the same), added to at the end of every hand both were dealt into, in
the transaction that stores the hand (see :mod:`app.stats.recording`).
:class:`PlayerNote` is a note and a colour tag one player wrote about another, seen by
its author only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow
from app.poker.player_stats import COUNTER_NAMES, Counters


class PlayerStatsRow(Base):
    """A viewer's counters about a subject (see :class:`app.poker.player_stats.Counters`)."""

    __tablename__ = "player_stats"

    viewer_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                           primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                            primary_key=True, index=True)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    preflop_chances: Mapped[int] = mapped_column(Integer, default=0)
    vpip: Mapped[int] = mapped_column(Integer, default=0)
    pfr: Mapped[int] = mapped_column(Integer, default=0)
    three_bet_chances: Mapped[int] = mapped_column(Integer, default=0)
    three_bet: Mapped[int] = mapped_column(Integer, default=0)
    fold_to_three_bet_chances: Mapped[int] = mapped_column(Integer, default=0)
    fold_to_three_bet: Mapped[int] = mapped_column(Integer, default=0)
    cbet_chances: Mapped[int] = mapped_column(Integer, default=0)
    cbet: Mapped[int] = mapped_column(Integer, default=0)
    fold_to_cbet_chances: Mapped[int] = mapped_column(Integer, default=0)
    fold_to_cbet: Mapped[int] = mapped_column(Integer, default=0)
    postflop_aggressive: Mapped[int] = mapped_column(Integer, default=0)
    postflop_calls: Mapped[int] = mapped_column(Integer, default=0)
    saw_flop: Mapped[int] = mapped_column(Integer, default=0)
    showdowns: Mapped[int] = mapped_column(Integer, default=0)
    showdowns_won: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class PlayerNote(Base):
    """A private note and colour tag ``author_id`` keeps about ``subject_id``."""

    __tablename__ = "player_notes"

    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                           primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                            primary_key=True)
    text: Mapped[str] = mapped_column(String(1000), default="")
    color: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


def _adding(insert: Any) -> Any:
    """A dialect's upsert adding one hand's counts to a (viewer, subject) row."""
    statement = insert(PlayerStatsRow.__table__)
    return statement.on_conflict_do_update(
        index_elements=["viewer_id", "subject_id"],
        set_={**{name: getattr(PlayerStatsRow.__table__.c, name) + statement.excluded[name]
                 for name in COUNTER_NAMES},
              "updated_at": statement.excluded.updated_at},
    )


_ADD = {"postgresql": _adding(postgresql.insert), "sqlite": _adding(sqlite.insert)}


async def add_counters(session: AsyncSession, dealt_in: Sequence[tuple[int, Counters]]) -> None:
    """Add one hand's counts of each person dealt in (``(user_id, counters)``) to what
    every person dealt in knows of them, their own row included: everybody dealt in saw
    the same public actions, so each viewer adds the same counts about a subject. One
    statement for the hand, inside the caller's transaction."""
    if not dealt_in:
        return
    now = utcnow()
    rows = [{"viewer_id": viewer, "subject_id": subject, **counts.to_dict(), "updated_at": now}
            for viewer, _ in dealt_in for subject, counts in dealt_in]
    await session.execute(_ADD[session.get_bind().dialect.name], rows)


def counters_of(row: PlayerStatsRow | None) -> Counters:
    """The counters a stored row holds (all zero for no row)."""
    if row is None:
        return Counters()
    return Counters(**{name: getattr(row, name) for name in COUNTER_NAMES})
