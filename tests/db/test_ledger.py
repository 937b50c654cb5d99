"""The ledger: every balance change is an entry, balances never go negative, and
balances plus chips escrowed at tables always equal credits granted minus removed."""

from __future__ import annotations

import asyncio
import gc

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.db import ledger
from app.db.engine import Database
from app.db.ledger import AccountNotFound, EscrowShortfall, InsufficientCredits
from app.db.models import LedgerEntry, LedgerReason, User, utcnow


async def new_user(database: Database, balance: int = 0) -> int:
    async with database.sessions() as session:
        user = User(email=f"u{utcnow().timestamp()}-{id(session)}@example.com",
                    created_at=utcnow())
        session.add(user)
        await session.flush()
        if balance:
            await ledger.credit(session, user.id, balance, reason=LedgerReason.SIGNUP_GRANT)
        await session.commit()
        return user.id


async def balance_of(database: Database, user_id: int) -> int:
    async with database.sessions() as session:
        return int(await session.scalar(select(User.balance).where(User.id == user_id)) or 0)


async def audit(database: Database) -> ledger.LedgerAudit:
    async with database.sessions() as session:
        return await ledger.audit(session)


async def test_credit_and_debit_write_entries_with_the_balance_after(database: Database) -> None:
    user_id = await new_user(database)
    async with database.sessions() as session:
        first = await ledger.credit(session, user_id, 500, reason=LedgerReason.SIGNUP_GRANT)
        second = await ledger.debit(session, user_id, 120, reason=LedgerReason.ADMIN_ADJUSTMENT,
                                    reference="correction")
        await session.commit()
    assert (first.amount, first.balance_after) == (500, 500)
    assert (second.amount, second.balance_after, second.reference) == (-120, 380, "correction")
    assert await balance_of(database, user_id) == 380
    assert (await audit(database)).balanced


async def test_a_loaded_user_sees_the_new_balance(database: Database) -> None:
    user_id = await new_user(database, 100)
    async with database.sessions() as session:
        user = await session.get(User, user_id)
        assert user is not None
        await ledger.credit(session, user_id, 50, reason=LedgerReason.DAILY_CREDITS)
        assert user.balance == 150


async def test_debit_beyond_the_balance_raises_and_changes_nothing(database: Database) -> None:
    user_id = await new_user(database, 100)
    async with database.sessions() as session:
        with pytest.raises(InsufficientCredits) as raised:
            await ledger.debit(session, user_id, 101, reason=LedgerReason.TABLE_BUY_IN)
        await session.commit()
    assert raised.value.details["balance"] == 100
    assert raised.value.to_dict()["code"] == "insufficient_credits"
    assert await balance_of(database, user_id) == 100
    async with database.sessions() as session:
        count = len((await session.scalars(select(LedgerEntry))).all())
    assert count == 1


async def test_amounts_must_be_positive_integers(database: Database) -> None:
    user_id = await new_user(database, 10)
    async with database.sessions() as session:
        for amount in (0, -5, True, 1.5):
            with pytest.raises(ValueError):
                await ledger.credit(session, user_id, amount,  # type: ignore[arg-type]
                                    reason=LedgerReason.DAILY_CREDITS)


async def test_an_unknown_account_is_reported(database: Database) -> None:
    async with database.sessions() as session:
        with pytest.raises(AccountNotFound):
            await ledger.credit(session, 999_999, 10, reason=LedgerReason.DAILY_CREDITS)


async def test_the_database_refuses_a_negative_balance_written_around_the_ledger(
    database: Database,
) -> None:
    user_id = await new_user(database, 10)
    async with database.sessions() as session:
        with pytest.raises(IntegrityError):
            await session.execute(update(User).where(User.id == user_id).values(balance=-1))
            await session.commit()


async def test_fifty_concurrent_debits_never_drive_a_balance_negative(
    database: Database,
) -> None:
    user_id = await new_user(database, 1_000)

    async def attempt() -> bool:
        async with database.sessions() as session:
            try:
                await ledger.debit(session, user_id, 100, reason=LedgerReason.TABLE_BUY_IN,
                                   reference="race")
                await session.commit()
                return True
            except InsufficientCredits:
                await session.rollback()
                return False

    results = await asyncio.gather(*(attempt() for _ in range(50)))
    assert results.count(True) == 10
    assert await balance_of(database, user_id) == 0
    async with database.sessions() as session:
        entries = (await session.scalars(
            select(LedgerEntry).where(LedgerEntry.user_id == user_id).order_by(LedgerEntry.id)
        )).all()
    assert [entry.balance_after for entry in entries] == list(range(1_000, -1, -100))
    assert all(entry.balance_after >= 0 for entry in entries)


async def test_buy_ins_and_cash_outs_move_chips_between_balances_and_a_table(
    database: Database,
) -> None:
    alice, bob = await new_user(database, 1_000), await new_user(database, 1_000)
    async with database.sessions() as session:
        await ledger.escrow(session, alice, "table-1", 400)
        await ledger.escrow(session, bob, "table-1", 600)
        await session.commit()
    state = await audit(database)
    assert (state.balances, state.escrowed, state.granted, state.removed) == (1_000, 1_000,
                                                                             2_000, 0)
    assert state.balanced

    # Bob wins 300 from Alice; both leave the table.
    async with database.sessions() as session:
        await ledger.release(session, alice, "table-1", 100)
        await ledger.release(session, bob, "table-1", 900)
        assert await ledger.escrowed_at(session, "table-1") == 0
        await session.commit()
    assert await balance_of(database, alice) == 700
    assert await balance_of(database, bob) == 1_300
    state = await audit(database)
    assert (state.balances, state.escrowed, state.granted, state.removed) == (2_000, 0, 2_000, 0)
    assert state.balanced


async def test_a_buy_in_larger_than_the_balance_escrows_nothing(database: Database) -> None:
    user_id = await new_user(database, 100)
    async with database.sessions() as session:
        with pytest.raises(InsufficientCredits):
            await ledger.escrow(session, user_id, "table-2", 200)
        await session.commit()
    state = await audit(database)
    assert state.escrowed == 0 and state.balanced


async def test_a_table_cannot_pay_out_more_than_it_holds(database: Database) -> None:
    user_id = await new_user(database, 100)
    async with database.sessions() as session:
        await ledger.escrow(session, user_id, "table-3", 100)
        with pytest.raises(EscrowShortfall) as raised:
            await ledger.release(session, user_id, "table-3", 101)
        assert raised.value.details["held"] == 100
        with pytest.raises(EscrowShortfall):
            await ledger.release(session, user_id, "no-such-table", 1)
        assert await ledger.release(session, user_id, "table-3", 0) is None


async def test_the_audit_notices_a_balance_changed_around_the_ledger(database: Database) -> None:
    user_id = await new_user(database, 100)
    async with database.sessions() as session:
        await session.execute(update(User).where(User.id == user_id).values(balance=150))
        await session.commit()
    state = await audit(database)
    assert not state.balanced
    assert state.users_off_ledger == (user_id,)


async def test_ledger_pages_are_newest_first(database: Database) -> None:
    user_id = await new_user(database)
    async with database.sessions() as session:
        for amount in range(1, 6):
            await ledger.credit(session, user_id, amount, reason=LedgerReason.DAILY_CREDITS)
        await session.commit()
        entries, count = await ledger.entries_for(session, user_id, offset=1, limit=2)
    assert count == 5
    assert [entry.amount for entry in entries] == [4, 3]


async def test_buy_ins_and_cash_outs_leave_no_reference_cycles(database: Database) -> None:
    """Garbage cycles wait for a full collection on a server (see app.collector): a
    buy-in's statements must not leave any (built per call, each left dozens)."""
    user_id = await new_user(database, 1_000)

    async def buy_in_and_cash_out() -> None:
        async with database.sessions() as session:
            await ledger.escrow(session, user_id, "table-1", 10)
            await ledger.release(session, user_id, "table-1", 10)
            await session.commit()

    await buy_in_and_cash_out()  # first use: caches fill
    gc.collect()
    gc.disable()
    try:
        for _ in range(50):
            await buy_in_and_cash_out()
        found = gc.collect()
    finally:
        gc.enable()
    assert found < 50, f"{found} objects in reference cycles after 50 buy-ins and cash-outs"
    assert await balance_of(database, user_id) == 1_000
