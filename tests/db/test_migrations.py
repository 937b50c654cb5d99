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
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from app.db.engine import create_engine
from app.db.migrations import ROOT, alembic_config, downgrade, upgrade
from app.db.models import Base
from app.text import skeleton
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


async def test_existing_display_names_are_rekeyed_by_their_skeleton(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'rekey.sqlite3'}"
    await asyncio.to_thread(upgrade, url, "0004")
    engine = create_engine(url)
    names = {1: "Alice", 2: "Аlice", 3: "B0b", 4: "allce"}  # 2: Cyrillic А
    try:
        async with engine.begin() as connection:
            for user_id, name in names.items():
                await connection.execute(text(
                    "INSERT INTO users (id, public_id, email, display_name, display_name_key, "
                    "role, status, token_version, balance, created_at, updated_at) VALUES "
                    "(:id, :pid, :email, :name, :key, 'player', 'active', 0, 0, :at, :at)"),
                    {"id": user_id, "pid": f"{user_id:032x}", "email": f"u{user_id}@example.com",
                     "name": name, "key": name.casefold(), "at": "2026-01-01 00:00:00"})
        await asyncio.to_thread(upgrade, url)
        async with engine.connect() as connection:
            keys = dict((await connection.execute(
                text("SELECT id, display_name_key FROM users"))).all())
    finally:
        await engine.dispose()
    assert keys[1] == skeleton("Alice") == "allce"
    assert keys[2] == "аlice"  # the newer look-alike keeps its old key
    assert keys[3] == skeleton("B0b") == "bob"
    assert keys[4] is None  # both its skeleton and its old key belong to an older account


async def test_names_are_rekeyed_by_their_confusable_skeleton_and_keep_their_names(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'skeletons.sqlite3'}"
    await asyncio.to_thread(upgrade, url, "0007")
    engine = create_engine(url)
    # Keys as the previous look-alike fold stored them.
    names = {1: ("Alice", "allce"), 2: ("Ꭺlice", "ꭺlice"), 3: ("Alıce", "alıce"),
             4: ("Sam", "sam"), 5: ("mmmmmmmmmmmmmmmmmmmm", "m" * 20)}
    try:
        async with engine.begin() as connection:
            for user_id, (name, key) in names.items():
                await connection.execute(text(
                    "INSERT INTO users (id, public_id, email, display_name, display_name_key, "
                    "role, status, token_version, balance, created_at, updated_at) VALUES "
                    "(:id, :pid, :email, :name, :key, 'player', 'active', 0, 0, :at, :at)"),
                    {"id": user_id, "pid": f"{user_id:032x}", "email": f"u{user_id}@example.com",
                     "name": name, "key": key, "at": "2026-01-01 00:00:00"})
        await asyncio.to_thread(upgrade, url)
        async with engine.connect() as connection:
            rows = (await connection.execute(
                text("SELECT id, display_name, display_name_key FROM users"))).all()
    finally:
        await engine.dispose()
    keys = {user_id: key for user_id, _, key in rows}
    assert {user_id: name for user_id, name, _ in rows} == {
        user_id: name for user_id, (name, _) in names.items()}
    assert keys[1] == skeleton("Ꭺlice") == skeleton("Alıce")  # the oldest keeps the skeleton
    assert (keys[2], keys[3]) == ("ꭺlice", "alıce")  # newer look-alikes keep their old key
    assert keys[4] == skeleton("Sarn") == "sarn"
    assert keys[5] == "rn" * 20
