"""Alembic environment: async engines, URL from the settings (or a given connection)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db import chat as _chat  # noqa: F401  (registers the chat safety models)
from app.db import integrity as _integrity  # noqa: F401  (registers the integrity models)
from app.db import players as _players  # noqa: F401  (registers the player stats and notes)
from app.db import tables as _realtime_tables  # noqa: F401  (registers the table models)
from app.db import tournaments as _tournaments  # noqa: F401  (registers the tournament models)
from app.db.engine import create_engine
from app.db.models import Base

target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def _database_url() -> str:
    return context.config.attributes.get("database_url") or get_settings().database_url


async def _run_async() -> None:
    engine = create_engine(_database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_configure)
    finally:
        await engine.dispose()


def run_offline() -> None:
    """Emit SQL to stdout instead of touching a database (``alembic upgrade --sql``)."""
    context.configure(
        url=_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through a connection handed over by the caller, or a fresh async engine."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_offline()
else:
    run_online()
