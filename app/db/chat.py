"""ORM models of chat safety: the filtered words, who ignores whom, reports about
players, and the chat lines said at tables.

A player's mute is on their :class:`app.db.models.User` row (``muted_until``,
``mute_reason``). Chat lines are kept for ``CHAT_LOG_DAYS`` days (see
:func:`app.chat.store.prune_chat_lines`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow

WORD_LENGTH = 40
REASON_LENGTH = 500
LINE_LENGTH = 200


class ChatWord(Base):
    """A word the chat filter masks, lower-cased (see :class:`app.chat.wordfilter.WordFilter`)."""

    __tablename__ = "chat_words"

    word: Mapped[str] = mapped_column(String(WORD_LENGTH), primary_key=True)
    added_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class IgnoredPlayer(Base):
    """``user_id`` does not want to read ``ignored_id``'s chat, at any table."""

    __tablename__ = "ignored_players"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    ignored_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                            primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ChatReport(Base):
    """A player's report about another, with the table's last chat lines and hand."""

    __tablename__ = "chat_reports"
    __table_args__ = (Index("ix_chat_reports_open", "handled_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                             index=True)
    reported_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                             index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    hand_id: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))
    # The table's last chat lines when the report was made: [{"public_id", "name", "text", "at"}].
    chat: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    handled_at: Mapped[datetime | None]
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))


class ChatLine(Base):
    """One line said at a table: as its author typed it and as the others were shown it."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_table", "table_id", "id"),
                      Index("ix_chat_lines_user", "user_id", "id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    said: Mapped[str] = mapped_column(String(LINE_LENGTH))
    shown: Mapped[str] = mapped_column(String(LINE_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
