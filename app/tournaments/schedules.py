"""Recurring tournaments as stored: the schedules admins keep, when each next starts, and
the claim that creates an occurrence's tournament once.

A schedule names a template, a weekday (or every day) and a UTC time. Its next start is
the first one after now (:func:`next_start`); its tournament is created ``lead_minutes``
before it. Creating it writes a ``tournament_occurrences`` row, unique per schedule and
start, in the tournament's own transaction (:func:`claim`): a second process, or the
same one after a restart, cannot create that occurrence again.

>>> from datetime import UTC, datetime
>>> next_start(None, 20, 0, datetime(2026, 12, 5, 21, 0, tzinfo=UTC)).isoformat()
'2026-12-06T20:00:00+00:00'
>>> next_start(5, 18, 0, datetime(2026, 12, 5, 12, 0, tzinfo=UTC)).isoformat()  # a Saturday
'2026-12-05T18:00:00+00:00'
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.service import record
from app.db.models import utcnow
from app.db.tournaments import TournamentOccurrenceRecord, TournamentScheduleRecord
from app.tournaments.errors import ScheduleNotFound
from app.tournaments.schemas import ScheduleCreate, SchedulePublic, Template
from app.tournaments.store import OnCreate
from app.tournaments.templates import TEMPLATES


def next_start(weekday: int | None, hour: int, minute: int, after: datetime) -> datetime:
    """The first start strictly after ``after``: every day (``weekday`` None) or every
    week on ``weekday`` (0 Monday … 6 Sunday), at ``hour``:``minute`` UTC."""
    start = after.astimezone(UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
    while start <= after or (weekday is not None and start.weekday() != weekday):
        start += timedelta(days=1)
    return start


def due(schedule: TournamentScheduleRecord, now: datetime) -> datetime | None:
    """The start whose tournament is to be created now: the next one, once its
    registration opens; None while it has not (or the schedule is paused)."""
    if schedule.paused:
        return None
    start = next_start(schedule.weekday, schedule.hour, schedule.minute, now)
    return start if start - timedelta(minutes=schedule.lead_minutes) <= now else None


def claim(schedule: TournamentScheduleRecord, start: datetime) -> OnCreate:
    """The writes, in the new tournament's transaction, that record the occurrence for it
    (and audit it in the name of the schedule's admin): they fail the creation if the
    occurrence was created already."""

    async def write(session: AsyncSession, tournament_id: str) -> None:
        session.add(TournamentOccurrenceRecord(
            schedule_id=schedule.id, starts_at=start, tournament_id=tournament_id,
            created_at=utcnow()))
        if schedule.created_by is not None:
            record(session, schedule.created_by, "create_tournament", None,
                   tournament_id=tournament_id, name=schedule.name,
                   schedule_id=schedule.id, starts_at=start.isoformat())

    return write


async def occurred(session: AsyncSession, schedule_id: int, start: datetime) -> bool:
    """Whether the occurrence's tournament was created."""
    found = await session.scalar(select(TournamentOccurrenceRecord.id).where(
        TournamentOccurrenceRecord.schedule_id == schedule_id,
        TournamentOccurrenceRecord.starts_at == start))
    return found is not None


async def active(session: AsyncSession) -> Sequence[TournamentScheduleRecord]:
    """Every schedule not paused."""
    return (await session.scalars(select(TournamentScheduleRecord).where(
        TournamentScheduleRecord.paused.is_(False)).order_by(TournamentScheduleRecord.id))).all()


async def add(session: AsyncSession, data: ScheduleCreate, created_by: int
              ) -> TournamentScheduleRecord:
    """Store a new schedule (not committed)."""
    template = TEMPLATES[data.template]
    schedule = TournamentScheduleRecord(
        name=data.name, template=data.template,
        buy_in=template.buy_in if data.buy_in is None else data.buy_in,
        fee=template.fee if data.fee is None else data.fee,
        weekday=data.weekday, hour=data.hour, minute=data.minute,
        lead_minutes=data.lead_minutes, paused=False, created_by=created_by,
        created_at=utcnow())
    session.add(schedule)
    await session.flush()
    return schedule


async def get(session: AsyncSession, schedule_id: int) -> TournamentScheduleRecord:
    """The schedule with this id; :class:`ScheduleNotFound` otherwise."""
    schedule = await session.get(TournamentScheduleRecord, schedule_id)
    if schedule is None:
        raise ScheduleNotFound("no recurring tournament has this id", schedule_id=schedule_id)
    return schedule


async def remove(session: AsyncSession, schedule: TournamentScheduleRecord) -> None:
    """Delete a schedule and its occurrences (their tournaments stay; not committed)."""
    await session.delete(schedule)  # its occurrences go with it (ON DELETE CASCADE)


async def listing(session: AsyncSession, now: datetime) -> list[SchedulePublic]:
    """Every schedule, with its next start and the tournament it created last."""
    schedules = (await session.scalars(
        select(TournamentScheduleRecord).order_by(TournamentScheduleRecord.id))).all()
    latest = (select(TournamentOccurrenceRecord.schedule_id,
                     TournamentOccurrenceRecord.tournament_id)
              .where(TournamentOccurrenceRecord.id.in_(
                  select(func.max(TournamentOccurrenceRecord.id))
                  .group_by(TournamentOccurrenceRecord.schedule_id))))
    last = {schedule_id: tournament_id
            for schedule_id, tournament_id in await session.execute(latest)}
    return [public(s, now, last.get(s.id)) for s in schedules]


def public(schedule: TournamentScheduleRecord, now: datetime,
           last_tournament_id: str | None = None) -> SchedulePublic:
    """A schedule as the admin page shows it."""
    start = next_start(schedule.weekday, schedule.hour, schedule.minute, now)
    return SchedulePublic(
        id=schedule.id, name=schedule.name, template=cast(Template, schedule.template),
        buy_in=schedule.buy_in, fee=schedule.fee, weekday=schedule.weekday,
        hour=schedule.hour, minute=schedule.minute, lead_minutes=schedule.lead_minutes,
        paused=schedule.paused, next_start=start.timestamp(),
        opens_at=(start - timedelta(minutes=schedule.lead_minutes)).timestamp(),
        last_tournament_id=last_tournament_id)
