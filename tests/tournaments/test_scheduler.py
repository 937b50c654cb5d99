"""Recurring tournaments: each occurrence's tournament is created once, when its
registration opens, however many schedulers race and after a restart; a paused schedule
creates none; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from app.db.engine import Database
from app.db.models import AuditLogEntry
from app.db.tournaments import TournamentOccurrenceRecord, TournamentRecord
from app.tournaments import schedules
from app.tournaments.scheduler import Scheduler
from app.tournaments.schemas import ScheduleCreate
from tests.db.test_ledger import new_user
from tests.tournaments.test_service import Clock, _service

# Friday 2026-12-04 19:30 UTC: the daily 20:00 opens at 19:00, so it is due.
FRIDAY_1930 = datetime(2026, 12, 4, 19, 30, tzinfo=UTC)


class Lobby:
    """The tournaments the lobby was told of (what the lobby listing would show)."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def announce(self, tournament_id: str) -> None:
        self.told.append(tournament_id)


async def _schedule(database: Database, **changes: object) -> int:
    admin = await new_user(database, 0)
    data = ScheduleCreate.model_validate({"name": "Nightly turbo", "template": "turbo",
                                          "hour": 20, "minute": 0, "lead_minutes": 60,
                                          "buy_in": 50, **changes})
    async with database.sessions() as session:
        schedule = await schedules.add(session, data, admin)
        await session.commit()
        return schedule.id


async def _scheduler(database: Database, clock: Clock, lobby: Lobby | None = None) -> Scheduler:
    return Scheduler(database, await _service(database, clock), lobby or Lobby(), now=clock)


def _at(moment: datetime) -> Clock:
    clock = Clock()
    clock.now = moment.timestamp()
    return clock


async def _count(database: Database, model: type[object]) -> int:
    async with database.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(model)) or 0)


async def test_an_occurrence_is_created_when_registration_opens_with_the_template(
    database: Database,
) -> None:
    await _schedule(database)
    early = await (await _scheduler(database, _at(FRIDAY_1930 - timedelta(minutes=31)))).step()
    assert early == []
    lobby = Lobby()
    created = await (await _scheduler(database, _at(FRIDAY_1930), lobby)).step()

    assert len(created) == 1 and lobby.told == created
    async with database.sessions() as session:
        record = await session.get(TournamentRecord, created[0])
        assert record is not None
        assert record.name == "Nightly turbo" and record.buy_in == 50 and record.fee == 5
        assert record.starts_at == datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
        assert record.state["rules"]["structure"]["name"] == "turbo"
        audit = (await session.scalars(select(AuditLogEntry))).one()
        assert audit.action == "create_tournament"
        assert audit.details["tournament_id"] == created[0]


async def test_two_schedulers_racing_create_one_tournament_per_occurrence(
    database: Database,
) -> None:
    await _schedule(database)
    await _schedule(database, name="Saturday deep", template="deep_stack", weekday=5,
                    hour=18, buy_in=None)
    # Saturday 17:30: the daily 20:00 (opens 19:00) is not due; the Saturday 18:00 is.
    saturday = _at(datetime(2026, 12, 5, 17, 30, tzinfo=UTC))
    first, second = await _scheduler(database, saturday), await _scheduler(database, saturday)

    results = await asyncio.gather(first.step(), second.step(), first.step())

    assert sum(len(r) for r in results) == 1
    assert await _count(database, TournamentRecord) == 1
    assert await _count(database, TournamentOccurrenceRecord) == 1
    async with database.sessions() as session:
        record = (await session.scalars(select(TournamentRecord))).one()
        assert (record.name, record.buy_in, record.fee) == ("Saturday deep", 200, 20)


async def test_a_restart_never_creates_an_occurrence_again_nor_a_past_one(
    database: Database,
) -> None:
    await _schedule(database)
    assert len(await (await _scheduler(database, _at(FRIDAY_1930))).step()) == 1

    # A new process (its own service and scheduler) in the same window, and after the
    # start: the occurrence is not created again, and the past one is never made up.
    for later in (FRIDAY_1930 + timedelta(minutes=20), FRIDAY_1930 + timedelta(hours=2)):
        assert await (await _scheduler(database, _at(later))).step() == []
    # The next day's opens at 19:00 the next day: created then, once.
    saturday = await _scheduler(database, _at(FRIDAY_1930 + timedelta(days=1)))
    assert len(await saturday.step()) == 1
    assert await saturday.step() == []
    assert await _count(database, TournamentRecord) == 2


async def test_a_paused_schedule_creates_none_and_resumes_from_its_next_start(
    database: Database,
) -> None:
    schedule_id = await _schedule(database)
    async with database.sessions() as session:
        (await schedules.get(session, schedule_id)).paused = True
        await session.commit()
    assert await (await _scheduler(database, _at(FRIDAY_1930))).step() == []

    async with database.sessions() as session:
        (await schedules.get(session, schedule_id)).paused = False
        await session.commit()
    # Resumed after the Friday start: Friday's is past and never created; Saturday's is.
    assert await (await _scheduler(database, _at(FRIDAY_1930 + timedelta(hours=1)))).step() == []
    assert await _count(database, TournamentRecord) == 0
    assert len(await (await _scheduler(
        database, _at(FRIDAY_1930 + timedelta(days=1)))).step()) == 1
