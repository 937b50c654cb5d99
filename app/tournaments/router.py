"""``/tournaments`` (listing, one tournament) and ``/admin/tournaments`` (creating, cancelling)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from app.accounts.dependencies import AdminUser, DbSession
from app.admin.service import record
from app.errors import error_responses
from app.tournaments import operations
from app.tournaments.schemas import (
    FinishedTournament,
    FinishedTournaments,
    TournamentCreate,
    TournamentPublic,
    TournamentsPublic,
    TournamentSummary,
)
from app.tournaments.tables import TournamentTables

router = APIRouter(prefix="/tournaments", tags=["tournaments"],
                   responses=error_responses(401, 404, 413, 422))
admin_router = APIRouter(prefix="/admin/tournaments", tags=["admin"],
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


@admin_router.post("", status_code=201)
async def create_tournament(
    data: TournamentCreate, admin: AdminUser, session: DbSession, tournaments: Tournaments
) -> TournamentPublic:
    """Create a sit & go or a multi-table tournament (audit-logged), with bots if asked."""
    operations.rules_of(data)  # a structure that does not hold is refused here
    detail = await operations.run(tournaments, "create", {
        "data": data.model_dump(mode="json"), "created_by": admin.id})
    record(session, admin, "create_tournament", None, tournament_id=detail["id"],
           name=data.name)
    await session.commit()
    return TournamentPublic.model_validate(detail)


@admin_router.post("/{tournament_id}/cancel")
async def cancel_tournament(
    tournament_id: TournamentId, admin: AdminUser, session: DbSession, tournaments: Tournaments,
) -> TournamentPublic:
    """Cancel a tournament before its start: every entry is refunded (audit-logged)."""
    detail = await operations.run(tournaments, "cancel", {"tournament_id": tournament_id})
    record(session, admin, "cancel_tournament", None, tournament_id=tournament_id)
    await session.commit()
    return TournamentPublic.model_validate(detail)
