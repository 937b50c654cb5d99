"""A SQLite file's writing thread: a whole transaction in one call, committed or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Connection, select, update

from app.db.engine import Database
from app.db.models import User, utcnow


async def test_a_transaction_on_the_thread_commits_what_the_pool_then_reads(
        tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path}/t.sqlite3")
    try:
        async with database.engine.begin() as connection:
            await connection.run_sync(User.metadata.create_all)
        thread = database.sqlite_thread
        assert thread is not None

        def add(connection: Connection) -> int:
            connection.execute(User.__table__.insert().values(  # type: ignore[attr-defined]
                email="a@example.com", created_at=utcnow(), balance=5))
            return int(connection.execute(select(User.balance)).scalar_one())

        assert await thread.transaction(add) == 5

        def fail(connection: Connection) -> None:
            connection.execute(update(User).values(balance=99))
            raise RuntimeError("refused")

        with pytest.raises(RuntimeError):
            await thread.transaction(fail)
        async with database.sessions() as session:
            assert await session.scalar(select(User.balance)) == 5
    finally:
        await database.dispose()


async def test_only_a_sqlite_file_has_a_writing_thread() -> None:
    memory = Database("sqlite+aiosqlite:///:memory:")
    assert memory.sqlite_thread is None
    await memory.dispose()
