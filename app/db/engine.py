"""The async engine and session factory for a database URL."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, event, text
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.errors import ServiceUnavailable

T = TypeVar("T")

SQLITE_BUSY_TIMEOUT_SECONDS = 30
POSTGRES_CONNECT_TIMEOUT_SECONDS = 5
# SQLSTATE classes meaning "the database cannot serve now": connection exceptions,
# operator intervention (shut down, sessions ended), insufficient resources, and
# object not in prerequisite state (a database not accepting connections).
_UNAVAILABLE_SQLSTATE_CLASSES = ("08", "57", "53", "55")

# PostgreSQL ends a session left idle inside a transaction this long (a paused
# process's: its locks go with it and nothing of it commits) ...
IDLE_IN_TRANSACTION = "5s"
# ... and no statement of ours waits longer than this for a row lock.
LOCK_TIMEOUT = "5s"


async def bound_waits(connection: Any, *, lock_timeout: str = LOCK_TIMEOUT) -> None:
    """On PostgreSQL, bound this transaction's lock waits and its idle time; nothing on
    SQLite (one process runs its tables, under the table lock)."""
    if connection.dialect.name != "postgresql":
        return
    await connection.execute(
        text("SELECT set_config('lock_timeout', :lock, true), "
             "set_config('idle_in_transaction_session_timeout', :idle, true)"),
        {"lock": lock_timeout, "idle": IDLE_IN_TRANSACTION})


class StorageUnavailable(ServiceUnavailable):
    """The database cannot be reached or cannot serve right now (``service_unavailable``).

    :meth:`Database.sessions` raises it in place of the driver's error, so a request
    whose work reads or writes through a session is refused as documented by whichever
    edge catches it (a REST route, a socket request, a table's task), by its type."""

    def __init__(self, message: str = "the server cannot reach its database: try again "
                 "in a few seconds", **details: Any) -> None:
        details.setdefault("retry_after", 5)
        super().__init__(message, **details)


def is_unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the database cannot be reached or cannot serve right now
    (as opposed to a request it refused, such as a constraint violation)."""
    if isinstance(error, (StorageUnavailable, ConnectionError, TimeoutError, socket.gaierror,
                          DisconnectionError)):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated or isinstance(error, (OperationalError, InterfaceError)):
        return True
    state = str(getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", "") or "")
    return state[:2] in _UNAVAILABLE_SQLSTATE_CLASSES


@contextmanager
def typed_unavailable() -> Iterator[None]:
    """Raise :class:`StorageUnavailable` in place of any error of the block that means the
    database cannot be reached or cannot serve (:func:`is_unavailable`): everything above
    ``app/db`` catches that type, and asks nothing of the driver's errors."""
    try:
        yield
    except StorageUnavailable:
        raise
    except Exception as error:
        if is_unavailable(error):
            raise StorageUnavailable() from error
        raise


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


class JSONText(str):
    """A value already encoded as JSON text: a JSON column stores it as it is."""

    __slots__ = ()

    @classmethod
    def of(cls, value: Any) -> JSONText:
        """``value`` encoded (compact, as every JSON column is written)."""
        return cls(orjson.dumps(value).decode())

    def decoded(self) -> Any:
        """The value back (orjson reads only an exact ``str``)."""
        return orjson.loads(str(self))


def _json_dumps(value: Any) -> str:
    return value if isinstance(value, JSONText) else orjson.dumps(value).decode()


def create_engine(url: str | URL, **options: Any) -> AsyncEngine:
    """An async engine (JSON columns through orjson); SQLite gets foreign keys, WAL and
    waits for locks."""
    options.setdefault("json_serializer", _json_dumps)
    options.setdefault("json_deserializer", orjson.loads)
    if is_sqlite(url):
        ensure_sqlite_folder(url)
        options.setdefault("connect_args", {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS})
        engine = create_async_engine(url, **options)
        event.listen(engine.sync_engine, "connect", _configure_sqlite)
        return engine
    options.setdefault("pool_pre_ping", True)
    options.setdefault("connect_args", {"timeout": POSTGRES_CONNECT_TIMEOUT_SECONDS})
    return create_async_engine(url, **options)


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


class SQLiteThread:
    """A SQLite file's own thread with a synchronous connection, which runs a whole
    transaction per call: the event loop waits once for it, not once per statement as
    through the async driver (each of those waits is a turn of a busy loop)."""

    def __init__(self, url: URL) -> None:
        self.engine = create_sync_engine(
            url.set(drivername="sqlite"), json_serializer=_json_dumps,
            json_deserializer=orjson.loads,
            connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False})
        event.listen(self.engine, "connect", _configure_sqlite)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")

    async def transaction(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one transaction on the thread; committed unless it raises
        (unreachable: :class:`StorageUnavailable`)."""
        def run() -> T:
            with self.engine.begin() as connection:
                return work(connection)
        with typed_unavailable():
            return await asyncio.get_running_loop().run_in_executor(self._thread, run)

    def close(self) -> None:
        """Wait for the transaction under way, then close the connection."""
        self._thread.shutdown(wait=True)
        self.engine.dispose()


class Database:
    """One database: its engine and the factory for sessions on it; for a SQLite file,
    also its writing thread."""

    def __init__(self, url: str | URL, **options: Any) -> None:
        self.engine = create_engine(url, **options)
        self._sessions = create_sessionmaker(self.engine)
        parsed = make_url(url)
        on_file = is_sqlite(parsed) and parsed.database not in (None, "", ":memory:")
        self.sqlite_thread = SQLiteThread(parsed) if on_file else None

    @asynccontextmanager
    async def sessions(self) -> AsyncIterator[AsyncSession]:
        """A session, closed on the way out; the database's being unreachable, whenever
        the session meets it, comes out as :class:`StorageUnavailable`."""
        with typed_unavailable():
            async with self._sessions() as session:
                yield session

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction, committed unless the block raises; unreachable
        comes out as :class:`StorageUnavailable`."""
        with typed_unavailable():
            async with self.engine.begin() as connection:
                yield connection

    @asynccontextmanager
    async def connect(self) -> AsyncIterator[AsyncConnection]:
        """A connection (autobegin, rolled back unless committed); unreachable comes out
        as :class:`StorageUnavailable`."""
        with typed_unavailable():
            async with self.engine.connect() as connection:
                yield connection

    async def reachable(self) -> bool:
        """Whether the database answers a trivial query now."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except Exception as error:
            if is_unavailable(error):
                return False
            raise
        return True

    async def dispose(self) -> None:
        """Close every pooled connection."""
        if self.sqlite_thread is not None:
            self.sqlite_thread.close()
        await self.engine.dispose()
