"""Settings: safe defaults, refusal to serve production with a public or weak secret."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.accounts.tokens import decode_session_token, issue_session_token
from app.config import (
    DEFAULT_SECRET_KEY,
    PUBLISHED_SECRET_KEYS,
    ConfigError,
    RateLimit,
    Settings,
    weak_secret_reason,
)
from app.main import create_app

STRONG_SECRET = "Jx8qQ2v-HnV0cRkPz7TfW4sLmA9eYbU1dG6oKiE3tC5"
COMPOSE_DEFAULT = "development-only-secret-key-change-me"


def test_every_setting_has_a_default_that_serves_in_development(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("ENV", "DATABASE_URL", "SECRET_KEY", "SMTP_HOST"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    settings.check()
    assert settings.is_development and not settings.sends_smtp
    assert settings.database_url == "sqlite+aiosqlite:///./var/holdem.sqlite3"
    assert settings.reset_token_ttl_seconds == 3_600


def test_settings_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STARTING_CREDITS", "250")
    monkeypatch.setenv("RATE_LIMIT_LOGIN_IP", "7/90")
    monkeypatch.setenv("SMTP_SECURITY", "ssl")
    settings = Settings()
    assert settings.starting_credits == 250
    assert settings.rate_limit_login_ip == RateLimit(7, 90)
    assert settings.smtp_security == "ssl"


def test_production_refuses_the_default_secret_key() -> None:
    settings = Settings(env="production", secret_key=DEFAULT_SECRET_KEY)
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app(settings)
    replace(settings, secret_key=STRONG_SECRET).check()


def test_a_token_forged_with_the_public_compose_secret_is_useless_as_production_refuses_it(
) -> None:
    forged = issue_session_token(1, 0, Settings(secret_key=COMPOSE_DEFAULT),
                                 now=datetime.now(UTC)).token
    production = Settings(env="production", secret_key=COMPOSE_DEFAULT)
    assert decode_session_token(forged, production).user_id == 1
    with pytest.raises(ConfigError, match="published default"):
        create_app(production)


def test_holdem_serve_exits_with_one_line_when_the_secret_is_public(tmp_path: Path) -> None:
    env = {"ENV": "production", "SECRET_KEY": COMPOSE_DEFAULT, "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "app.cli", "serve", "--port", "1"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("holdem serve: error: SECRET_KEY is a published default")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("secret", sorted(PUBLISHED_SECRET_KEYS))
def test_every_published_secret_is_refused_in_production(secret: str) -> None:
    assert weak_secret_reason(secret) is not None
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        Settings(env="production", secret_key=secret).check()


@pytest.mark.parametrize(
    "secret",
    [
        "x" * 48,
        "abc123" * 8,
        "abcdefghijklmnopqrstuvwxyz0123456789",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
        "my-production-secret-change-me-please-now",
        "short-but-random-Q2v9",
    ],
)
def test_short_repeated_sequential_or_placeholder_secrets_are_refused(secret: str) -> None:
    assert weak_secret_reason(secret) is not None


def test_generated_secrets_are_accepted() -> None:
    import secrets

    for _ in range(200):
        assert weak_secret_reason(secrets.token_urlsafe(32)) is None
        assert weak_secret_reason(secrets.token_hex(16)) is None


def test_development_accepts_any_secret() -> None:
    Settings(env="development", secret_key=COMPOSE_DEFAULT).check()


@pytest.mark.parametrize(
    "changes",
    [
        {"env": "staging"},
        {"env": "production", "secret_key": "too-short-for-production"},
        {"smtp_security": "tls"},
    ],
)
def test_unusable_settings_are_refused(changes: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        replace(Settings(), **changes).check()


@pytest.mark.parametrize("text", ["10", "a/b", "0/60", "5/-1"])
def test_a_malformed_rate_limit_is_refused(text: str) -> None:
    with pytest.raises(ConfigError):
        RateLimit.parse(text)
