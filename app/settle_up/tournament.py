"""A tournament's ledger from the credits ledger: each player's buy-ins and fees, prizes
and refunds, their net, and the fewest payments that settle it
(:mod:`app.settle_up.transfers`).

The fees leave circulation when paid (the organizer's); so that the results add up to
zero and can be settled, the fees are one more line, the organizer's, that the players
pay. Payments are only worked out once the tournament is over: before, the prize pool is
still held.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import LedgerEntry, LedgerReason, Role, User
from app.db.tournaments import TournamentRecord, TournamentStatus
from app.errors import HoldemError
from app.settle_up.schemas import (
    TournamentLedgerPublic,
    TournamentLinePublic,
    TransferPublic,
)
from app.settle_up.service import HOUSE_NAME
from app.settle_up.transfers import fewest_transfers
from app.table.store import HOUSE_EMAIL

FEES_NAME = "Entry fees (the organizer)"
FEES = "fees"
REASONS = (LedgerReason.TOURNAMENT_BUY_IN, LedgerReason.TOURNAMENT_FEE,
           LedgerReason.TOURNAMENT_PRIZE, LedgerReason.TOURNAMENT_REFUND)


class TournamentLedgerNotFound(HoldemError):
    """No tournament with this id whose ledger you may read."""

    code = "tournament_not_found"
    status = 404


@dataclass(slots=True)
class _Line:
    user: User
    entries: int = 0
    bought_in: int = 0
    fees: int = 0
    prizes: int = 0
    refunded: int = 0

    @property
    def net(self) -> int:
        return self.prizes + self.refunded - self.bought_in - self.fees


async def tournament_ledger(session: AsyncSession, tournament_id: str, reader: User
                            ) -> TournamentLedgerPublic:
    """The ledger of a tournament, for its creator, anyone who entered it, and admins
    (:class:`TournamentLedgerNotFound` for anyone else, as for one that does not exist)."""
    tournament = await session.get(TournamentRecord, tournament_id)
    if tournament is None:
        raise TournamentLedgerNotFound(f"no tournament {tournament_id} with a ledger you may read")
    rows = await session.execute(
        select(LedgerEntry, User).join(User, User.id == LedgerEntry.user_id)
        .where(LedgerEntry.reference == tournament_id, LedgerEntry.reason.in_(REASONS))
        .order_by(LedgerEntry.id))
    lines: dict[int, _Line] = {}
    for entry, user in rows:
        _count(lines.setdefault(user.id, _Line(user)), entry)
    if not (reader.role is Role.ADMIN or tournament.created_by == reader.id
            or reader.id in lines):
        raise TournamentLedgerNotFound(f"no tournament {tournament_id} with a ledger you may read")
    over = tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    return _settle_up(tournament, lines, over)


def _count(line: _Line, entry: LedgerEntry) -> None:
    reason = entry.reason
    if reason is LedgerReason.TOURNAMENT_BUY_IN:
        line.entries += 1
        line.bought_in -= entry.amount
    elif reason is LedgerReason.TOURNAMENT_FEE:
        line.fees -= entry.amount  # a debit paid, a credit refunded
    elif reason is LedgerReason.TOURNAMENT_PRIZE:
        line.prizes += entry.amount
    else:
        line.refunded += entry.amount


def _settle_up(tournament: TournamentRecord, lines: dict[int, _Line], over: bool
               ) -> TournamentLedgerPublic:
    ordered = sorted(lines.values(), key=lambda line: (line.user.email == HOUSE_EMAIL,
                                                       -line.net, line.user.id))
    public = [_line_public(line) for line in ordered]
    fees = sum(line.fees for line in lines.values())
    transfers: list[TransferPublic] = []
    if over:
        results: dict[int | str, int] = {user_id: line.net for user_id, line in lines.items()}
        if fees:
            results[FEES] = fees
        transfers = [TransferPublic(
            payer=_name(lines, t.payer), payer_public_id=_public_id(lines, t.payer),
            payee=_name(lines, t.payee), payee_public_id=_public_id(lines, t.payee),
            amount=t.amount) for t in fewest_transfers(results)]
    return TournamentLedgerPublic(tournament_id=tournament.id, name=tournament.name,
                                  over=over, fees=fees, lines=public, transfers=transfers)


def _name(lines: dict[int, _Line], key: int | str) -> str:
    if key == FEES:
        return FEES_NAME
    user = lines[int(key)].user
    if user.email == HOUSE_EMAIL:
        return HOUSE_NAME
    return user.display_name or "(deleted player)"


def _public_id(lines: dict[int, _Line], key: int | str) -> str | None:
    if key == FEES:
        return None
    user = lines[int(key)].user
    return None if user.email == HOUSE_EMAIL else user.public_id


def _line_public(line: _Line) -> TournamentLinePublic:
    house = line.user.email == HOUSE_EMAIL
    return TournamentLinePublic(
        name=HOUSE_NAME if house else line.user.display_name or "(deleted player)",
        public_id=None if house else line.user.public_id, house=house,
        entries=line.entries, bought_in=line.bought_in, fees=line.fees, prizes=line.prizes,
        refunded=line.refunded, net=line.net)


def tournament_ledger_csv(ledger: TournamentLedgerPublic) -> str:
    """The ledger as CSV: one row a player, then one row a payment."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["player", "entries", "bought_in", "fees", "prizes", "refunded", "net"])
    for line in ledger.lines:
        writer.writerow([line.name, line.entries, line.bought_in, line.fees, line.prizes,
                         line.refunded, line.net])
    writer.writerow([])
    writer.writerow(["payer", "payee", "amount"])
    for transfer in ledger.transfers:
        writer.writerow([transfer.payer, transfer.payee, transfer.amount])
    return out.getvalue()
