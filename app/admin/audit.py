"""The reconciling audit: every credit accounted for, per account and per table.

The ledger's totals (:func:`app.db.ledger.audit`) can balance while chips are
wrong in places that cancel out. This audit reads the ledger, the hand results
and the stored state of every table in one consistent snapshot and checks:

- per person: ``balance + chips held for them at open tables`` equals the
  credits granted to them minus those removed (every ledger entry that is not a
  table transfer) plus the sum of their results at cash tables (``hand_players.net``)
  plus what prize pools paid them less what they paid in (tournament chips are not
  credits: tournament hands do not count, their buy-ins, refunds and prizes do);
- per account: the balance equals the sum of its ledger entries;
- the house: bots buy in from the house and their stacks go back to it, so the
  bots' chips at open tables are the house's; every hand is zero-sum, so what the
  bots won is what the people lost, and ``house balance + bots' chips at tables ==
  its external entries - the sum of every person's hand results``;
- per table: the chips the ledger holds there equal what its seats account for
  (:meth:`app.table.state.TableState.escrowed`) when it is open, 0 when closed; and the
  rake the ledger paid the house from it (``rake`` entries naming the table) is the sum
  of the rake its stored hands record (a hand's rake goes to the house in the commit
  that stores it; the house's own check above holds with it, as what the house got is
  what the people and its bots paid);
- per hand: the results counted above (``hand_players``) are the ones the hand's own
  stored summary shows, and the summary adds up (:mod:`app.admin.hand_audit`), so a
  forgery must also rewrite the hand's record to pass;
- per claw-back (:mod:`app.integrity.clawback`): what its ``clawback`` entries took
  equals what they gave, so a claw-back moves credits and never makes or loses any;
- the global totals: balances + escrowed == granted - removed.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.hand_audit import HandOff, hands_off
from app.db import ledger
from app.db.engine import Database
from app.db.models import LedgerEntry, LedgerReason
from app.db.tables import HandPlayer, HandRecord, TableRecord, TableStatus
from app.integrity.clawback import ClawBackOff, unmatched
from app.table.state import TableState
from app.table.store import HOUSE_EMAIL


class Check(enum.StrEnum):
    """Which identity an account failed."""

    HOLDINGS = "holdings"
    ENTRIES = "entries"
    HOUSE = "house"


CHECK_MEANING = {
    Check.HOLDINGS: "balance + chips at tables vs grants - removals + hand results",
    Check.ENTRIES: "balance vs the sum of its ledger entries",
    Check.HOUSE: "house balance + bots' chips at tables vs its grants - the people's results",
}


@dataclass(frozen=True, slots=True)
class AccountOff:
    """An account whose credits do not reconcile: what they should be and what they are."""

    user_id: int
    email: str | None
    check: Check
    expected: int
    actual: int


@dataclass(frozen=True, slots=True)
class TableOff:
    """A table whose escrow differs from what its seats account for."""

    table_id: str
    status: str
    expected: int
    actual: int


@dataclass(frozen=True, slots=True)
class RakeOff:
    """A table whose hands record another rake than the ledger paid the house from it."""

    table_id: str
    hands: int
    ledger: int


@dataclass(frozen=True)
class AuditReport:
    """The reconciliation: the global totals and every account and table that is off."""

    totals: ledger.LedgerAudit
    accounts: tuple[AccountOff, ...]
    tables: tuple[TableOff, ...]
    people: int
    open_tables: int
    hands: tuple[HandOff, ...]
    rake: tuple[RakeOff, ...] = ()
    clawbacks: tuple[ClawBackOff, ...] = ()

    @property
    def totals_balanced(self) -> bool:
        """Balances plus table chips equal the credits granted minus those removed."""
        totals = self.totals
        return totals.balances + totals.escrowed == totals.granted - totals.removed

    @property
    def balanced(self) -> bool:
        """Nothing is off anywhere."""
        return (self.totals_balanced and not self.accounts and not self.tables
                and not self.hands and not self.rake and not self.clawbacks)

    def describe(self) -> str:
        """A readable report, one line per finding."""
        t = self.totals
        verdict = "balanced" if self.balanced else "NOT balanced"
        lines = [
            f"ledger audit: {verdict}",
            f"  {self.people} people, {self.open_tables} open tables",
            f"  balances {t.balances} + escrowed {t.escrowed} = {t.balances + t.escrowed}; "
            f"granted {t.granted} - removed {t.removed} = {t.granted - t.removed}"
            + ("" if self.totals_balanced else "  <-- totals differ"),
        ]
        for account in self.accounts:
            who = account.email or "(no e-mail)"
            lines.append(
                f"  user {account.user_id} {who}: {account.check.value} off by "
                f"{account.actual - account.expected:+} (expected {account.expected}, "
                f"actual {account.actual}; {CHECK_MEANING[account.check]})")
        for table in self.tables:
            lines.append(
                f"  table {table.table_id} ({table.status}): escrow off by "
                f"{table.actual - table.expected:+} (seats account for {table.expected}, "
                f"the ledger holds {table.actual})")
        for hand in self.hands:
            lines.append(f"  hand {hand.hand_id} (table {hand.table_id}): {hand.problem}")
        for rake in self.rake:
            lines.append(f"  table {rake.table_id}: its hands record a rake of {rake.hands}, "
                         f"the ledger paid the house {rake.ledger}")
        for claw in self.clawbacks:
            lines.append(f"  claw-back {claw.reference}: took {claw.taken}, gave {claw.given}")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class _OpenTable:
    escrowed: int
    held: dict[int, int]


TOURNAMENT_TRANSFERS = (LedgerReason.TOURNAMENT_BUY_IN, LedgerReason.TOURNAMENT_PRIZE,
                        LedgerReason.TOURNAMENT_REFUND)
HOUSE = -1  # the key of the bots' chips (the house's credits) among a table's holdings


def _open_table(state: TableState) -> _OpenTable:
    held: dict[int, int] = defaultdict(int)
    if state.config.tournament is not None:
        return _OpenTable(state.escrowed(), {})  # tournament chips: the credits are in the pool
    for player in state.players.values():
        owner = player.user_id if player.user_id is not None else HOUSE
        held[owner] += player.stack - player.paid_out
        if player.successor is not None and player.successor.person.user_id is not None:
            held[player.successor.person.user_id] += player.successor.buy_in
    return _OpenTable(state.escrowed(), dict(held))


async def _tables(session: AsyncSession) -> tuple[dict[str, TableStatus], dict[str, _OpenTable]]:
    rows = await session.execute(select(TableRecord.id, TableRecord.status))
    statuses = {table_id: status for table_id, status in rows}
    states = await session.execute(
        select(TableRecord.id, TableRecord.state).where(TableRecord.status == TableStatus.OPEN))
    return statuses, {table_id: _open_table(TableState.from_dict(state))
                      for table_id, state in states}


async def _hand_results(session: AsyncSession) -> dict[int, int]:
    """Each person's net result at cash tables (tournament hands move tournament chips)."""
    rows = await session.execute(
        select(HandPlayer.user_id, func.sum(HandPlayer.net))
        .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
        .join(TableRecord, TableRecord.id == HandRecord.table_id)
        .where(TableRecord.tournament_id.is_(None))
        .group_by(HandPlayer.user_id))
    return {int(user_id): int(net) for user_id, net in rows}


async def _tournament_flows(session: AsyncSession) -> dict[int, int]:
    """What each account paid into prize pools and was paid back (buy-ins, prizes, refunds)."""
    rows = await session.execute(
        select(LedgerEntry.user_id, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.reason.in_(list(TOURNAMENT_TRANSFERS)))
        .group_by(LedgerEntry.user_id))
    return {int(user_id): int(total) for user_id, total in rows}


async def _rake_off(session: AsyncSession) -> list[RakeOff]:
    """Every table whose hands' rake differs from the ``rake`` entries naming it."""
    rows = await session.execute(
        select(HandRecord.table_id, func.sum(HandRecord.rake))
        .where(HandRecord.rake != 0).group_by(HandRecord.table_id))
    hands = {str(table_id): int(rake) for table_id, rake in rows}
    rows = await session.execute(
        select(LedgerEntry.reference, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.reason == LedgerReason.RAKE).group_by(LedgerEntry.reference))
    paid = {str(table_id): int(rake) for table_id, rake in rows}
    return [RakeOff(table_id, hands.get(table_id, 0), paid.get(table_id, 0))
            for table_id in sorted(set(hands) | set(paid))
            if hands.get(table_id, 0) != paid.get(table_id, 0)]


def _tables_off(
    statuses: dict[str, TableStatus], open_tables: dict[str, _OpenTable],
    escrows: dict[str, int],
) -> list[TableOff]:
    off: list[TableOff] = []
    for table_id in sorted(set(statuses) | set(escrows)):
        table = open_tables.get(table_id)
        expected = table.escrowed if table is not None else 0
        actual = escrows.get(table_id, 0)
        if expected != actual:
            status = statuses[table_id].value if table_id in statuses else "unknown"
            off.append(TableOff(table_id, status, expected, actual))
    return off


def _accounts_off(
    accounts: list[ledger.AccountSums], held: dict[int, int], results: dict[int, int],
    tournaments: dict[int, int],
) -> list[AccountOff]:
    off: list[AccountOff] = []
    everyone = sum(results.values())
    for account in accounts:
        if not account.on_ledger:
            off.append(AccountOff(account.user_id, account.email, Check.ENTRIES,
                                  account.entries, account.balance))
        flows = tournaments.get(account.user_id, 0)
        if account.email == HOUSE_EMAIL:
            check, actual = Check.HOUSE, account.balance + held.get(HOUSE, 0)
            expected = account.external - everyone + flows
        else:
            check, actual = Check.HOLDINGS, account.balance + held.get(account.user_id, 0)
            expected = account.external + results.get(account.user_id, 0) + flows
        if expected != actual:
            off.append(AccountOff(account.user_id, account.email, check, expected, actual))
    return off


async def reconcile(session: AsyncSession) -> AuditReport:
    """Reconcile every account and table as ``session`` sees them.

    Call it on a fresh session: :func:`audit` gives it a consistent snapshot.
    """
    accounts = await ledger.account_sums(session)
    escrows = await ledger.escrows(session)
    results = await _hand_results(session)
    statuses, open_tables = await _tables(session)
    totals = await ledger.audit(session)
    held: dict[int, int] = defaultdict(int)
    for table in open_tables.values():
        for user_id, chips in table.held.items():
            held[user_id] += chips
    return AuditReport(
        totals=totals,
        accounts=tuple(_accounts_off(accounts, held, results,
                                     await _tournament_flows(session))),
        tables=tuple(_tables_off(statuses, open_tables, escrows)),
        people=sum(1 for a in accounts if a.email != HOUSE_EMAIL),
        open_tables=len(open_tables),
        hands=tuple(await hands_off(session)),
        rake=tuple(await _rake_off(session)),
        clawbacks=tuple(await unmatched(session)),
    )


async def _snapshot(session: AsyncSession) -> None:
    """Make every read of ``session`` see the same committed moment, while tables play."""
    if session.get_bind().dialect.name == "postgresql":
        await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    else:
        # pysqlite opens a transaction only before a write; reads each see the latest commit.
        connection = await session.connection()
        await connection.exec_driver_sql("BEGIN")


async def audit(database: Database) -> AuditReport:
    """Reconcile ``database`` in one snapshot (safe while the server runs)."""
    async with database.sessions() as session:
        await _snapshot(session)
        try:
            return await reconcile(session)
        finally:
            await session.rollback()
