"""Migrations match the models exactly, upgrade and downgrade cleanly, on every backend."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from app.db.engine import create_engine
from app.db.migrations import ROOT, alembic_config, downgrade, upgrade
from app.db.models import Base
from tests.conftest import fresh_postgres_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database with no tables at all."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    with fresh_postgres_database("holdem_migrations") as url:
        yield url


def _differences(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def _inspect(url: str) -> tuple[list[object], set[str]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return (await connection.run_sync(_differences),
                    await connection.run_sync(_tables))
    finally:
        await engine.dispose()


async def test_upgrade_to_head_matches_the_models_and_downgrade_empties_the_database(
    empty_database_url: str,
) -> None:
    # Alembic's env.py runs its own event loop, so drive it from a worker thread.
    await asyncio.to_thread(upgrade, empty_database_url)
    differences, tables = await _inspect(empty_database_url)
    assert differences == []
    assert {table.name for table in Base.metadata.sorted_tables} <= tables

    await asyncio.to_thread(downgrade, empty_database_url)
    differences, tables = await _inspect(empty_database_url)
    assert tables == {"alembic_version"}


async def test_alembic_check_finds_nothing_to_generate(empty_database_url: str) -> None:
    await asyncio.to_thread(upgrade, empty_database_url)
    config = alembic_config(empty_database_url)
    await asyncio.to_thread(command.check, config)


def test_holdem_migrate_creates_the_var_folder_and_the_sqlite_database(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": "sqlite+aiosqlite:///./var/holdem.sqlite3",
           "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "var" / "holdem.sqlite3").is_file()
    again = subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    assert again.returncode == 0, again.stderr
