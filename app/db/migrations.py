"""Run the Alembic migrations from code (``holdem migrate``, ``holdem serve``, tests)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DBAPIError

from app.db.engine import create_engine, ensure_sqlite_folder, is_unavailable
from app.errors import HoldemError

ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = ROOT / "alembic.ini"
RETRY_SECONDS = 1.0


class DatabaseUnreachable(HoldemError):
    """The database does not answer (not started yet, wrong host or port, refused login)."""

    code = "database_unreachable"
    status = 503


class DatabaseNotMigrated(HoldemError):
    """The database's schema is older than this code: ``holdem migrate`` brings it up."""

    code = "database_not_migrated"
    status = 503


def alembic_config(
    database_url: str | None = None, *, connection: Connection | None = None
) -> Config:
    """The Alembic configuration, pointed at ``database_url`` or an open connection."""
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    if database_url is not None:
        config.attributes["database_url"] = database_url
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database at ``database_url`` to ``revision`` (creating ./var/ if needed)."""
    ensure_sqlite_folder(database_url)
    command.upgrade(alembic_config(database_url), revision)


@dataclass(frozen=True)
class Migration:
    """What bringing a database to the latest migration did: its revision before (``None``:
    it had no schema) and after."""

    database_url: str
    before: str | None
    after: str

    def describe(self) -> str:
        """One line for the operator: created, migrated from which revision to which, or
        already current; with the database's URL (its password hidden)."""
        where = f"({shown_url(self.database_url)})"
        if self.before is None:
            return f"created the database schema at revision {self.after}, the latest {where}"
        if self.before == self.after:
            return f"the database is already at the latest revision, {self.after} {where}"
        return (f"migrated the database from revision {self.before} to {self.after}, "
                f"the latest {where}")


def migrate(database_url: str) -> Migration:
    """Bring the database at ``database_url`` to the latest migration, saying what it did."""
    ensure_sqlite_folder(database_url)
    before = asyncio.run(_current_revisions(database_url))
    upgrade(database_url)
    after = asyncio.run(_current_revisions(database_url))
    return Migration(database_url, ", ".join(sorted(before)) or None, ", ".join(sorted(after)))


def downgrade(database_url: str, revision: str = "base") -> None:
    """Take the database at ``database_url`` back to ``revision``."""
    command.downgrade(alembic_config(database_url), revision)


def shown_url(database_url: str) -> str:
    """The URL as it may appear in a message: the password hidden."""
    return make_url(database_url).render_as_string(hide_password=True)


def _reason(error: BaseException) -> str:
    """The first line of what the driver said, without SQLAlchemy's decoration."""
    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    return (str(cause).strip().splitlines() or [type(cause).__name__])[0]


async def _ping(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    finally:
        await engine.dispose()


def wait_until_reachable(
    database_url: str,
    *,
    wait_seconds: float = 0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once the database answers; retry for up to ``wait_seconds`` (a container's
    start-up), then raise :class:`DatabaseUnreachable` saying why."""
    deadline = clock() + wait_seconds
    while True:
        try:
            asyncio.run(_ping(database_url))
            return
        except Exception as error:
            if is_unavailable(error) and clock() + RETRY_SECONDS <= deadline:
                sleep(RETRY_SECONDS)
                continue
            raise DatabaseUnreachable(
                f"cannot use the database at {shown_url(database_url)}: {_reason(error)}",
            ) from error


async def _current_revisions(database_url: str) -> set[str]:
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            heads = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_heads())
    finally:
        await engine.dispose()
    return set(heads)


def require_latest(database_url: str) -> None:
    """Raise :class:`DatabaseNotMigrated` unless the database is at the latest migration."""
    latest = set(ScriptDirectory.from_config(alembic_config(database_url)).get_heads())
    if asyncio.run(_current_revisions(database_url)) != latest:
        raise DatabaseNotMigrated(
            f"the database at {shown_url(database_url)} is not at the latest migration: "
            "run `holdem migrate` first")
