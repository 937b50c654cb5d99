"""Settings: safe defaults, refusal to serve production with the default secret."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.config import DEFAULT_SECRET_KEY, ConfigError, RateLimit, Settings
from app.main import create_app


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
    replace(settings, secret_key="x" * 48).check()


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
