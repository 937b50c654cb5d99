"""Settings: safe defaults, refusal to serve production with a public or weak secret."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.accounts.tokens import decode_session_token, issue_session_token
from app.config import (
    DEFAULT_SECRET_KEY,
    ConfigError,
    RateLimit,
    Settings,
)
from app.main import create_app
from app.secret_strength import (
    MIN_SECRET_BITS,
    PROJECT_ROOT,
    PUBLIC_SECRET_KEYS,
    estimated_bits,
    weak_secret_reason,
)
from tests.conftest import production_env, random_secret

COMPOSE_DEFAULT = "development-only-secret-key-change-me"
# Keys people write by hand, each once published by this project's tests or benchmarks.
HAND_MADE_SECRETS = [
    "crash-test-secret-key-0123456789abcdef",
    "cluster-test-secret-key-0123456789abcdef",
    "rest-coercion-secret-key-0123456789abcdef",
    "load-benchmark-secret-key-0123456789abcdef",
    "gauntlet-secret-key-0123456789abcdef-and-more",
    "production-holdem-server-signing-key-2024!",
    "correct-horse-battery-staple-correct-horse",
    "Tr0ub4dor&3-Tr0ub4dor&3-Tr0ub4dor&3-Tr0ub4dor&3",
    "qwertyuiopasdfghjklzxcvbnm1234567890QWERTYUIOP",
    "my-production-secret-change-me-please-now-ok",
]


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
    settings = replace(production_settings(), secret_key=DEFAULT_SECRET_KEY)
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        create_app(settings)
    replace(settings, secret_key=random_secret()).check()


def production_settings() -> Settings:
    """Settings production accepts (every other setting is checked elsewhere)."""
    env = production_env()
    return Settings(env="production", secret_key=env["SECRET_KEY"], smtp_host="127.0.0.1",
                    smtp_security="none", metrics_token=env["METRICS_TOKEN"])


def test_a_token_forged_with_the_public_compose_secret_is_useless_as_production_refuses_it(
) -> None:
    forged = issue_session_token(1, 0, Settings(secret_key=COMPOSE_DEFAULT),
                                 now=datetime.now(UTC)).token
    production = replace(production_settings(), secret_key=COMPOSE_DEFAULT)
    assert decode_session_token(forged, production).user_id == 1
    with pytest.raises(ConfigError, match="is published"):
        create_app(production)


def _serve(tmp_path: Path, secret: str) -> subprocess.CompletedProcess[str]:
    env = {**production_env(), "SECRET_KEY": secret, "PATH": "/usr/bin:/bin",
           "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/h.sqlite3"}
    return subprocess.run([sys.executable, "-m", "app.cli", "serve", "--port", "1"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          check=False)


def test_holdem_serve_exits_with_one_line_when_the_secret_is_public(tmp_path: Path) -> None:
    done = _serve(tmp_path, COMPOSE_DEFAULT)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("holdem serve: error: SECRET_KEY is published")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("secret", HAND_MADE_SECRETS[:2])
def test_holdem_serve_refuses_the_test_secrets_that_once_started_production(
    tmp_path: Path, secret: str
) -> None:
    done = _serve(tmp_path, secret)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("holdem serve: error: SECRET_KEY is "), done.stderr


@pytest.mark.parametrize("secret", HAND_MADE_SECRETS)
def test_a_hand_made_secret_is_refused_even_where_no_file_publishes_it(
    tmp_path: Path, secret: str
) -> None:
    # tmp_path holds no project files: the length and the strength estimate refuse it.
    assert estimated_bits(secret) < MIN_SECRET_BITS
    assert weak_secret_reason(secret, tmp_path) is not None
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        replace(production_settings(), secret_key=secret).check()


def test_a_random_looking_value_from_the_project_files_is_refused_as_published() -> None:
    # A package hash of the lock file: as random as any generated key, and public.
    lock = (PROJECT_ROOT / "requirements" / "base.txt").read_text(encoding="utf-8")
    published = re.findall(r"sha256:([0-9a-f]{64})", lock)[-1]
    assert weak_secret_reason(published, PROJECT_ROOT / "app") is None  # strong on its face
    reason = weak_secret_reason(published)
    assert reason == ("is published (in this project's requirements/base.txt): anyone can "
                      "sign tokens with it")


def test_a_secret_in_any_file_of_the_project_is_refused(tmp_path: Path) -> None:
    secret = random_secret()
    assert weak_secret_reason(secret, tmp_path) is None
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(f"SECRET_KEY={secret}\n", encoding="utf-8")
    weak_secret_reason.cache_clear()
    assert "docs/guide.md" in str(weak_secret_reason(secret, tmp_path))


def test_the_operators_own_env_file_is_not_a_published_file(tmp_path: Path) -> None:
    secret = random_secret()
    (tmp_path / ".env").write_text(f"SECRET_KEY={secret}\n", encoding="utf-8")
    assert weak_secret_reason(secret, tmp_path) is None


@pytest.mark.parametrize("secret", sorted(PUBLIC_SECRET_KEYS))
def test_every_tutorial_secret_is_refused_in_production(secret: str) -> None:
    assert weak_secret_reason(secret) is not None
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        replace(production_settings(), secret_key=secret).check()


@pytest.mark.parametrize(
    "secret",
    [
        "x" * 48,
        "abc123" * 8,
        "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab",
        "short-but-random-Q2v9",
        "a3f9c2e17b4d8605",
    ],
)
def test_short_repeated_or_sequential_secrets_are_refused(tmp_path: Path, secret: str) -> None:
    assert weak_secret_reason(secret, tmp_path) is not None


def test_generated_secrets_are_accepted() -> None:
    for _ in range(100):
        assert weak_secret_reason(secrets.token_urlsafe(32)) is None
        assert weak_secret_reason(secrets.token_urlsafe(48)) is None
        assert weak_secret_reason(secrets.token_hex(32)) is None


def test_development_accepts_any_secret() -> None:
    Settings(env="development", secret_key=COMPOSE_DEFAULT).check()


@pytest.mark.parametrize(
    "changes",
    [
        {"env": "staging"},
        {"env": "production", "secret_key": "too-short-for-production"},
        {"forwarded_allow_ips": "proxy.internal"},
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
