"""The table store against a real database (SQLite, and PostgreSQL when it is set up)."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.db.engine import Database
from app.db.models import User
from app.db.tables import TableRecord, TableStatus
from app.poker.state import Stakes
from app.table.errors import TableLimit
from app.table.state import TableConfig, TableState
from app.table.store import TableStore

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
