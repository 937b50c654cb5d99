"""The database's being unreachable comes out of every way in (a session, a connection,
a transaction, the SQLite writing thread) as one typed error."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from app.db.engine import Database, StorageUnavailable, is_unavailable
from app.errors import ServiceUnavailable
from tests.conftest import free_port


async def test_a_session_that_cannot_reach_its_database_raises_storage_unavailable() -> None:
    # Nothing listens on the port: the connection is refused as the session first reads.
    database = Database(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nowhere")
    try:
        with pytest.raises(StorageUnavailable) as raised:
            async with database.sessions() as session:
                await session.execute(text("SELECT 1"))
    finally:
        await database.dispose()
    error = raised.value
    assert isinstance(error, ServiceUnavailable) and error.code == "service_unavailable"
    assert error.details["retry_after"] > 0 and is_unavailable(error)
    assert is_unavailable(error.__cause__ or error)


@pytest.mark.parametrize("way_in", ["begin", "connect"])
async def test_a_connection_that_cannot_reach_its_database_raises_storage_unavailable(
    way_in: str,
) -> None:
    database = Database(f"postgresql+asyncpg://postgres@127.0.0.1:{free_port()}/nowhere")
    try:
        with pytest.raises(StorageUnavailable) as raised:
            async with getattr(database, way_in)() as connection:
                await connection.execute(text("SELECT 1"))
    finally:
        await database.dispose()
    assert is_unavailable(raised.value.__cause__ or raised.value)


async def test_the_sqlite_writing_thread_raises_storage_unavailable_when_the_file_is_gone(
    tmp_path: Path,
) -> None:
    # A folder where the database file should be: SQLite cannot open it at all.
    (tmp_path / "held.db").mkdir()
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'held.db'}")
    assert database.sqlite_thread is not None
    try:
        with pytest.raises(StorageUnavailable):
            await database.sqlite_thread.transaction(
                lambda connection: connection.execute(text("SELECT 1")))
    finally:
        await database.dispose()


async def test_a_refusal_of_the_database_comes_out_of_a_session_as_it_was(
    database_url: str,
) -> None:
    # A statement the database refuses is no outage: the driver's error, as before.
    database = Database(database_url)
    try:
        with pytest.raises(IntegrityError):
            async with database.sessions() as session:
                await session.execute(text("CREATE TEMPORARY TABLE once (x INTEGER PRIMARY KEY)"))
                for _ in range(2):
                    await session.execute(text("INSERT INTO once (x) VALUES (1)"))
    finally:
        await database.dispose()
