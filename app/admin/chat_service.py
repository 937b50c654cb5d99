"""Admin work on chat: the word list, mutes, reports and the chat log. Every change is
written to the audit log in its transaction; the caller then announces it to the
processes (:meth:`app.realtime.chat.ChatKeeper.announce`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.admin.errors import ChatWordExists, ChatWordNotFound, ReportNotFound
from app.admin.schemas import ChatLinePublic, ChatPerson, ChatReportPublic, ReportLine
from app.admin.service import record
from app.chat import store
from app.chat.wordfilter import WordFilter
from app.db.chat import ChatLine, ChatReport, ChatWord
from app.db.models import User, utcnow


def _person(user: User) -> ChatPerson:
    return ChatPerson(id=user.id, public_id=user.public_id, name=user.display_name)


async def add_word(session: AsyncSession, admin: User, word: str) -> tuple[ChatWord, list[str]]:
    """Add a word (stored lower-cased); :class:`ChatWordExists` when the list already
    masks it (``shiit`` once ``shit`` is listed). Returns it and the whole new list."""
    text = word.strip().lower()
    listed = await store.words(session)
    if WordFilter(listed).masks(text):
        raise ChatWordExists("the filter already masks this word", word=text)
    entry = ChatWord(word=text, added_by=admin.id, created_at=utcnow())
    session.add(entry)
    record(session, admin, "chat_word_add", None, word=text)
    try:
        await session.commit()
    except IntegrityError:  # added meanwhile by another admin
        await session.rollback()
        raise ChatWordExists("the filter already masks this word", word=text) from None
    return entry, [*listed, text]


async def remove_word(session: AsyncSession, admin: User, word: str) -> list[str]:
    """Remove a word; :class:`ChatWordNotFound` when it is not listed. Returns the new list."""
    text = word.strip().lower()
    entry = await session.get(ChatWord, text)
    if entry is None:
        raise ChatWordNotFound("this word is not on the list", word=text)
    await session.delete(entry)
    record(session, admin, "chat_word_remove", None, word=text)
    await session.commit()
    return await store.words(session)


async def word_entries(session: AsyncSession) -> list[ChatWord]:
    """The word list with when each was added, alphabetically."""
    return list((await session.scalars(select(ChatWord).order_by(ChatWord.word))).all())


async def mute(session: AsyncSession, admin: User, user: User, minutes: int,
               reason: str) -> User:
    """Mute a player for ``minutes`` from now (a new mute replaces one in force)."""
    user.muted_until = utcnow() + timedelta(minutes=minutes)
    user.mute_reason = reason
    record(session, admin, "mute", user, minutes=minutes, reason=reason,
           until=user.muted_until.isoformat())
    await session.commit()
    return user


async def unmute(session: AsyncSession, admin: User, user: User) -> User:
    """Lift a player's mute (nothing is recorded when there is none)."""
    if user.muted_until is not None:
        record(session, admin, "unmute", user, previous_until=user.muted_until.isoformat(),
               previous_reason=user.mute_reason)
        user.muted_until = None
        user.mute_reason = None
        await session.commit()
    return user


async def chat_lines(session: AsyncSession, *, user_id: int | None, table_id: str | None,
                     offset: int, limit: int) -> tuple[list[ChatLinePublic], int]:
    """A page of the chat log, newest first, of one player and/or one table."""
    conditions: list[ColumnElement[bool]] = []
    if user_id is not None:
        conditions.append(ChatLine.user_id == user_id)
    if table_id is not None:
        conditions.append(ChatLine.table_id == table_id)
    count = await session.scalar(select(func.count()).select_from(ChatLine).where(*conditions))
    rows = await session.execute(
        select(ChatLine, User).join(User, User.id == ChatLine.user_id).where(*conditions)
        .order_by(ChatLine.id.desc()).offset(offset).limit(limit))
    return [ChatLinePublic(id=line.id, table_id=line.table_id, user=_person(user),
                           said=line.said, shown=line.shown, at=line.created_at)
            for line, user in rows.all()], int(count or 0)


async def reports(session: AsyncSession, *, handled: bool | None, offset: int,
                  limit: int) -> tuple[list[ChatReportPublic], int]:
    """A page of reports, newest first: open ones (``handled`` False), handled ones, or
    all (None)."""
    conditions: list[ColumnElement[bool]] = []
    if handled is not None:
        conditions.append(ChatReport.handled_at.is_not(None) if handled
                          else ChatReport.handled_at.is_(None))
    count = await session.scalar(select(func.count()).select_from(ChatReport)
                                 .where(*conditions))
    reporter, reported = aliased(User), aliased(User)
    rows = await session.execute(
        select(ChatReport, reporter, reported)
        .join(reporter, reporter.id == ChatReport.reporter_id)
        .join(reported, reported.id == ChatReport.reported_id)
        .where(*conditions).order_by(ChatReport.id.desc()).offset(offset).limit(limit))
    return [_report_public(report, by, about) for report, by, about in rows.all()], \
        int(count or 0)


def _report_public(report: ChatReport, by: User, about: User) -> ChatReportPublic:
    lines: list[dict[str, Any]] = list(report.chat or ())
    return ChatReportPublic(
        id=report.id, reporter=_person(by), reported=_person(about), table_id=report.table_id,
        hand_id=report.hand_id, reason=report.reason,
        chat=[ReportLine.model_validate(line) for line in lines],
        created_at=report.created_at, handled_at=report.handled_at,
        handled_by=report.handled_by)


async def handle_report(session: AsyncSession, admin: User, report_id: int
                        ) -> ChatReportPublic:
    """Mark a report handled (once; again changes nothing)."""
    report = await session.get(ChatReport, report_id)
    if report is None:
        raise ReportNotFound("no report has this id", report_id=report_id)
    if report.handled_at is None:
        report.handled_at = utcnow()
        report.handled_by = admin.id
        record(session, admin, "report_handled", None, report_id=report_id,
               reported_id=report.reported_id)
        await session.commit()
    by = await session.get(User, report.reporter_id)
    about = await session.get(User, report.reported_id)
    assert by is not None and about is not None  # rows cascade with their users
    return _report_public(report, by, about)
