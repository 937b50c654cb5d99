"""Settings, read from the environment and ``.env``; every one has a safe default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

from dotenv import load_dotenv


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class Settings:
    """Server configuration. See ``.env.example`` for each setting."""

    env: str = field(default_factory=lambda: _env("ENV", "development"))
    database_url: str = field(
        default_factory=lambda: _env("DATABASE_URL", "sqlite+aiosqlite:///./var/holdem.sqlite3")
    )
    public_url: str = field(default_factory=lambda: _env("PUBLIC_URL", "http://127.0.0.1:8000"))


@lru_cache
def get_settings() -> Settings:
    """The process's settings (``.env`` loaded once)."""
    load_dotenv()
    return Settings()
