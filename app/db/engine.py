"""The async engine and session factory for a database URL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

SQLITE_BUSY_TIMEOUT_SECONDS = 30


def is_sqlite(url: str | URL) -> bool:
    """Whether ``url`` points at SQLite."""
    return make_url(url).get_backend_name() == "sqlite"


def ensure_sqlite_folder(url: str | URL) -> None:
    """Create the folder of a file-backed SQLite database (``./var/`` by default)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead logging lets readers run while one request writes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def create_engine(url: str | URL, **options: Any) -> AsyncEngine:
    """An async engine; SQLite gets foreign keys, WAL and waits for locks."""
    if is_sqlite(url):
        ensure_sqlite_folder(url)
        options.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS})
        engine = create_async_engine(url, **options)
        event.listen(engine.sync_engine, "connect", _configure_sqlite)
        return engine
    options.setdefault("pool_pre_ping", True)
    return create_async_engine(url, **options)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


class Database:
    """One database: its engine and the factory for sessions on it."""

    def __init__(self, url: str | URL, **options: Any) -> None:
        self.engine = create_engine(url, **options)
        self.sessions = create_sessionmaker(self.engine)

    async def dispose(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()
