"""``/admin/tables`` and ``/admin/hands``: live tables, closing them, every hand history.

Included in :data:`app.admin.router.router`, so every route needs an admin;
closing a table and reading a full hand history are written to the audit log.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import PlainTextResponse

from app.accounts.dependencies import AdminUser, DbSession
from app.admin.errors import TournamentTableClose
from app.admin.service import record
from app.hands import service
from app.hands.router import HandId, Page, PerPage, hand_public
from app.hands.schemas import (
    AdminTablePublic,
    AdminTablesPublic,
    HandDetail,
    HandsPublic,
    TableClosed,
    TableCloseRequest,
)
from app.hosting.host import TableHost
from app.realtime.dispatch import ack
from app.realtime.server import Realtime
from app.table.table import Table

router = APIRouter(tags=["admin"])


def get_tables(request: Request) -> TableHost:
    """The application's live tables."""
    tables: TableHost = request.app.state.realtime.host
    return tables


Tables = Annotated[TableHost, Depends(get_tables)]
LIST_EVENT = "internal:admin-tables"
CLOSE_EVENT = "internal:admin-close"


# Table ids are short tokens; anything else (a NUL included) never reaches the database.
TABLE_ID_PATTERN = r"^[A-Za-z0-9_-]+$"


def valid_table_id(
    table_id: Annotated[str, Path(max_length=32, pattern=TABLE_ID_PATTERN)],
) -> str:
    """The table id in the path (a short token)."""
    return table_id


TargetTableId = Annotated[str, Depends(valid_table_id)]


def admin_table(table: Table) -> dict[str, Any]:
    """A live table with who sits where (user ids included: this is for admins)."""
    state = table.state
    players = [{**seat, "user_id": state.players[seat["seat"]].user_id}
               for seat in table.seats()]
    return AdminTablePublic(
        table=table.summary(), hand_id=state.current.id if state.current else None,
        hand_number=state.hand_number, players=players, escrowed=state.escrowed(),
    ).model_dump(mode="json")


def register(realtime: Realtime) -> None:
    """Answer the requests other processes send for this process's tables."""
    internal, tables = realtime.dispatcher.internal, realtime.host
    internal[LIST_EVENT] = partial(tables_here, tables)
    internal[CLOSE_EVENT] = partial(close_here, tables)


async def tables_here(tables: TableHost, _payload: dict[str, Any]) -> dict[str, Any]:
    """Every live table of this process, as admins see them."""
    return {"ok": True, "items": [admin_table(t) for t in tables.live.tables.values()
                                  if not t.closed]}


async def close_here(tables: TableHost, payload: dict[str, Any]) -> dict[str, Any]:
    """Close a table this process runs (refused for a tournament's table)."""
    table_id = str(payload["table_id"])
    tournament = tables.live.get(table_id).state.config.tournament
    if tournament is not None:
        raise TournamentTableClose(
            f"table {table_id} belongs to tournament {tournament}, which closes its own "
            "tables: cancel or finish the tournament instead", table_id=table_id,
            tournament_id=tournament)
    closed = await tables.close(table_id, str(payload["reason"]))
    return ack(closed)


@router.get("/tables")
async def list_tables(tables: Tables) -> AdminTablesPublic:
    """Every live table (of every server process), with its players and the credits it
    holds."""
    items = (await tables_here(tables, {}))["items"]
    for answer in await tables.owners.ask_every_process(LIST_EVENT, {}):
        items.extend(answer["items"])
    return AdminTablesPublic(items=items, count=len(items))


@router.post("/tables/{table_id}/close")
async def close_table(
    data: TableCloseRequest, table_id: TargetTableId, tables: Tables, admin: AdminUser,
    session: DbSession,
) -> TableClosed:
    """Close a table: a hand in play is void and every player is paid out (a tournament's
    table is refused: its tournament closes it)."""
    payload = {"table_id": table_id, "reason": data.reason}
    owner = await tables.owners.owner(table_id)
    if owner is None:
        result = await close_here(tables, payload)
    else:
        result = await tables.owners.ask_owner(owner, table_id, CLOSE_EVENT, payload)
    record(session, admin, "close_table", None, table_id=table_id, reason=data.reason,
           paid_out=result["paid_out"])
    await session.commit()
    return TableClosed(table_id=table_id, paid_out=result["paid_out"])


@router.get("/hands")
async def list_all_hands(
    session: DbSession,
    table_id: Annotated[str | None, Query(max_length=32, pattern=TABLE_ID_PATTERN)] = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> HandsPublic:
    """Every finished hand (of one table), newest first."""
    hands, count = await service.all_hands(session, table_id=table_id,
                                           offset=(page - 1) * per_page, limit=per_page)
    return HandsPublic(items=[hand_public(hand, None) for hand in hands], count=count,
                       page=page, per_page=per_page)


@router.get("/hands/{hand_id}.phh", response_class=PlainTextResponse)
async def read_full_hand_history(
    hand_id: HandId, admin: AdminUser, session: DbSession
) -> str:
    """A hand history with every player's cards (audit-logged)."""
    hand, _ = await service.hand_for(session, hand_id, admin.id, admin=True)
    record(session, admin, "read_hand_history", None, hand_id=hand_id)
    await session.commit()
    return service.phh_text(hand, None)


@router.get("/hands/{hand_id}")
async def read_any_hand(hand_id: HandId, admin: AdminUser, session: DbSession) -> HandDetail:
    """One hand's summary."""
    hand, player = await service.hand_for(session, hand_id, admin.id, admin=True)
    return HandDetail(**hand_public(hand, player).model_dump(), summary=hand.summary)
