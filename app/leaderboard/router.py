"""``/leaderboard`` and the opt-out of ``/users/me/leaderboard``."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from app.accounts.dependencies import AppSettings, CurrentUser, DbSession
from app.accounts.schemas import UserPrivate
from app.accounts.views import avatar_url, user_private
from app.errors import error_responses
from app.leaderboard import service
from app.leaderboard.schemas import LeaderboardChoice, LeaderboardPublic, LeaderPublic, Period
from app.poker.state import Game
from app.web.router import page, wants_page

router = APIRouter(tags=["leaderboard"], responses=error_responses(401, 403, 413, 422))


@router.get("/leaderboard", response_model=LeaderboardPublic)
async def read_leaderboard(
    request: Request,
    session: DbSession,
    settings: AppSettings,
    period: Period = Period.WEEK,
    limit: Annotated[int, Query(ge=1, le=100)] = 25,
    game: Game | None = None,
) -> LeaderboardPublic | HTMLResponse:
    """Players ranked by net credits won over the last day, week or all time, in every
    game or one (a browser navigating here gets the leaderboard page)."""
    if wants_page(request):
        return page(request, "leaderboard", title="Leaderboard")
    rows = await service.leaders(session, period, now=datetime.now(UTC), limit=limit,
                                 game=game)
    return LeaderboardPublic(period=period, game=game, items=[
        LeaderPublic(rank=rank, public_id=user.public_id, display_name=user.display_name,
                     avatar_url=avatar_url(user, settings), net=net, hands=hands)
        for rank, (user, net, hands) in enumerate(rows, start=1)])


@router.put("/users/me/leaderboard", tags=["users"])
async def put_my_listing(
    data: LeaderboardChoice, user: CurrentUser, session: DbSession, settings: AppSettings
) -> UserPrivate:
    """Appear on the leaderboard (``listed: true``, the default) or stay off it."""
    await service.set_listed(session, user, data.listed)
    return user_private(user, settings)
