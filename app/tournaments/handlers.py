"""Socket.IO handlers of tournaments: list, register, unregister (one line of work each),
and the tournaments' place on the realtime server."""

from __future__ import annotations

from typing import Any

from app.realtime.connections import LOBBY_ROOM
from app.realtime.dispatch import Result
from app.realtime.server import Realtime
from app.table.state import Viewer
from app.tournaments import operations
from app.tournaments.scheduler import Scheduler
from app.tournaments.schemas import TournamentListRequest, TournamentRef
from app.tournaments.service import TournamentService
from app.tournaments.store import TournamentStore
from app.tournaments.tables import TournamentTables


def install(realtime: Realtime) -> TournamentTables:
    """Run tournaments on ``realtime``'s tables: on the director process, with their
    ``tournament:*`` events and the requests other processes send for them."""
    tables = realtime.host
    services = tables.services
    service = TournamentService(TournamentStore(realtime.database),
                                house=services.store.house, now=services.now)
    tournaments = TournamentTables(service, tables, realtime.sio)
    realtime.directed.add(tournaments)
    realtime.directed.add(Scheduler(realtime.database, service, tournaments,
                                    now=services.now))
    register(realtime, tournaments)

    async def operation(payload: dict[str, Any]) -> dict[str, Any]:
        result = await operations.perform(tournaments, str(payload["op"]), payload)
        return {"ok": True, "result": result}

    realtime.dispatcher.internal[operations.INTERNAL_EVENT] = operation
    return tournaments


def register(realtime: Realtime, tournaments: TournamentTables) -> None:
    """Register the ``tournament:*`` events."""
    events, service = realtime.dispatcher, tournaments.service

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
        return await tournaments.deal(data.tournament_id, viewer.user_id)
