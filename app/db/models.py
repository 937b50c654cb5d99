"""ORM models: users, their one-time tokens and avatars, the ledger, table escrow, audit log."""

from __future__ import annotations

import enum
import uuid
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Dialect,
    Enum,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.text import SKELETON_MAX

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

EMAIL_LENGTH = 320
# Row ids are 32-bit INTEGER columns: a larger id in a request can match nothing, and
# PostgreSQL refuses to compare with it, so routes bound their id parameters by this.
MAX_ID = 2**31 - 1


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


def new_public_id() -> str:
    """A random, non-guessable id safe to show to other players."""
    return uuid.uuid4().hex


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores it naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given; use timezone-aware UTC")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _enum(kind: type[enum.Enum]) -> Enum:
    # Stored as plain strings: adding a value never needs a database type change.
    return Enum(
        kind,
        native_enum=False,
        length=32,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class Role(enum.StrEnum):
    """What an account may do."""

    PLAYER = "player"
    ADMIN = "admin"


class UserStatus(enum.StrEnum):
    """Whether an account may log in."""

    ACTIVE = "active"
    BANNED = "banned"
    DELETED = "deleted"


class TokenPurpose(enum.StrEnum):
    """What a one-time token sent by e-mail allows."""

    VERIFY_EMAIL = "verify_email"
    RESET_PASSWORD = "reset_password"
    CHANGE_EMAIL = "change_email"


class LedgerReason(enum.StrEnum):
    """Why a balance changed."""

    SIGNUP_GRANT = "signup_grant"
    DAILY_CREDITS = "daily_credits"
    ADMIN_ADJUSTMENT = "admin_adjustment"
    HOUSE_FUNDING = "house_funding"
    ACCOUNT_CLOSED = "account_closed"
    TABLE_BUY_IN = "table_buy_in"
    TABLE_CASH_OUT = "table_cash_out"
    TOURNAMENT_BUY_IN = "tournament_buy_in"
    TOURNAMENT_FEE = "tournament_fee"
    TOURNAMENT_PRIZE = "tournament_prize"
    TOURNAMENT_REFUND = "tournament_refund"
    RAKE = "rake"
    # Credits an admin moved from an account flagged for chip dumping back to those who
    # lost them (or to the house): one entry taken, its counterparts given, one reference.
    CLAWBACK = "clawback"


# Reasons that move chips between a balance and a table or a tournament's prize
# pool; every other reason creates or removes credits. A tournament fee leaves
# circulation when paid and comes back as a grant when refunded. Rake moves chips from
# a table to the house account (credits it keeps, as it keeps what its bots win).
TRANSFER_REASONS = frozenset({
    LedgerReason.TABLE_BUY_IN, LedgerReason.TABLE_CASH_OUT, LedgerReason.TOURNAMENT_BUY_IN,
    LedgerReason.TOURNAMENT_PRIZE, LedgerReason.TOURNAMENT_REFUND, LedgerReason.RAKE,
})


class Base(DeclarativeBase):
    """Declarative base with constraint names Alembic can reproduce."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime()}


class User(Base):
    """An account. A deleted account keeps its row and ids with personal data erased."""

    __tablename__ = "users"
    __table_args__ = (CheckConstraint("balance >= 0", name="balance_not_negative"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    email: Mapped[str | None] = mapped_column(String(EMAIL_LENGTH), unique=True)
    display_name: Mapped[str | None] = mapped_column(String(20))
    display_name_key: Mapped[str | None] = mapped_column(String(SKELETON_MAX), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(_enum(Role), default=Role.PLAYER)
    status: Mapped[UserStatus] = mapped_column(_enum(UserStatus), default=UserStatus.ACTIVE)
    email_verified_at: Mapped[datetime | None]
    token_version: Mapped[int] = mapped_column(Integer, default=0)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    last_daily_credits_at: Mapped[datetime | None]
    # The player's settings (app.accounts.schemas.PlayerSettings): only those changed
    # from their defaults.
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    ban_reason: Mapped[str | None] = mapped_column(String(200))
    banned_at: Mapped[datetime | None]
    # Chat refused until then (an admin's mute); see app.chat.safety.
    muted_until: Mapped[datetime | None]
    mute_reason: Mapped[str | None] = mapped_column(String(200))
    deleted_at: Mapped[datetime | None]
    leaderboard_opt_out: Mapped[bool] = mapped_column(Boolean, default=False,
                                                      server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Avatar(Base):
    """A user's avatar, already re-encoded to 256x256."""

    __tablename__ = "avatars"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    image: Mapped[bytes] = mapped_column(LargeBinary)
    content_type: Mapped[str] = mapped_column(String(32))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AccountToken(Base):
    """A single-use token mailed to a user; only its SHA-256 is stored."""

    __tablename__ = "account_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    purpose: Mapped[TokenPurpose] = mapped_column(_enum(TokenPurpose))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    new_email: Mapped[str | None] = mapped_column(String(EMAIL_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class LedgerEntry(Base):
    """One change of one balance, with the balance right after it."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount <> 0", name="amount_not_zero"),
        CheckConstraint("balance_after >= 0", name="balance_after_not_negative"),
        Index("ix_ledger_entries_user_id_id", "user_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[LedgerReason] = mapped_column(_enum(LedgerReason))
    reference: Mapped[str | None] = mapped_column(String(100))
    balance_after: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TableEscrow(Base):
    """Chips held at one table: bought in and not yet cashed out or removed as rake."""

    __tablename__ = "table_escrows"
    __table_args__ = (
        CheckConstraint("amount >= 0", name="amount_not_negative"),
        CheckConstraint("removed >= 0", name="removed_not_negative"),
    )

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    amount: Mapped[int] = mapped_column(BigInteger, default=0)
    removed: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AuditLogEntry(Base):
    """One action an admin took."""

    __tablename__ = "admin_audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    admin_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    action: Mapped[str] = mapped_column(String(40))
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    details: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class MailStatus(enum.StrEnum):
    """Where an outgoing mail is."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class OutboxMail(Base):
    """An outgoing mail, written in the transaction of the change that causes it and sent
    by whichever server process claims it (see :mod:`app.accounts.mail`)."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_due", "status", "not_before"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(40))
    recipient: Mapped[str] = mapped_column(String(320))
    message: Mapped[str] = mapped_column(Text)
    status: Mapped[MailStatus] = mapped_column(_enum(MailStatus), default=MailStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    not_before: Mapped[datetime]
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claimed_until: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
