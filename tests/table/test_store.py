"""The table store against a real database (SQLite, and PostgreSQL when it is set up)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.engine import Database, JSONText
from app.db.models import LedgerReason, User
from app.db.tables import TableRecord, TableStatus
from app.poker.state import Stakes
from app.table.errors import TableClosed, TableLimit
from app.table.state import TableConfig, TableState
from app.table.store import Movement, TableStore, Transfer

LIMIT = 3


async def _owner(database: Database) -> int:
    async with database.sessions() as session:
        user = User(email="owner@example.com", display_name="owner", display_name_key="owner",
                    balance=0)
        session.add(user)
        await session.commit()
        return user.id


async def test_creations_racing_in_two_processes_never_pass_the_open_table_limit(
    database_url: str,
) -> None:
    # Two processes: two engines on one database, each with its own store and no lock
    # shared in memory; twelve creations for one owner at once.
    processes = [Database(database_url) for _ in range(2)]
    try:
        owner = await _owner(processes[0])
        stores = [TableStore(database) for database in processes]
        state = TableState(TableConfig(name="t", seats=6, stakes=Stakes(1, 2), min_buy_in=40,
                                       max_buy_in=200, action_seconds=20.0))

        async def create(number: int) -> int:
            return await stores[number % 2].create(
                f"t{number}", owner, state.config.to_dict(), state.to_dict(),
                open_limit=LIMIT)

        results = await asyncio.gather(*(create(n) for n in range(12)),
                                       return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(results) - len(refused) == LIMIT, results
        assert all(isinstance(r, TableLimit) for r in refused), refused
        assert {r.details["limit"] for r in refused if isinstance(r, TableLimit)} == {LIMIT}
        async with processes[0].sessions() as session:
            stored = await session.scalar(select(func.count()).select_from(TableRecord).where(
                TableRecord.owner_id == owner, TableRecord.status == TableStatus.OPEN))
        assert stored == LIMIT
    finally:
        for database in processes:
            await database.dispose()


async def _table_and_player(database: Database, store: TableStore
                            ) -> tuple[str, int, dict[str, Any]]:
    """An open table (fencing token 1) and a player with 1,000 credits."""
    player = await _owner(database)
    async with database.sessions() as session:
        await ledger.credit(session, player, 1_000, reason=LedgerReason.ADMIN_ADJUSTMENT,
                            reference="test")
        await session.commit()
    state = TableState(TableConfig(name="t", seats=6, stakes=Stakes(1, 2), min_buy_in=40,
                                   max_buy_in=200, action_seconds=20.0)).to_dict()
    await store.create("t1", None, state["config"], state, lease_owner="p1")
    return "t1", player, state


async def _balance_and_escrow(database: Database, player: int, table_id: str) -> tuple[int, int]:
    async with database.sessions() as session:
        user = await session.get(User, player)
        assert user is not None
        return user.balance, await ledger.escrowed_at(session, table_id)


async def test_a_state_kept_as_json_text_is_stored_as_that_json(database: Database) -> None:
    # A table keeps its last stored state as the JSON text written (JSONText): the JSON
    # column takes it as it is, not as a string to encode again.
    store = TableStore(database)
    table_id, player, state = await _table_and_player(database, store)
    state["seq"] = 7
    await store.save(table_id, JSONText.of(state), token=1)
    assert await _stored(database, table_id) == state
    state["seq"] = 8
    await store.commit(table_id, Movement(buy_ins=(Transfer(player, 100),)),
                       JSONText.of(state), token=1)
    assert await _stored(database, table_id) == state
    assert JSONText.of(state).decoded() == state


async def _stored(database: Database, table_id: str) -> Any:
    async with database.sessions() as session:
        return await session.scalar(select(TableRecord.state).where(TableRecord.id == table_id))


async def test_no_buy_in_comes_to_rest_at_a_closed_table(database: Database) -> None:
    store = TableStore(database)
    table_id, player, state = await _table_and_player(database, store)
    await store.commit(table_id, Movement(closing=True), state, token=1)
    with pytest.raises(TableClosed):
        await store.commit(table_id, Movement(buy_ins=(Transfer(player, 100),)), state,
                           token=1)
    assert await _balance_and_escrow(database, player, table_id) == (1_000, 0)


async def test_a_buy_in_waiting_on_a_closing_table_is_refused_once_the_close_commits(
    database: Database,
) -> None:
    if database.engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite runs one process's tables")
    # A second writer with the same fencing token (a twin that should not exist): its
    # buy-in waits on the table's row while the close holds it, then finds it closed.
    other = Database(database.engine.url.render_as_string(hide_password=False))
    try:
        closer, buyer = TableStore(database), TableStore(other)
        table_id, player, state = await _table_and_player(database, closer)
        holding, close_goes_on = asyncio.Event(), asyncio.Event()

        async def hold(_session: AsyncSession) -> None:
            holding.set()
            await close_goes_on.wait()

        close = asyncio.create_task(closer.commit(
            table_id, Movement(closing=True, writes=(hold,)), state, token=1))
        await holding.wait()
        buy_in = asyncio.create_task(buyer.commit(
            table_id, Movement(buy_ins=(Transfer(player, 100),)), state, token=1))
        await _until_waiting_on_a_lock(database)
        close_goes_on.set()
        await close
        with pytest.raises(TableClosed):
            await buy_in
        assert await _balance_and_escrow(database, player, table_id) == (1_000, 0)
    finally:
        await other.dispose()


async def _until_waiting_on_a_lock(database: Database) -> None:
    while True:
        async with database.sessions() as session:
            waiting = await session.scalar(text(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"))
        if waiting:
            return
        await asyncio.sleep(0.01)
