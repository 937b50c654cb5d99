"""Run the Alembic migrations from code (``holdem migrate``, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from app.db.engine import ensure_sqlite_folder

ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = ROOT / "alembic.ini"


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


def downgrade(database_url: str, revision: str = "base") -> None:
    """Take the database at ``database_url`` back to ``revision``."""
    command.downgrade(alembic_config(database_url), revision)
