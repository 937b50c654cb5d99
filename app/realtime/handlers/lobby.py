"""The lobby's events: the listing, opening and closing a table, quick seats, and a
player's own tables."""

from __future__ import annotations

from app.realtime import schemas
from app.realtime.connections import LOBBY_ROOM
from app.realtime.dispatch import Result
from app.realtime.server import Realtime
from app.table.acks import Closed, Sat, SeatAsked
from app.table.state import Viewer


def register(realtime: Realtime) -> None:
    """Handle ``lobby:list``, ``table:create``, ``table:quick-seat``, ``table:close`` and
    ``lobby:mine``."""
    on, lobby = realtime.dispatcher.on, realtime.lobby

    @on("lobby:list", schemas.LobbyListRequest, login=False)
    async def lobby_list(sid: str, viewer: Viewer | None, data: schemas.LobbyListRequest
                         ) -> Result:
        await realtime.sio.enter_room(sid, LOBBY_ROOM)
        listing = await realtime.host.listing.tables()
        start = (data.page - 1) * data.per_page
        return {"tables": listing[start:start + data.per_page], "count": len(listing),
                "page": data.page, "per_page": data.per_page}

    @on("table:create", schemas.TableCreate)
    async def table_create(sid: str, viewer: Viewer, data: schemas.TableCreate) -> Result:
        table = await lobby.create(viewer, data)
        return {"table": table.summary(),
                "invite_code": table.state.config.invite_code}

    @on("table:quick-seat", schemas.QuickSeat)
    async def quick_seat(sid: str, viewer: Viewer, data: schemas.QuickSeat) -> Sat | SeatAsked:
        return await lobby.quick_seat(sid, viewer, data)

    @on("table:close", schemas.TableRef, table=True)
    async def close(sid: str, viewer: Viewer, data: schemas.TableRef) -> Closed:
        return await lobby.close(viewer, data.table_id)

    @on("lobby:mine", schemas.LobbyMine)
    async def mine(sid: str, viewer: Viewer, data: schemas.LobbyMine) -> Result:
        return {"tables": await lobby.mine(viewer)}
