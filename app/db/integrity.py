"""ORM models of integrity: sign-in records and the flags an operator works through.

A sign-in record keeps the address and a device mark (the SHA-256 of a long-lived cookie)
of a sign-up or login, for ``SIGN_IN_RECORD_DAYS`` days (see :mod:`app.integrity.signins`);
accounts sharing either are *linked*. A flag is a suspicion the scan (or a refused seat)
raised, with its evidence, until an admin dismisses or acts on it.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, _enum, utcnow

ADDRESS_LENGTH = 45  # an IPv6 address in its longest text form
AGENT_LENGTH = 200
SUBJECT_LENGTH = 100


class SignInKind(enum.StrEnum):
    """What the record is of."""

    SIGNUP = "signup"
    LOGIN = "login"


class FlagKind(enum.StrEnum):
    """What a flag suspects."""

    CHIP_DUMPING = "chip_dumping"
    SOFT_PLAY = "soft_play"
    BOT_LIKE = "bot_like"
    LINKED_AT_TABLE = "linked_at_table"


class FlagStatus(enum.StrEnum):
    """Where a flag is in the queue."""

    OPEN = "open"
    DISMISSED = "dismissed"
    ACTIONED = "actioned"


class SignInRecord(Base):
    """One sign-up or login: from which address and device, with which browser."""

    __tablename__ = "sign_in_records"
    __table_args__ = (Index("ix_sign_in_records_user_id_created_at", "user_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[SignInKind] = mapped_column(_enum(SignInKind))
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), index=True)
    # The SHA-256 of the device cookie (never the cookie itself).
    device: Mapped[str] = mapped_column(String(64), index=True)
    user_agent: Mapped[str] = mapped_column(String(AGENT_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class IntegrityFlag(Base):
    """A suspicion about one account (and the other of a pair), with its evidence."""

    __tablename__ = "integrity_flags"
    __table_args__ = (Index("ix_integrity_flags_status_id", "status", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[FlagKind] = mapped_column(_enum(FlagKind))
    # What the flag is about, e.g. "chip_dumping:12>34": the scan raises none while one
    # about the same is open, or was raised within the scanned days.
    subject: Mapped[str] = mapped_column(String(SUBJECT_LENGTH), index=True)
    # The account suspected (for chip dumping: the one that received the chips).
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    other_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True)
    evidence: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[FlagStatus] = mapped_column(_enum(FlagStatus), default=FlagStatus.OPEN)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    handled_at: Mapped[datetime | None]
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
