"""``/tables/{id}/ledger``: a table's settle-up, for its host, its players and admins."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import PlainTextResponse

from app.accounts.dependencies import CurrentUser, DbSession
from app.errors import error_responses
from app.settle_up import service
from app.settle_up.schemas import SettleUpPublic, TournamentLedgerPublic
from app.settle_up.tournament import tournament_ledger, tournament_ledger_csv

router = APIRouter(tags=["tables"], responses=error_responses(401, 403, 404, 422))
TournamentId = Annotated[str, Path(pattern=r"^[0-9A-Za-z_-]{1,32}$",
                                  description="The tournament's id")]
TableId = Annotated[str, Path(pattern=r"^[0-9A-Za-z_-]{1,32}$", description="The table's id")]


@router.get("/tables/{table_id}/ledger")
async def read_table_ledger(table_id: TableId, user: CurrentUser,
                            session: DbSession) -> SettleUpPublic:
    """Each player's buy-ins, cash-outs, chips at the table and net, and who pays whom."""
    return await service.table_ledger(session, table_id, user)


@router.get("/tables/{table_id}/ledger.csv", response_class=PlainTextResponse)
async def read_table_ledger_csv(table_id: TableId, user: CurrentUser,
                                session: DbSession) -> PlainTextResponse:
    """The same ledger as CSV: a row a player, then a row a payment."""
    ledger = await service.table_ledger(session, table_id, user)
    return PlainTextResponse(service.ledger_csv(ledger), media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="ledger-{table_id}.csv"'})


@router.get("/tournaments/{tournament_id}/ledger", tags=["tournaments"])
async def read_tournament_ledger(tournament_id: TournamentId, user: CurrentUser,
                                 session: DbSession) -> TournamentLedgerPublic:
    """Each player's buy-ins and fees, prizes and net, and who pays whom."""
    return await tournament_ledger(session, tournament_id, user)


@router.get("/tournaments/{tournament_id}/ledger.csv", response_class=PlainTextResponse,
            tags=["tournaments"])
async def read_tournament_ledger_csv(tournament_id: TournamentId, user: CurrentUser,
                                     session: DbSession) -> PlainTextResponse:
    """The same ledger as CSV: a row a player, then a row a payment."""
    ledger = await tournament_ledger(session, tournament_id, user)
    return PlainTextResponse(tournament_ledger_csv(ledger), media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="ledger-{tournament_id}.csv"'})
