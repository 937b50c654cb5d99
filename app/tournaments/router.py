"""``/tournaments`` (listing, one tournament) and ``/admin/tournaments`` (creating, cancelling)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.dependencies import AdminUser, DbSession, admin_user
from app.admin.service import record
from app.db.models import MAX_ID, User
from app.errors import error_responses
from app.tournaments import operations, schedules
from app.tournaments.schemas import (
    FinishedTournament,
    FinishedTournaments,
    ScheduleCreate,
    SchedulePublic,
    SchedulesPublic,
    TemplatePublic,
    TemplatesPublic,
    TournamentCreate,
    TournamentFromTemplate,
    TournamentPublic,
    TournamentsPublic,
    TournamentSummary,
)
from app.tournaments.tables import TournamentTables
from app.tournaments.templates import TEMPLATES

router = APIRouter(prefix="/tournaments", tags=["tournaments"],
                   responses=error_responses(401, 404, 413, 422))
admin_router = APIRouter(prefix="/admin/tournaments", tags=["admin"],
                         dependencies=[Depends(admin_user)],
                         responses=error_responses(401, 403, 404, 409, 413, 422))


def get_tournaments(request: Request) -> TournamentTables:
    """The application's tournaments and their tables."""
    tournaments: TournamentTables = request.app.state.tournaments
    return tournaments


Tournaments = Annotated[TournamentTables, Depends(get_tournaments)]
TournamentId = Annotated[str, Path(min_length=1, max_length=32)]


@router.get("")
async def list_tournaments(tournaments: Tournaments) -> TournamentsPublic:
    """Tournaments open for registration or running, soonest first."""
    listed = [TournamentSummary.model_validate(s)
              for s in await operations.run(tournaments, "list", {})]
    return TournamentsPublic(data=listed, count=len(listed))


@router.get("/finished")
async def list_finished_tournaments(
    tournaments: Tournaments, limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> FinishedTournaments:
    """The tournaments that finished last, newest first, with their prize winners."""
    listed = [FinishedTournament.model_validate(f)
              for f in await operations.run(tournaments, "finished", {"limit": limit})]
    return FinishedTournaments(data=listed, count=len(listed))


@router.get("/{tournament_id}")
async def read_tournament(tournament_id: TournamentId, tournaments: Tournaments
                          ) -> TournamentPublic:
    """One tournament: structure, payouts, players with their chips, tables; once it is
    over (finished or cancelled), as stored, with each entry's place and prize."""
    return TournamentPublic.model_validate(
        await operations.run(tournaments, "detail", {"tournament_id": tournament_id}))


async def _create(data: TournamentCreate, admin: User, session: AsyncSession,
                  tournaments: TournamentTables, **audited: Any) -> TournamentPublic:
    """Create the tournament ``data`` asks for and audit-log it."""
    operations.rules_of(data)  # a structure that does not hold is refused here
    detail = await operations.run(tournaments, "create", {
        "data": data.model_dump(mode="json"), "created_by": admin.id})
    record(session, admin, "create_tournament", None, tournament_id=detail["id"],
           name=data.name, **audited)
    await session.commit()
    return TournamentPublic.model_validate(detail)


@admin_router.post("", status_code=201)
async def create_tournament(
    data: TournamentCreate, admin: AdminUser, session: DbSession, tournaments: Tournaments
) -> TournamentPublic:
    """Create a sit & go or a multi-table tournament (audit-logged), with bots if asked."""
    return await _create(data, admin, session, tournaments)


@admin_router.get("/templates")
async def list_templates() -> TemplatesPublic:
    """The templates a tournament can be created from (once or on a schedule)."""
    listed = [TemplatePublic.model_validate(t.public()) for t in TEMPLATES.values()]
    return TemplatesPublic(data=listed, count=len(listed))


@admin_router.post("/from-template", status_code=201)
async def create_from_template(
    data: TournamentFromTemplate, admin: AdminUser, session: DbSession,
    tournaments: Tournaments,
) -> TournamentPublic:
    """Create a tournament from a template, with its name, buy-in and fee changed if asked
    (audit-logged)."""
    try:
        request = TEMPLATES[data.template].create(
            name=data.name, buy_in=data.buy_in, fee=data.fee, starts_at=data.starts_at,
            bots=data.bots)
    except ValidationError as error:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])}
                                      for e in error.errors()]) from None
    return await _create(request, admin, session, tournaments, template=data.template)


@admin_router.post("/{tournament_id}/cancel")
async def cancel_tournament(
    tournament_id: TournamentId, admin: AdminUser, session: DbSession, tournaments: Tournaments,
) -> TournamentPublic:
    """Cancel a tournament before its start: every entry is refunded (audit-logged)."""
    detail = await operations.run(tournaments, "cancel", {"tournament_id": tournament_id})
    record(session, admin, "cancel_tournament", None, tournament_id=tournament_id)
    await session.commit()
    return TournamentPublic.model_validate(detail)


# --- recurring tournaments ------------------------------------------------------------

ScheduleId = Annotated[int, Path(ge=1, le=MAX_ID, description="The schedule's id")]


def _now(tournaments: TournamentTables) -> datetime:
    return datetime.fromtimestamp(tournaments.service.now(), UTC)


@admin_router.get("/schedules")
async def list_schedules(session: DbSession, tournaments: Tournaments) -> SchedulesPublic:
    """Every recurring tournament, with its next start (UTC)."""
    listed = await schedules.listing(session, _now(tournaments))
    return SchedulesPublic(data=listed, count=len(listed))


@admin_router.post("/schedules", status_code=201)
async def create_schedule(
    data: ScheduleCreate, admin: AdminUser, session: DbSession, tournaments: Tournaments
) -> SchedulePublic:
    """Add a recurring tournament: a template every day or every week at a UTC time,
    created a set time before its start (audit-logged)."""
    schedule = await schedules.add(session, data, admin.id)
    record(session, admin, "create_schedule", None, schedule_id=schedule.id,
           **data.model_dump(exclude_none=True))
    await session.commit()
    return schedules.public(schedule, _now(tournaments))


async def _pause(schedule_id: int, paused: bool, admin: User, session: AsyncSession,
                 tournaments: TournamentTables) -> SchedulePublic:
    schedule = await schedules.get(session, schedule_id)
    schedule.paused = paused
    record(session, admin, "pause_schedule" if paused else "resume_schedule", None,
           schedule_id=schedule_id, name=schedule.name)
    await session.commit()
    return schedules.public(schedule, _now(tournaments))


@admin_router.post("/schedules/{schedule_id}/pause")
async def pause_schedule(
    schedule_id: ScheduleId, admin: AdminUser, session: DbSession, tournaments: Tournaments
) -> SchedulePublic:
    """Pause a recurring tournament: no tournament is created until it resumes."""
    return await _pause(schedule_id, True, admin, session, tournaments)


@admin_router.post("/schedules/{schedule_id}/resume")
async def resume_schedule(
    schedule_id: ScheduleId, admin: AdminUser, session: DbSession, tournaments: Tournaments
) -> SchedulePublic:
    """Resume a paused recurring tournament from its next start (none in the past)."""
    return await _pause(schedule_id, False, admin, session, tournaments)


@admin_router.delete("/schedules/{schedule_id}", status_code=204)
async def delete_schedule(schedule_id: ScheduleId, admin: AdminUser, session: DbSession
                          ) -> None:
    """Delete a recurring tournament (the tournaments it created stay)."""
    schedule = await schedules.get(session, schedule_id)
    record(session, admin, "delete_schedule", None, schedule_id=schedule_id,
           name=schedule.name)
    await schedules.remove(session, schedule)
    await session.commit()
