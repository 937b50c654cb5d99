"""The database refuses every write of a table from a process that no longer owns it: a
state save or a chip commit with a stale fencing token changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select, text

from app.db.engine import Database
from app.db.models import LedgerEntry, User
from app.db.tables import TableRecord
from app.hosting.leases import Lease, Leases
from app.poker.state import Stakes
from app.table.errors import TableMoved
from app.table.state import TableConfig, TableState
from app.table.store import Movement, TableStore, Transfer

BANKROLL = 10_000


def _state(name: str) -> TableState:
    return TableState(TableConfig(name=name, seats=6, stakes=Stakes(5, 10), min_buy_in=100,
                                  max_buy_in=2_000, action_seconds=30.0))


async def _moved_to(database: Database, table_id: str, *, first: str, then: str
                    ) -> tuple[TableStore, int, int]:
    """A table created by process ``first`` (token 1), then taken by ``then`` (token 2)."""
    store = TableStore(database, house_bankroll=BANKROLL)
    state = _state(table_id)
    old = await store.create(table_id, None, state.config.to_dict(), state.to_dict(),
                             lease_owner=first)
    taker = Leases(database, process_id=then, lease_seconds=3)
    new = await taker.claim(Lease(table_id, first, old, tournament=False))
    assert (old, new) == (1, 2)
    return store, old, new


async def _row(database: Database, table_id: str) -> tuple[dict[str, Any], Any, int]:
    async with database.sessions() as session:
        record = await session.get(TableRecord, table_id)
        assert record is not None
        return record.state, record.updated_at, record.lease_token


async def _books(database: Database, house: int) -> tuple[int, int]:
    async with database.sessions() as session:
        balance = await session.scalar(select(User.balance).where(User.id == house))
        entries = await session.scalar(select(func.count()).select_from(LedgerEntry))
        return int(balance or 0), int(entries or 0)


async def test_a_save_with_a_stale_token_is_refused_and_changes_nothing(
    database: Database,
) -> None:
    store, stale, current = await _moved_to(database, "t1", first="old", then="new")
    before = await _row(database, "t1")
    changed = _state("t1")
    changed.seq = 99
    with pytest.raises(TableMoved):
        await store.save("t1", changed.to_dict(), token=stale)
    assert await _row(database, "t1") == before
    await store.save("t1", changed.to_dict(), token=current)
    assert (await _row(database, "t1"))[0]["seq"] == 99
    await store.writer.stop()


async def test_a_chip_commit_with_a_stale_token_is_refused_and_moves_no_chip(
    database: Database,
) -> None:
    store, stale, current = await _moved_to(database, "t2", first="old", then="new")
    house = await store.house()
    books = await _books(database, house)
    before = await _row(database, "t2")
    seated = _state("t2")
    seated.seq = 7
    buy_in = Movement(buy_ins=(Transfer(None, 500),))
    with pytest.raises(TableMoved):
        await store.commit("t2", buy_in, seated.to_dict(), token=stale)
    with pytest.raises(TableMoved):
        await store.commit("t2", Movement(closing=True), seated.to_dict(), token=stale)
    assert await _books(database, house) == books
    assert await _row(database, "t2") == before
    async with database.sessions() as session:
        assert await session.scalar(select(TableRecord.status).where(
            TableRecord.id == "t2")) == "open"
    await store.commit("t2", buy_in, seated.to_dict(), token=current)
    assert await _books(database, house) == (books[0] - 500, books[1] + 1)
    await store.writer.stop()


async def test_one_group_commit_writes_the_owned_tables_and_refuses_the_stale_one(
    database: Database,
) -> None:
    store, stale, _ = await _moved_to(database, "gone", first="me", then="other")
    kept = _state("kept")
    mine = await store.create("kept", None, kept.config.to_dict(), kept.to_dict(),
                              lease_owner="me")
    before = await _row(database, "gone")
    kept.seq = gone_seq = 5
    saves = await asyncio.gather(
        store.save("kept", kept.to_dict(), token=mine),
        store.save("gone", {**before[0], "seq": gone_seq}, token=stale),
        return_exceptions=True)
    assert saves[0] is None and isinstance(saves[1], TableMoved), saves
    assert (await _row(database, "kept"))[0]["seq"] == 5
    assert await _row(database, "gone") == before
    await store.writer.stop()


async def test_a_write_without_a_token_only_changes_a_table_nobody_owns(
    database: Database,
) -> None:
    store = TableStore(database)
    for table_id, owner in (("owned", "someone"), ("free", None)):
        state = _state(table_id)
        await store.create(table_id, None, state.config.to_dict(), state.to_dict(),
                           lease_owner=owner)
    with pytest.raises(TableMoved):
        await store.save("owned", {**_state("owned").to_dict(), "seq": 3})
    await store.save("free", {**_state("free").to_dict(), "seq": 3})
    assert (await _row(database, "owned"))[0]["seq"] == 0
    assert (await _row(database, "free"))[0]["seq"] == 3
    await store.writer.stop()


async def test_a_released_table_refuses_its_last_owner(database: Database) -> None:
    store = TableStore(database)
    state = _state("t3")
    token = await store.create("t3", None, state.config.to_dict(), state.to_dict(),
                               lease_owner="drained")
    leases = Leases(database, process_id="drained", lease_seconds=3)
    assert await leases.release("t3", token)
    with pytest.raises(TableMoved):
        await store.save("t3", {**state.to_dict(), "seq": 4}, token=token)
    assert (await _row(database, "t3"))[0]["seq"] == 0
    await store.writer.stop()


async def test_a_claim_never_waits_for_a_row_another_transaction_holds(
    database: Database,
) -> None:
    if database.engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite runs one process's tables")
    store = TableStore(database)
    state = _state("t4")
    token = await store.create("t4", None, state.config.to_dict(), state.to_dict(),
                               lease_owner="paused")
    claimer = Leases(database, process_id="claimer", lease_seconds=3)
    async with database.engine.connect() as paused:
        # A process stopped in the middle of its commit: the row stays locked.
        await paused.execute(text("SELECT id FROM poker_tables WHERE id = 't4' FOR UPDATE"))
        started = asyncio.get_running_loop().time()
        taken = await claimer.claim(Lease("t4", "paused", token, tournament=False))
        assert taken is None
        assert asyncio.get_running_loop().time() - started < 1.0
        await paused.rollback()
    assert await claimer.claim(Lease("t4", "paused", token, tournament=False)) == token + 1
