"""Socket.IO handlers of tournaments: list, register, unregister (one line of work each)."""

from __future__ import annotations

from typing import Any

from app.realtime.connections import LOBBY_ROOM, Viewer
from app.realtime.events import Events, Result
from app.realtime.server import Realtime
from app.tournaments.schemas import TournamentListRequest, TournamentRef


def register(realtime: Realtime, events: Events) -> None:
    """Register the ``tournament:*`` events."""
    tournaments = realtime.tournaments
    service = tournaments.service

    @events.on("tournament:list", TournamentListRequest, login=False, tournament=True)
    async def listing(sid: str, viewer: Viewer | None, _: Any) -> Result:
        await realtime.sio.enter_room(sid, LOBBY_ROOM)
        return {"tournaments": service.listing()}

    @events.on("tournament:register", TournamentRef, tournament=True)
    async def enter(sid: str, viewer: Viewer, data: TournamentRef) -> Result:
        tournaments.require_running()
        entry = await service.register(data.tournament_id, viewer.user_id, viewer.name,
                                       viewer.public_id)
        await tournaments.announce(data.tournament_id)
        return {"tournament_id": data.tournament_id, "entry": entry.id,
                "entrants": len(service.get(data.tournament_id).entries)}

    @events.on("tournament:unregister", TournamentRef, tournament=True)
    async def withdraw(sid: str, viewer: Viewer, data: TournamentRef) -> Result:
        tournaments.require_running()
        entry = await service.unregister(data.tournament_id, viewer.user_id)
        await tournaments.announce(data.tournament_id)
        return {"tournament_id": data.tournament_id, "refunded": entry.id}

    @events.on("tournament:deal", TournamentRef, tournament=True)
    async def deal(sid: str, viewer: Viewer, data: TournamentRef) -> Result:
        tournaments.require_running()
        result = await service.agree_to_deal(data.tournament_id, viewer.user_id)
        if result["done"]:
            await tournaments.finish(data.tournament_id)
        return {"tournament_id": data.tournament_id, **result}
