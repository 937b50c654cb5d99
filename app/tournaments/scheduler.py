"""The scheduler of recurring tournaments, run by the process that runs the tournaments.

Every few seconds it reads the schedules not paused and creates the tournament of each
occurrence whose registration has opened (see :mod:`app.tournaments.schedules`). The
occurrence is claimed in the tournament's own transaction, unique per schedule and
start: however many schedulers try at once (a director about to hand over to another,
a restart), one tournament is created, and a past occurrence is never created at all.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy.exc import IntegrityError

from app.db.engine import Database
from app.db.tournaments import TournamentScheduleRecord
from app.hosting.ports import Ticker
from app.tournaments import schedules
from app.tournaments.operations import rules_of
from app.tournaments.service import TournamentService
from app.tournaments.templates import TEMPLATES

log = logging.getLogger(__name__)

TICK_SECONDS = 5.0


class Lobby(Protocol):
    """Who is told of a new tournament (the lobby's listing)."""

    async def announce(self, tournament_id: str) -> None:
        """Tell the lobby how a tournament stands."""


class Scheduler(Ticker):
    """Creates each due occurrence of every schedule, once."""

    name = "the tournament scheduler"

    def __init__(self, database: Database, service: TournamentService, lobby: Lobby, *,
                 now: Callable[[], float], tick_seconds: float = TICK_SECONDS) -> None:
        self.database = database
        self.service = service
        self.lobby = lobby
        self.now = now
        super().__init__(tick_seconds=tick_seconds)

    async def step(self) -> list[str]:
        """Create the tournament of every occurrence due now; the ids created here."""
        now = datetime.fromtimestamp(self.now(), UTC)
        async with self.database.sessions() as session:
            due = [(s, start) for s in await schedules.active(session)
                   if (start := schedules.due(s, now)) is not None
                   and not await schedules.occurred(session, s.id, start)]
        created = []
        for schedule, start in due:
            tournament_id = await self._create(schedule, start)
            if tournament_id is not None:
                created.append(tournament_id)
        return created

    async def _create(self, schedule: TournamentScheduleRecord, start: datetime) -> str | None:
        """The occurrence's tournament, unless another scheduler created it first."""
        data = TEMPLATES[schedule.template].create(
            name=schedule.name, buy_in=schedule.buy_in, fee=schedule.fee,
            starts_at=start.timestamp())
        try:
            tournament_id = await self.service.create(
                data.name, rules_of(data), created_by=schedule.created_by,
                also=schedules.claim(schedule, start))
        except IntegrityError:
            async with self.database.sessions() as session:
                if await schedules.occurred(session, schedule.id, start):
                    return None
            raise
        log.info("recurring tournament %s created %s for %s", schedule.id, tournament_id,
                 start.isoformat())
        await self.lobby.announce(tournament_id)
        return tournament_id
