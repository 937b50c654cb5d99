"""Settings, read from the environment and ``.env``; every one has a safe default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dotenv import load_dotenv

DEFAULT_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
SMTP_SECURITY_MODES = ("none", "starttls", "ssl")


class ConfigError(RuntimeError):
    """The configuration cannot be used as it is (the message says why)."""


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class RateLimit:
    """At most ``count`` attempts per ``seconds``; written ``"count/seconds"``."""

    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> RateLimit:
        """Read ``"10/60"`` as ten attempts a minute."""
        count, _, seconds = text.partition("/")
        try:
            limit = cls(int(count), int(seconds))
        except ValueError:
            raise ConfigError(f"rate limit must look like '10/60', got {text!r}") from None
        if limit.count < 1 or limit.seconds < 1:
            raise ConfigError(f"rate limit needs positive numbers, got {text!r}")
        return limit


def _limit(name: str, default: str) -> RateLimit:
    return RateLimit.parse(_env(name, default))


@dataclass(frozen=True)
class Settings:
    """Server configuration. See ``.env.example`` for each setting."""

    env: str = field(default_factory=lambda: _env("ENV", "development"))
    database_url: str = field(
        default_factory=lambda: _env("DATABASE_URL", "sqlite+aiosqlite:///./var/holdem.sqlite3")
    )
    secret_key: str = field(default_factory=lambda: _env("SECRET_KEY", DEFAULT_SECRET_KEY))
    public_url: str = field(default_factory=lambda: _env("PUBLIC_URL", "http://127.0.0.1:8000"))

    # E-mail: with no SMTP_HOST every message is written to OUTBOX_DIR instead.
    smtp_host: str = field(default_factory=lambda: _env("SMTP_HOST", ""))
    smtp_port: int = field(default_factory=lambda: _env_int("SMTP_PORT", 587))
    smtp_username: str = field(default_factory=lambda: _env("SMTP_USERNAME", ""))
    smtp_password: str = field(default_factory=lambda: _env("SMTP_PASSWORD", ""))
    smtp_security: str = field(default_factory=lambda: _env("SMTP_SECURITY", "starttls"))
    smtp_timeout_seconds: int = field(default_factory=lambda: _env_int("SMTP_TIMEOUT_SECONDS", 20))
    mail_from: str = field(
        default_factory=lambda: _env("MAIL_FROM", "holdem-server <noreply@localhost>")
    )
    outbox_dir: str = field(default_factory=lambda: _env("OUTBOX_DIR", "./var/outbox"))
    mail_max_attempts: int = field(default_factory=lambda: _env_int("MAIL_MAX_ATTEMPTS", 5))
    mail_retry_seconds: int = field(default_factory=lambda: _env_int("MAIL_RETRY_SECONDS", 5))

    # Credits.
    starting_credits: int = field(default_factory=lambda: _env_int("STARTING_CREDITS", 10_000))
    daily_credits: int = field(default_factory=lambda: _env_int("DAILY_CREDITS", 1_000))
    daily_credits_cooldown_seconds: int = field(
        default_factory=lambda: _env_int("DAILY_CREDITS_COOLDOWN_SECONDS", 86_400)
    )

    # Tokens and passwords.
    session_ttl_seconds: int = field(
        default_factory=lambda: _env_int("SESSION_TTL_SECONDS", 7 * 86_400)
    )
    verify_token_ttl_seconds: int = field(
        default_factory=lambda: _env_int("VERIFY_TOKEN_TTL_SECONDS", 2 * 86_400)
    )
    reset_token_ttl_seconds: int = field(
        default_factory=lambda: _env_int("RESET_TOKEN_TTL_SECONDS", 3_600)
    )
    argon2_time_cost: int = field(default_factory=lambda: _env_int("ARGON2_TIME_COST", 3))
    argon2_memory_kib: int = field(default_factory=lambda: _env_int("ARGON2_MEMORY_KIB", 65_536))
    argon2_parallelism: int = field(default_factory=lambda: _env_int("ARGON2_PARALLELISM", 4))

    # Rate limits, "count/seconds", counted in this process's memory.
    rate_limits_enabled: bool = field(
        default_factory=lambda: _env_bool("RATE_LIMITS_ENABLED", True)
    )
    rate_limit_signup_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_SIGNUP_IP", "10/3600")
    )
    rate_limit_signup_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_SIGNUP_ACCOUNT", "5/3600")
    )
    rate_limit_login_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_LOGIN_IP", "30/300")
    )
    rate_limit_login_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_LOGIN_ACCOUNT", "10/900")
    )
    rate_limit_forgot_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_FORGOT_IP", "10/3600")
    )
    rate_limit_forgot_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_FORGOT_ACCOUNT", "3/3600")
    )
    rate_limit_verify_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_VERIFY_IP", "30/3600")
    )
    rate_limit_verify_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_VERIFY_ACCOUNT", "5/3600")
    )

    # Tables (times in seconds; tests set them tiny).
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", ""))
    action_seconds: float = field(default_factory=lambda: _env_float("ACTION_SECONDS", 20))
    min_action_seconds: float = field(
        default_factory=lambda: _env_float("MIN_ACTION_SECONDS", 5)
    )
    time_bank_seconds: float = field(
        default_factory=lambda: _env_float("TIME_BANK_SECONDS", 30)
    )
    showdown_seconds: float = field(default_factory=lambda: _env_float("SHOWDOWN_SECONDS", 5))
    hand_start_delay_seconds: float = field(
        default_factory=lambda: _env_float("HAND_START_DELAY_SECONDS", 3)
    )
    sit_out_limit_seconds: float = field(
        default_factory=lambda: _env_float("SIT_OUT_LIMIT_SECONDS", 600)
    )
    seat_offer_seconds: float = field(
        default_factory=lambda: _env_float("SEAT_OFFER_SECONDS", 30)
    )
    bot_delay_seconds: float = field(default_factory=lambda: _env_float("BOT_DELAY_SECONDS", 1))
    rate_limit_chat: RateLimit = field(default_factory=lambda: _limit("RATE_LIMIT_CHAT", "5/10"))

    @property
    def is_development(self) -> bool:
        """Local development: insecure defaults allowed, cookies without ``Secure``."""
        return self.env == "development"

    @property
    def sends_smtp(self) -> bool:
        """Mail goes to an SMTP server (else to the outbox folder)."""
        return bool(self.smtp_host)

    @property
    def outbox_path(self) -> Path:
        """The folder ``.eml`` files are written to when no SMTP server is set."""
        return Path(self.outbox_dir)

    def check(self) -> None:
        """Raise :class:`ConfigError` when this configuration must not serve."""
        if self.env not in ("development", "production"):
            raise ConfigError(f"ENV must be 'development' or 'production', got {self.env!r}")
        if not self.is_development and self.secret_key == DEFAULT_SECRET_KEY:
            raise ConfigError("SECRET_KEY must be set to a long random value outside development")
        if not self.is_development and len(self.secret_key) < 32:
            raise ConfigError("SECRET_KEY must be at least 32 characters in production")
        if self.smtp_security not in SMTP_SECURITY_MODES:
            raise ConfigError(f"SMTP_SECURITY must be one of {SMTP_SECURITY_MODES}")


@lru_cache
def get_settings() -> Settings:
    """The process's settings (``.env`` loaded once)."""
    load_dotenv()
    return Settings()
