"""``/hands`` and ``/users/me/stats``: finished hands for the players dealt in (and admins)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import PlainTextResponse, Response

from app.accounts.dependencies import CurrentUser, DbSession
from app.accounts.errors import AdminRequired
from app.db.models import Role
from app.db.tables import HandPlayer, HandRecord
from app.errors import error_responses
from app.hands import exports, service
from app.hands.exports import Archive, ExportFormat
from app.hands.schemas import HandDetail, HandPublic, HandReplay, HandsPublic, StatsPublic
from app.poker.state import Game

router = APIRouter(tags=["hands"], responses=error_responses(401, 403, 404, 413, 422))
HandId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The hand's id")]
Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=200)]


def hand_public(hand: HandRecord, player: HandPlayer | None,
                table_name: str | None = None) -> HandPublic:
    """A stored hand as its list entry (``net``/``seat``: the reader's, when dealt in)."""
    return HandPublic(id=hand.id, table_id=hand.table_id, number=hand.number, pot=hand.pot,
                      started_at=hand.started_at, ended_at=hand.ended_at,
                      net=player.net if player else None, seat=player.seat if player else None,
                      table_name=table_name)


@router.get("/hands")
async def list_hands(
    user: CurrentUser,
    session: DbSession,
    mine: Annotated[bool, Query(description="Only hands you were dealt into")] = True,
    table_id: Annotated[str | None, Query(min_length=1, max_length=64,
                                          description="Only the hands of this table")] = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> HandsPublic:
    """Hands you were dealt into, newest first, with each table's name (admins: every
    hand with mine=false)."""
    offset = (page - 1) * per_page
    if mine:
        rows, count = await service.hands_of(session, user.id, table_id=table_id,
                                             offset=offset, limit=per_page)
        items = [hand_public(hand, player, name) for hand, player, name in rows]
    else:
        if user.role is not Role.ADMIN:
            raise AdminRequired("only admins may list every hand")
        hands, count = await service.all_hands(session, table_id=table_id, offset=offset,
                                               limit=per_page)
        items = [hand_public(hand, None) for hand in hands]
    return HandsPublic(items=items, count=count, page=page, per_page=per_page)


@router.get("/hands/{hand_id}.phh", response_class=PlainTextResponse)
async def read_hand_history(hand_id: HandId, user: CurrentUser, session: DbSession) -> str:
    """The hand history in PHH; other players' unshown cards are hidden from players."""
    hand, player = await service.hand_for(session, hand_id, user.id,
                                          admin=user.role is Role.ADMIN)
    return service.phh_text(hand, player)


@router.get("/hands/export", response_class=Response,
            responses={200: {"content": {"text/plain": {}, "application/zip": {}},
                             "description": "The hands as one file or a zip; the header "
                                            "X-Hands counts the hands in it, X-Hands-Left-Out "
                                            "those of games the formats cannot write yet"}})
async def export_my_hands(
    user: CurrentUser,
    session: DbSession,
    since: Annotated[datetime, Query(description="First moment, ISO 8601 (UTC unless zoned)")],
    until: Annotated[datetime, Query(description="End of the range, excluded")],
    format: Annotated[ExportFormat, Query(description="pokerstars text or OHH JSON")] = (
        ExportFormat.POKERSTARS),
    archive: Annotated[Archive, Query(description="One file, or a zip of one per table")] = (
        Archive.TEXT),
) -> Response:
    """Your hands that ended in a date range, for trackers (at most 5000, 366 days)."""
    out = await exports.export_hands(session, user.id, since=since, until=until, fmt=format,
                                     archive=archive)
    return Response(out.content, media_type=out.media_type,
                    headers={"Content-Disposition": f'attachment; filename="{out.filename}"',
                             "X-Hands": str(out.hands), "X-Hands-Left-Out": str(out.left_out)})


@router.get("/hands/{hand_id}.txt", response_class=PlainTextResponse)
async def read_hand_pokerstars(hand_id: HandId, user: CurrentUser, session: DbSession) -> str:
    """The hand in PokerStars' text format, showing only the cards you saw."""
    hand, player = await service.hand_for(session, hand_id, user.id,
                                          admin=user.role is Role.ADMIN)
    return await exports.hand_text(session, hand, player, ExportFormat.POKERSTARS)


@router.get("/hands/{hand_id}.ohh", response_class=Response,
            responses={200: {"content": {"application/json": {}},
                             "description": "The hand as an Open Hand History object"}})
async def read_hand_ohh(hand_id: HandId, user: CurrentUser, session: DbSession) -> Response:
    """The hand in Open Hand History JSON, showing only the cards you saw."""
    hand, player = await service.hand_for(session, hand_id, user.id,
                                          admin=user.role is Role.ADMIN)
    text = await exports.hand_text(session, hand, player, ExportFormat.OHH)
    return Response(text, media_type="application/json")


@router.get("/hands/{hand_id}/replay")
async def read_hand_replay(hand_id: HandId, user: CurrentUser, session: DbSession) -> HandReplay:
    """A hand you were dealt into, step by step, showing only the cards you could see."""
    hand, player = await service.hand_for(session, hand_id, user.id,
                                          admin=user.role is Role.ADMIN)
    return HandReplay(hand_id=hand.id, phh_url=f"/hands/{hand.id}.phh",
                      frames=service.replay_of(hand, player))


@router.get("/hands/{hand_id}")
async def read_hand(hand_id: HandId, user: CurrentUser, session: DbSession) -> HandDetail:
    """One hand you were dealt into: players, board, shown cards, pots and your result."""
    hand, player = await service.hand_for(session, hand_id, user.id,
                                          admin=user.role is Role.ADMIN)
    return HandDetail(**hand_public(hand, player).model_dump(), summary=hand.summary)


@router.get("/users/me/stats", tags=["users"])
async def read_my_stats(user: CurrentUser, session: DbSession, game: Game | None = None
                        ) -> StatsPublic:
    """Hands played, hands won and net credits over every hand you were dealt into at a
    cash table, in every game or one."""
    played, won, net = await service.stats_of(session, user.id, game)
    return StatsPublic(hands_played=played, hands_won=won, net=net)
