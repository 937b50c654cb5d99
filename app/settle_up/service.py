"""A table's ledger from the credits ledger: every buy-in, top-up and cash-out that
referred to the table, the chips still in front of each seat, and the fewest payments
that settle the night (:mod:`app.settle_up.transfers`)."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import LedgerEntry, LedgerReason, Role, User
from app.db.tables import TableRecord, TableStatus
from app.errors import HoldemError
from app.settle_up.schemas import LedgerLinePublic, SettleUpPublic, TransferPublic
from app.settle_up.transfers import fewest_transfers
from app.table.state import TableState
from app.table.store import HOUSE_EMAIL

HOUSE_NAME = "The house (bots)"


class LedgerNotFound(HoldemError):
    """No table with this id whose ledger you may read."""

    code = "table_not_found"
    status = 404


@dataclass(slots=True)
class _Line:
    user: User
    buy_ins: int = 0
    bought_in: int = 0
    cashed_out: int = 0
    at_table: int = 0


async def table_ledger(session: AsyncSession, table_id: str, reader: User) -> SettleUpPublic:
    """The ledger of a cash table, for its host, anyone who bought in there, and admins
    (:class:`LedgerNotFound` for anyone else, as for a table that does not exist)."""
    table = await session.get(TableRecord, table_id)
    if table is None or table.tournament_id is not None:
        raise LedgerNotFound(f"no table {table_id} with a ledger you may read")
    rows = await session.execute(
        select(LedgerEntry, User).join(User, User.id == LedgerEntry.user_id)
        .where(LedgerEntry.reference == table_id,
               LedgerEntry.reason.in_((LedgerReason.TABLE_BUY_IN, LedgerReason.TABLE_CASH_OUT)))
        .order_by(LedgerEntry.id))
    lines: dict[int, _Line] = {}
    for entry, user in rows:
        line = lines.setdefault(user.id, _Line(user))
        if entry.reason is LedgerReason.TABLE_BUY_IN:
            line.buy_ins += 1
            line.bought_in -= entry.amount
        else:
            line.cashed_out += entry.amount
    if not (reader.role is Role.ADMIN or table.owner_id == reader.id or reader.id in lines):
        raise LedgerNotFound(f"no table {table_id} with a ledger you may read")
    is_open = table.status is TableStatus.OPEN
    if is_open:
        await _count_chips_at_table(session, table, lines)
    return _settle_up(table, lines, is_open)


async def _count_chips_at_table(session: AsyncSession, table: TableRecord,
                                lines: dict[int, _Line]) -> None:
    """Each seat's chips, as the table holds them for it: a person's their own, a bot's
    the house's, and the buy-in of a person who claimed a bot's seat theirs."""
    held: dict[int | None, int] = defaultdict(int)
    for player in TableState.from_dict(table.state).players.values():
        held[None if player.is_bot else player.user_id] += player.stack - player.paid_out
        if player.successor is not None:
            held[player.successor.person.user_id] += player.successor.buy_in
    house = next((line.user.id for line in lines.values() if line.user.email == HOUSE_EMAIL),
                 None)
    for user_id, chips in held.items():
        owner = house if user_id is None else user_id
        if owner is not None and owner in lines:
            lines[owner].at_table += chips


def _settle_up(table: TableRecord, lines: dict[int, _Line], is_open: bool) -> SettleUpPublic:
    public = [_line_public(line) for line in sorted(
        lines.values(), key=lambda line: (line.user.email == HOUSE_EMAIL, -_net(line),
                                          line.user.id))]
    results = {user_id: _net(line) for user_id, line in lines.items()}
    transfers = [TransferPublic(
        payer=_name(lines[t.payer].user), payer_public_id=_public_id(lines[t.payer].user),
        payee=_name(lines[t.payee].user), payee_public_id=_public_id(lines[t.payee].user),
        amount=t.amount) for t in fewest_transfers(results)]
    return SettleUpPublic(table_id=table.id, name=table.name, open=is_open, lines=public,
                          transfers=transfers)


def _net(line: _Line) -> int:
    return line.cashed_out + line.at_table - line.bought_in


def _name(user: User) -> str:
    if user.email == HOUSE_EMAIL:
        return HOUSE_NAME
    return user.display_name or "(deleted player)"


def _public_id(user: User) -> str | None:
    return None if user.email == HOUSE_EMAIL else user.public_id


def _line_public(line: _Line) -> LedgerLinePublic:
    return LedgerLinePublic(
        name=_name(line.user), public_id=_public_id(line.user),
        house=line.user.email == HOUSE_EMAIL, buy_ins=line.buy_ins,
        bought_in=line.bought_in, cashed_out=line.cashed_out, at_table=line.at_table,
        net=_net(line))


def ledger_csv(ledger: SettleUpPublic) -> str:
    """The ledger as CSV: one row a player, then one row a payment."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "buy_ins", "bought_in", "cashed_out", "at_table", "net"])
    for line in ledger.lines:
        writer.writerow([line.name, line.buy_ins, line.bought_in, line.cashed_out,
                         line.at_table, line.net])
    writer.writerow([])
    writer.writerow(["payer", "payee", "amount"])
    for transfer in ledger.transfers:
        writer.writerow([transfer.payer, transfer.payee, transfer.amount])
    return out.getvalue()
