"""One process runs the tables of a database: an exclusive lock held while it serves.

Two processes that both restored and dealt the same tables would record hands
twice and pay players twice. Until tables have owners of their own, the first
process to start holds this lock for as long as it runs, and any other process
on the same database runs no tables (it still serves accounts and the REST API).

- PostgreSQL: a session-level advisory lock on a connection kept open for the
  lock's lifetime; the server drops it when that connection ends, so a crashed
  process never leaves it behind.
- SQLite: an exclusive ``flock`` on a file beside the database, released by the
  operating system when the process ends.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

# An arbitrary constant naming "the holdem-server table runner" among advisory locks.
ADVISORY_LOCK_KEY = 0x484F4C44454D


class ProcessLock:
    """The exclusive right of one process to run a database's tables."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._connection: AsyncConnection | None = None
        self._file: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        """Whether this process holds the lock."""
        return self._connection is not None or self._file is not None

    async def acquire(self) -> bool:
        """Take the lock if nobody holds it; False when another process does."""
        if self.held:
            return True
        url = self._engine.url
        if url.get_backend_name() == "postgresql":
            return await self._acquire_advisory()
        return self._acquire_file(url.database)

    async def _acquire_advisory(self) -> bool:
        connection = await self._engine.connect()
        try:
            got = await connection.scalar(text("SELECT pg_try_advisory_lock(:key)"),
                                          {"key": ADVISORY_LOCK_KEY})
            await connection.commit()
        except BaseException:
            await connection.close()
            raise
        if not got:
            await connection.close()
            return False
        self._connection = connection
        return True

    def _acquire_file(self, database: str | None) -> bool:
        if database in (None, "", ":memory:"):
            return True
        path = Path(f"{database}.tables.lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("ab")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n".encode())
        handle.flush()
        self._file = handle
        return True

    async def release(self) -> None:
        """Give the lock up (at shutdown)."""
        if self._connection is not None:
            try:
                await self._connection.close()
            finally:
                self._connection = None
        if self._file is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def describe(url: str) -> str:
    """The database as a log line may name it (no password)."""
    return make_url(url).render_as_string(hide_password=True)
