"""``/stats`` and ``/notes``: a player's stats from the hands they saw, and private notes."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from pydantic import StringConstraints

from app.accounts.dependencies import CurrentUser, DbSession
from app.errors import error_responses
from app.stats import service
from app.stats.schemas import (
    NotePublic,
    NotesPublic,
    NoteUpdate,
    PlayersStatsPublic,
    PlayerStatsPublic,
    ResultsPublic,
)

router = APIRouter(tags=["stats"], responses=error_responses(401, 403, 404, 422))
PublicId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The player's public id")]
PublicIds = Annotated[list[Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]],
                      Query(min_length=1, max_length=10,
                            description="Players' public ids (up to 10)")]


@router.get("/stats/me")
async def read_my_player_stats(user: CurrentUser, session: DbSession) -> PlayerStatsPublic:
    """Your VPIP, PFR, 3-bet, c-bet, aggression and showdown stats over every hand."""
    return (await service.stats_about(session, user.id, [user.public_id]))[0]


@router.get("/stats/me/results")
async def read_my_results(
    user: CurrentUser, session: DbSession,
    limit: Annotated[int, Query(ge=1, le=5000, description="The last this many hands")] = 1000,
) -> ResultsPublic:
    """Your result hand by hand with its running total, oldest first (the results graph)."""
    points = await service.results_of(session, user.id, limit=limit)
    return ResultsPublic(items=points, count=len(points))


@router.get("/stats/players")
async def read_players_stats(user: CurrentUser, session: DbSession, ids: PublicIds
                             ) -> PlayersStatsPublic:
    """Your stats about each player asked, counted only over hands you were dealt into."""
    items = await service.stats_about(session, user.id, ids)
    return PlayersStatsPublic(items=items, count=len(items))


@router.get("/notes")
async def list_notes(user: CurrentUser, session: DbSession) -> NotesPublic:
    """Every note you wrote about other players (only you ever see them)."""
    items = await service.notes_of(session, user.id)
    return NotesPublic(items=items, count=len(items))


@router.get("/notes/{public_id}")
async def read_note(public_id: PublicId, user: CurrentUser, session: DbSession) -> NotePublic:
    """Your note about a player."""
    return await service.note_of(session, user.id, public_id)


@router.put("/notes/{public_id}")
async def write_note(public_id: PublicId, body: NoteUpdate, user: CurrentUser,
                     session: DbSession) -> NotePublic:
    """Write your note and colour tag about a player (private to you)."""
    return await service.write_note(session, user.id, public_id, body)


@router.delete("/notes/{public_id}", status_code=204)
async def delete_note(public_id: PublicId, user: CurrentUser, session: DbSession) -> Response:
    """Delete your note about a player."""
    await service.delete_note(session, user.id, public_id)
    return Response(status_code=204)
