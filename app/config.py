"""Settings, read from the environment and ``.env``; every one has a safe default."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from dotenv import load_dotenv

from app.collector import FREEZE_SECONDS
from app.secret_strength import GENERATE_HINT, weak_secret_reason

DEFAULT_SECRET_KEY = "dev-only-insecure-secret-key-change-me"
SMTP_SECURITY_MODES = ("none", "starttls", "ssl")
WORKER_MODES = ("process", "inline")
MAX_OFFLOAD_PROCESSES = 64
# OWASP's argon2id floors: the least memory (KiB) for each number of passes (5 and more: 7 MiB).
ARGON2_MEMORY_FLOORS_KIB = {1: 47_104, 2: 19_456, 3: 12_288, 4: 9_216, 5: 7_168}


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


def local_url(host: str, port: int) -> str:
    """The address of a server listening on ``host:port``, as this machine reaches it.

    >>> local_url("0.0.0.0", 8123), local_url("::", 8123)
    ('http://127.0.0.1:8123', 'http://[::1]:8123')
    """
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@dataclass(frozen=True)
class Settings:
    """Server configuration. See ``.env.example`` for each setting."""

    env: str = field(default_factory=lambda: _env("ENV", "development"))
    database_url: str = field(
        default_factory=lambda: _env("DATABASE_URL", "sqlite+aiosqlite:///./var/holdem.sqlite3")
    )
    secret_key: str = field(default_factory=lambda: _env("SECRET_KEY", DEFAULT_SECRET_KEY))
    # Empty: links start with the address the server listens on (see served_at).
    public_url: str = field(default_factory=lambda: _env("PUBLIC_URL", ""))
    # Comma-separated proxy addresses whose X-Forwarded-For/-Proto are believed; empty: none.
    forwarded_allow_ips: str = field(default_factory=lambda: _env("FORWARDED_ALLOW_IPS", ""))

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
    # How long a process's claim on a mail it is sending lasts (then another may send it).
    mail_claim_seconds: float = field(
        default_factory=lambda: _env_float("MAIL_CLAIM_SECONDS", 60)
    )
    # Who sends the outbox: a worker process the server starts ("process"), or the
    # server's own process ("inline"). See app/worker.py.
    worker: str = field(default_factory=lambda: _env("WORKER", "process"))
    # Processes that compute the odds tools and avatar images (0: threads of the server).
    # See app/offload.py.
    offload_processes: int = field(default_factory=lambda: _env_int("OFFLOAD_PROCESSES", 1))

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
    # Every attempt on one account from one IP; then failed attempts on one account from
    # anywhere, not applied from IPs the account signed in from (see throttled_login).
    rate_limit_login_account_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_LOGIN_ACCOUNT_IP", "10/900")
    )
    rate_limit_login_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_LOGIN_ACCOUNT", "100/3600")
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
    rate_limit_email_change_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_EMAIL_CHANGE_IP", "10/3600")
    )
    rate_limit_email_change_account: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_EMAIL_CHANGE_ACCOUNT", "3/3600")
    )

    # Tables (times in seconds; tests set them tiny).
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", ""))
    redis_channel: str = field(default_factory=lambda: _env("REDIS_CHANNEL", "socketio"))
    # Several processes (with REDIS_URL): a process that has not beaten its heartbeat for
    # LEASE_SECONDS loses its tables to the others; DRAIN_SECONDS bounds how long a stopping
    # process waits for its hands to end before it lets them go; a table that moved to
    # follow its players does not move again for TABLE_MOVE_COOLDOWN.
    lease_seconds: float = field(default_factory=lambda: _env_float("LEASE_SECONDS", 3))
    heartbeat_seconds: float = field(
        default_factory=lambda: _env_float("LEASE_HEARTBEAT_SECONDS", 1)
    )
    drain_seconds: float = field(default_factory=lambda: _env_float("DRAIN_SECONDS", 30))
    table_move_cooldown: float = field(
        default_factory=lambda: _env_float("TABLE_MOVE_COOLDOWN", 60)
    )
    # `holdem serve`: every GC_FREEZE_SECONDS freeze what is alive, so no collection scans
    # every connection's objects at once (app/collector.py; 0 leaves Python's collector be).
    gc_freeze_seconds: float = field(
        default_factory=lambda: _env_float("GC_FREEZE_SECONDS", FREEZE_SECONDS))
    # GET /metrics (Prometheus); with a token, only for `Authorization: Bearer <token>`.
    metrics_enabled: bool = field(default_factory=lambda: _env_bool("METRICS_ENABLED", True))
    metrics_token: str = field(default_factory=lambda: _env("METRICS_TOKEN", ""))
    action_seconds: float = field(default_factory=lambda: _env_float("ACTION_SECONDS", 20))
    min_action_seconds: float = field(
        default_factory=lambda: _env_float("MIN_ACTION_SECONDS", 5)
    )
    time_bank_seconds: float = field(
        default_factory=lambda: _env_float("TIME_BANK_SECONDS", 30)
    )
    # The time bank refills: TIME_BANK_ADD_SECONDS every TIME_BANK_EVERY_HANDS hands dealt
    # in (0: never), up to TIME_BANK_MAX_SECONDS; unless the table sets its own.
    time_bank_add_seconds: float = field(
        default_factory=lambda: _env_float("TIME_BANK_ADD_SECONDS", 5)
    )
    time_bank_every_hands: int = field(
        default_factory=lambda: _env_int("TIME_BANK_EVERY_HANDS", 10)
    )
    time_bank_max_seconds: float = field(
        default_factory=lambda: _env_float("TIME_BANK_MAX_SECONDS", 60)
    )
    # A player disconnected on their turn has this long to come back (never more than
    # their clock had left); their time bank is kept for their return.
    disconnect_grace_seconds: float = field(
        default_factory=lambda: _env_float("DISCONNECT_GRACE_SECONDS", 10)
    )
    showdown_seconds: float = field(default_factory=lambda: _env_float("SHOWDOWN_SECONDS", 5))
    # How long the contenders have to answer the run-it-twice question (a time-out declines).
    run_it_twice_seconds: float = field(
        default_factory=lambda: _env_float("RUN_IT_TWICE_SECONDS", 6)
    )
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
    rate_limit_reports: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_REPORTS", "5/3600")
    )
    # Chat lines are kept this many days for the admins' chat log.
    chat_log_days: int = field(default_factory=lambda: _env_int("CHAT_LOG_DAYS", 30))
    rate_limit_tools: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_TOOLS", "30/60")
    )
    # Millions of work units (about 30 a second of one core) per address.
    rate_limit_tools_work: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_TOOLS_WORK", "300/60")
    )
    # Millions of work units waiting or running in this process's odds queue.
    tools_queue_work: int = field(default_factory=lambda: _env_int("TOOLS_QUEUE_WORK", 200))
    rate_limit_table_create: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_TABLE_CREATE", "20/3600")
    )
    max_open_tables_per_user: int = field(
        default_factory=lambda: _env_int("MAX_OPEN_TABLES_PER_USER", 3)
    )
    max_seated_tables_per_user: int = field(
        default_factory=lambda: _env_int("MAX_SEATED_TABLES_PER_USER", 8)
    )
    max_sockets_per_user: int = field(default_factory=lambda: _env_int("MAX_SOCKETS_PER_USER", 10))
    # Socket.IO connections from one client address at once (counted in each process), in
    # all and without a login.
    max_sockets_per_address: int = field(
        default_factory=lambda: _env_int("MAX_SOCKETS_PER_ADDRESS", 100)
    )
    max_anonymous_sockets_per_address: int = field(
        default_factory=lambda: _env_int("MAX_ANONYMOUS_SOCKETS_PER_ADDRESS", 20)
    )
    table_idle_seconds: float = field(
        default_factory=lambda: _env_float("TABLE_IDLE_SECONDS", 900)
    )
    # The bots' bankroll granted once, as an audited ledger entry, when the house account is
    # created; after that only an admin funds it (POST /admin/house/credits, holdem house).
    house_initial_bankroll: int = field(
        default_factory=lambda: _env_int("HOUSE_INITIAL_BANKROLL", 100_000)
    )
    # The most the house may risk at one table (a full buy-in per bot seat), as a share of
    # its bankroll there: at higher stakes bots do not sit.
    house_table_share: float = field(
        default_factory=lambda: _env_float("HOUSE_TABLE_SHARE", 0.1)
    )
    # The most a player may win from the house's bots in a day (since 00:00 UTC), net: once
    # reached, no bot plays against them until the next day. 0: no cap.
    house_daily_win_cap: int = field(
        default_factory=lambda: _env_int("HOUSE_DAILY_WIN_CAP", 10_000)
    )
    # Integrity (app/integrity): sign-in records (address, device mark) are kept this many
    # days; a public cash table refuses a seat to an account linked to one seated there.
    sign_in_record_days: int = field(default_factory=lambda: _env_int("SIGN_IN_RECORD_DAYS", 90))
    separate_linked_accounts: bool = field(
        default_factory=lambda: _env_bool("SEPARATE_LINKED_ACCOUNTS", True)
    )
    # The periodic scan for chip dumping, soft play and bot-like play (0: only on demand),
    # over the hands of the last INTEGRITY_SCAN_DAYS days.
    integrity_scan_minutes: int = field(
        default_factory=lambda: _env_int("INTEGRITY_SCAN_MINUTES", 60)
    )
    integrity_scan_days: int = field(default_factory=lambda: _env_int("INTEGRITY_SCAN_DAYS", 7))
    # Chip dumping: a pair whose net flow is at least this many big blinds, and at least
    # CHIP_DUMP_ONE_WAY of all that flowed between them; linked accounts from a lower amount.
    chip_dump_big_blinds: int = field(
        default_factory=lambda: _env_int("CHIP_DUMP_BIG_BLINDS", 100)
    )
    chip_dump_one_way: float = field(
        default_factory=lambda: _env_float("CHIP_DUMP_ONE_WAY", 0.9)
    )
    chip_dump_linked_big_blinds: int = field(
        default_factory=lambda: _env_int("CHIP_DUMP_LINKED_BIG_BLINDS", 10)
    )
    # Soft play: a pair both in after the flop this many times, and neither ever betting or
    # raising into the other.
    soft_play_hands: int = field(default_factory=lambda: _env_int("SOFT_PLAY_HANDS", 30))
    # Bot-like play: decision times of at least BOT_MIN_DECISIONS decisions spread less than
    # BOT_TIME_SPREAD_SECONDS (standard deviation), or a session without a break (15 minutes)
    # of BOT_SESSION_HOURS.
    bot_min_decisions: int = field(default_factory=lambda: _env_int("BOT_MIN_DECISIONS", 100))
    bot_time_spread_seconds: float = field(
        default_factory=lambda: _env_float("BOT_TIME_SPREAD_SECONDS", 0.3)
    )
    bot_session_hours: float = field(default_factory=lambda: _env_float("BOT_SESSION_HOURS", 12))
    # Socket.IO requests per connection and per client address; unread bytes per connection.
    rate_limit_socket: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_SOCKET", "60/10")
    )
    rate_limit_socket_ip: RateLimit = field(
        default_factory=lambda: _limit("RATE_LIMIT_SOCKET_IP", "600/10")
    )
    socket_buffer_bytes: int = field(
        default_factory=lambda: _env_int("SOCKET_BUFFER_BYTES", 1_048_576)
    )

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

    def served_at(self, host: str, port: int) -> Settings:
        """These settings for a server listening on ``host:port``: without ``PUBLIC_URL``,
        links start with that address (a wildcard host as this machine's loopback)."""
        return self if self.public_url.strip() else replace(self, public_url=local_url(host, port))

    def check(self) -> None:
        """Raise :class:`ConfigError` when this configuration must not serve."""
        if self.env not in ("development", "production"):
            raise ConfigError(f"ENV must be 'development' or 'production', got {self.env!r}")
        if self.smtp_security not in SMTP_SECURITY_MODES:
            raise ConfigError(f"SMTP_SECURITY must be one of {SMTP_SECURITY_MODES}")
        if self.worker not in WORKER_MODES:
            raise ConfigError(f"WORKER must be one of {WORKER_MODES}, got {self.worker!r}")
        if not 0 <= self.offload_processes <= MAX_OFFLOAD_PROCESSES:
            raise ConfigError(f"OFFLOAD_PROCESSES must be 0 to {MAX_OFFLOAD_PROCESSES}, got "
                              f"{self.offload_processes}")
        if self.house_initial_bankroll < 0 or not 0 < self.house_table_share <= 1:
            raise ConfigError("HOUSE_INITIAL_BANKROLL must be 0 or more and HOUSE_TABLE_SHARE "
                              f"above 0 and at most 1, got {self.house_initial_bankroll} and "
                              f"{self.house_table_share}")
        _check_proxies(self.forwarded_allow_ips)
        if self.house_daily_win_cap < 0:
            raise ConfigError("HOUSE_DAILY_WIN_CAP must be 0 (no cap) or more, got "
                              f"{self.house_daily_win_cap}")
        _check_integrity(self)
        if not self.is_development:
            problems = self.production_problems()
            if problems:
                raise ConfigError("; ".join(problems))

    def production_problems(self) -> list[str]:
        """What makes this configuration unsafe to serve the public (each with its fix)."""
        problems = []
        weakness = weak_secret_reason(self.secret_key)
        if weakness is not None:
            problems.append(f"SECRET_KEY {weakness}; production needs a long random value, "
                            f"e.g. {GENERATE_HINT}")
        if not self.rate_limits_enabled:
            problems.append("RATE_LIMITS_ENABLED is off: production keeps the limits on "
                            "log-ins, sign-ups and mail")
        if not self.sends_smtp:
            problems.append("SMTP_HOST is empty: production sends mail through an SMTP server "
                            "(the outbox folder would keep live reset and verification links)")
        elif self.smtp_security == "none" and not _is_loopback(self.smtp_host):
            problems.append(f"SMTP_SECURITY is none for {self.smtp_host}: links would cross the "
                            "network unencrypted; use starttls or ssl (none only to a relay on "
                            "this host)")
        floor = ARGON2_MEMORY_FLOORS_KIB[min(max(self.argon2_time_cost, 1), 5)]
        if self.argon2_time_cost < 1 or self.argon2_memory_kib < floor:
            problems.append(f"ARGON2_MEMORY_KIB {self.argon2_memory_kib} with ARGON2_TIME_COST "
                            f"{self.argon2_time_cost} is below OWASP's floor ({floor} KiB for "
                            "that many passes)")
        if self.metrics_enabled and not self.metrics_token:
            problems.append("METRICS_TOKEN is empty: /metrics would be public; set a token, or "
                            "METRICS_ENABLED=false")
        if "*" in _proxies(self.forwarded_allow_ips):
            problems.append("FORWARDED_ALLOW_IPS is *: any client could choose its address; "
                            "list the proxy's address or network")
        return problems


def _check_integrity(settings: Settings) -> None:
    if settings.sign_in_record_days < 1 or settings.integrity_scan_days < 1:
        raise ConfigError("SIGN_IN_RECORD_DAYS and INTEGRITY_SCAN_DAYS must be 1 or more, got "
                          f"{settings.sign_in_record_days} and {settings.integrity_scan_days}")
    if settings.integrity_scan_minutes < 0 or not 0.5 <= settings.chip_dump_one_way <= 1:
        raise ConfigError("INTEGRITY_SCAN_MINUTES must be 0 (off) or more and "
                          "CHIP_DUMP_ONE_WAY from 0.5 to 1")


def _proxies(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _check_proxies(text: str) -> None:
    for item in _proxies(text):
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ConfigError("FORWARDED_ALLOW_IPS must list IP addresses or networks "
                              f"(or *), got {item!r}") from None


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@lru_cache
def get_settings() -> Settings:
    """The process's settings (``.env`` loaded once)."""
    load_dotenv()
    return Settings()
