"""The credits ledger: the only code that changes a balance or the chips held at tables.

Every change is a :class:`LedgerEntry` written in the caller's transaction together
with a conditional balance update, so a balance can never go below zero, even when
requests race. Nothing here commits: the caller commits once, so the entry, the
balance and whatever caused them land together or not at all.

Chips at a table are escrowed: a buy-in moves credits from a balance to the table's
:class:`TableEscrow`, a cash-out moves them back (to whoever won them), and the rake of
a hand moves from the table to the house account (:func:`pay_rake`). A tournament's
buy-ins are escrowed the same way in its prize pool (``TournamentRecord.pool_held``)
until they are refunded or paid out as prizes; its fee leaves circulation. :func:`audit`
checks DESIGN principle 4::

    sum(balances) + chips escrowed at tables and in prize pools
        == credits granted - credits removed

Totals can balance while errors cancel out; :mod:`app.admin.audit` reconciles
each account and each table from the sums here (:func:`account_sums`, :func:`escrows`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, case, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from app.db.models import TRANSFER_REASONS, LedgerEntry, LedgerReason, TableEscrow, User, utcnow
from app.db.tournaments import TournamentRecord
from app.errors import HoldemError


class InsufficientCredits(HoldemError):
    """The balance is smaller than the amount asked for."""

    code = "insufficient_credits"
    status = 409


class AccountNotFound(HoldemError):
    """No account has this id."""

    code = "account_not_found"
    status = 404


class EscrowShortfall(HoldemError):
    """A table was asked to pay out more chips than it holds."""

    code = "escrow_shortfall"
    status = 409


def _require_positive(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"amount must be a positive integer, got {amount!r}")


# The statements of a buy-in and a cash-out, built once: an expression built per call
# costs its construction and cache key every time, and leaves reference cycles
# (SQLAlchemy's comparators point back at their expressions) that only a full collection
# frees (see app.collector).
_CHANGE_BALANCE = (
    update(User)
    .where(User.id == bindparam("account"), User.balance + bindparam("delta") >= 0)
    .values(balance=User.balance + bindparam("delta"))
    .returning(User.balance)
    .execution_options(synchronize_session=False)
)
_TAKE_FROM_TABLE = (
    update(TableEscrow)
    .where(TableEscrow.table_id == bindparam("escrow"), TableEscrow.amount >= bindparam("taken"))
    .values(amount=TableEscrow.amount - bindparam("taken"), updated_at=bindparam("now"))
    .returning(TableEscrow.amount)
    .execution_options(synchronize_session=False)
)


def _adding(insert: Any) -> Any:
    """A dialect's upsert adding chips to what a table holds."""
    return insert(TableEscrow).values(
        table_id=bindparam("escrow"), amount=bindparam("added"), removed=0,
        updated_at=bindparam("now"),
    ).on_conflict_do_update(
        index_elements=[TableEscrow.table_id],
        set_={"amount": TableEscrow.amount + bindparam("added"), "updated_at": bindparam("now")},
    )


_ADD_TO_TABLE = {"postgresql": _adding(postgresql.insert), "sqlite": _adding(sqlite.insert)}


async def _change_balance(
    session: AsyncSession, user_id: int, delta: int, reason: LedgerReason, reference: str | None
) -> LedgerEntry:
    changed = await session.execute(_CHANGE_BALANCE, {"account": user_id, "delta": delta})
    balance_after = changed.scalar_one_or_none()
    if balance_after is None:
        balance = await session.scalar(select(User.balance).where(User.id == user_id))
        if balance is None:
            raise AccountNotFound("no such account", user_id=user_id)
        raise InsufficientCredits(
            f"balance is {balance}, {-delta} needed", balance=balance, needed=-delta
        )
    loaded = session.identity_map.get(identity_key(User, user_id))
    if loaded is not None:
        set_committed_value(loaded, "balance", balance_after)
    entry = LedgerEntry(
        user_id=user_id,
        amount=delta,
        reason=reason,
        reference=reference,
        balance_after=balance_after,
        created_at=utcnow(),
    )
    session.add(entry)
    await session.flush()
    return entry


async def credit(
    session: AsyncSession,
    user_id: int,
    amount: int,
    *,
    reason: LedgerReason,
    reference: str | None = None,
) -> LedgerEntry:
    """Add ``amount`` (> 0) to a balance and record why."""
    _require_positive(amount)
    return await _change_balance(session, user_id, amount, reason, reference)


async def debit(
    session: AsyncSession,
    user_id: int,
    amount: int,
    *,
    reason: LedgerReason,
    reference: str | None = None,
) -> LedgerEntry:
    """Take ``amount`` (> 0) from a balance; :class:`InsufficientCredits` if it is short."""
    _require_positive(amount)
    return await _change_balance(session, user_id, -amount, reason, reference)


async def _add_to_table(session: AsyncSession, table_id: str, amount: int) -> None:
    statement = _ADD_TO_TABLE[session.get_bind().dialect.name]
    await session.execute(statement, {"escrow": table_id, "added": amount, "now": utcnow()})


async def _take_from_table(session: AsyncSession, table_id: str, amount: int) -> None:
    taken = await session.execute(
        _TAKE_FROM_TABLE, {"escrow": table_id, "taken": amount, "now": utcnow()})
    if taken.scalar_one_or_none() is None:
        held = await session.scalar(
            select(TableEscrow.amount).where(TableEscrow.table_id == table_id)
        )
        raise EscrowShortfall(
            f"table {table_id} holds {held or 0}, asked for {amount}",
            table_id=table_id,
            held=held or 0,
            needed=amount,
        )


async def escrow(session: AsyncSession, user_id: int, table_id: str, amount: int) -> LedgerEntry:
    """Buy in: move ``amount`` from the user's balance to the chips held at ``table_id``."""
    entry = await debit(session, user_id, amount, reason=LedgerReason.TABLE_BUY_IN,
                        reference=table_id)
    await _add_to_table(session, table_id, amount)
    return entry


async def release(
    session: AsyncSession, user_id: int, table_id: str, amount: int
) -> LedgerEntry | None:
    """Cash out: move ``amount`` (the final stack, may be 0) from ``table_id`` to the user."""
    if amount == 0:
        return None
    _require_positive(amount)
    await _take_from_table(session, table_id, amount)
    return await credit(session, user_id, amount, reason=LedgerReason.TABLE_CASH_OUT,
                        reference=table_id)


async def pay_rake(
    session: AsyncSession, house_id: int, table_id: str, amount: int
) -> LedgerEntry:
    """The rake of a hand: move ``amount`` (> 0) from the chips held at ``table_id`` to the
    house account, as a ``rake`` entry naming the table."""
    _require_positive(amount)
    await _take_from_table(session, table_id, amount)
    return await credit(session, house_id, amount, reason=LedgerReason.RAKE,
                        reference=table_id)


async def escrowed_at(session: AsyncSession, table_id: str) -> int:
    """Chips currently held at ``table_id``."""
    held = await session.scalar(select(TableEscrow.amount).where(TableEscrow.table_id == table_id))
    return int(held or 0)


async def enter_tournament(
    session: AsyncSession, user_id: int, tournament_id: str, *, buy_in: int, fee: int
) -> None:
    """Take a tournament's buy-in into its prize pool and its fee out of circulation."""
    if buy_in:
        await debit(session, user_id, buy_in, reason=LedgerReason.TOURNAMENT_BUY_IN,
                    reference=tournament_id)
        await _change_pool(session, tournament_id, buy_in)
    if fee:
        await debit(session, user_id, fee, reason=LedgerReason.TOURNAMENT_FEE,
                    reference=tournament_id)


async def refund_tournament(
    session: AsyncSession, user_id: int, tournament_id: str, *, buy_in: int, fee: int
) -> None:
    """Give a withdrawn or cancelled entry its buy-in back from the pool, and its fee."""
    if buy_in:
        await _change_pool(session, tournament_id, -buy_in)
        await credit(session, user_id, buy_in, reason=LedgerReason.TOURNAMENT_REFUND,
                     reference=tournament_id)
    if fee:
        await credit(session, user_id, fee, reason=LedgerReason.TOURNAMENT_FEE,
                     reference=tournament_id)


async def pay_prize(session: AsyncSession, user_id: int, tournament_id: str, amount: int) -> None:
    """Pay ``amount`` of a tournament's prize pool to a player."""
    await _change_pool(session, tournament_id, -amount)
    await credit(session, user_id, amount, reason=LedgerReason.TOURNAMENT_PRIZE,
                 reference=tournament_id)


async def _change_pool(session: AsyncSession, tournament_id: str, delta: int) -> None:
    statement = (
        update(TournamentRecord)
        .where(TournamentRecord.id == tournament_id, TournamentRecord.pool_held + delta >= 0)
        .values(pool_held=TournamentRecord.pool_held + delta)
        .returning(TournamentRecord.pool_held)
        .execution_options(synchronize_session=False)
    )
    held = (await session.execute(statement)).scalar_one_or_none()
    if held is None:
        pool = await session.scalar(
            select(TournamentRecord.pool_held).where(TournamentRecord.id == tournament_id)
        )
        raise EscrowShortfall(
            f"tournament {tournament_id} holds {pool or 0}, asked for {-delta}",
            table_id=tournament_id, held=pool or 0, needed=-delta,
        )
    loaded = session.identity_map.get(identity_key(TournamentRecord, tournament_id))
    if loaded is not None:
        set_committed_value(loaded, "pool_held", held)


@dataclass(frozen=True)
class LedgerAudit:
    """Totals behind the chips-are-money invariant, all in credits."""

    balances: int
    escrowed: int
    granted: int
    removed: int
    users_off_ledger: tuple[int, ...]

    @property
    def balanced(self) -> bool:
        """Balances plus table chips equal net credits, and each balance matches its entries."""
        total = self.balances + self.escrowed == self.granted - self.removed
        return total and not self.users_off_ledger


async def audit(session: AsyncSession) -> LedgerAudit:
    """Recompute every total from the ledger and compare it with the stored balances."""
    balances = await session.scalar(select(func.coalesce(func.sum(User.balance), 0)))
    escrowed, rake = (
        await session.execute(
            select(
                func.coalesce(func.sum(TableEscrow.amount), 0),
                func.coalesce(func.sum(TableEscrow.removed), 0),
            )
        )
    ).one()
    pools = await session.scalar(select(func.coalesce(func.sum(TournamentRecord.pool_held), 0)))
    external = LedgerEntry.reason.not_in(list(TRANSFER_REASONS))
    granted = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            external, LedgerEntry.amount > 0
        )
    )
    taken = await session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
            external, LedgerEntry.amount < 0
        )
    )
    sums = (
        select(LedgerEntry.user_id, func.sum(LedgerEntry.amount).label("total"))
        .group_by(LedgerEntry.user_id)
        .subquery()
    )
    off = await session.scalars(
        select(User.id)
        .outerjoin(sums, sums.c.user_id == User.id)
        .where(User.balance != func.coalesce(sums.c.total, 0))
        .order_by(User.id)
    )
    return LedgerAudit(
        balances=int(balances or 0),
        escrowed=int(escrowed) + int(pools or 0),
        granted=int(granted or 0),
        removed=-int(taken or 0) + int(rake),
        users_off_ledger=tuple(off),
    )


@dataclass(frozen=True, slots=True)
class AccountSums:
    """One account's stored balance and the sums of its ledger entries."""

    user_id: int
    email: str | None
    balance: int
    entries: int
    external: int

    @property
    def on_ledger(self) -> bool:
        """Whether the balance is what its entries add up to."""
        return self.balance == self.entries


async def account_sums(session: AsyncSession) -> list[AccountSums]:
    """Every account's balance, the sum of its entries, and the sum of those that created or
    removed credits (``external``: every reason but a table transfer), by user id."""
    external = LedgerEntry.reason.not_in(list(TRANSFER_REASONS))
    sums = (
        select(
            LedgerEntry.user_id,
            func.sum(LedgerEntry.amount).label("entries"),
            func.sum(case((external, LedgerEntry.amount), else_=0)).label("external"),
        )
        .group_by(LedgerEntry.user_id)
        .subquery()
    )
    rows = await session.execute(
        select(User.id, User.email, User.balance,
               func.coalesce(sums.c.entries, 0), func.coalesce(sums.c.external, 0))
        .outerjoin(sums, sums.c.user_id == User.id)
        .order_by(User.id)
    )
    return [AccountSums(int(user_id), email, int(balance), int(entries), int(outside))
            for user_id, email, balance, entries, outside in rows]


async def escrows(session: AsyncSession) -> dict[str, int]:
    """The chips the ledger holds at each table it ever held chips for."""
    rows = await session.execute(select(TableEscrow.table_id, TableEscrow.amount))
    return {table_id: int(amount) for table_id, amount in rows}


async def entries_for(
    session: AsyncSession, user_id: int, *, offset: int, limit: int
) -> tuple[list[LedgerEntry], int]:
    """One page of a user's ledger, newest first, and the total number of entries."""
    count = await session.scalar(
        select(func.count()).select_from(LedgerEntry).where(LedgerEntry.user_id == user_id)
    )
    rows = await session.scalars(
        select(LedgerEntry)
        .where(LedgerEntry.user_id == user_id)
        .order_by(LedgerEntry.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return list(rows), int(count or 0)
