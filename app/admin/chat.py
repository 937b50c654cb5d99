"""``/admin/chat`` and the mutes: the word list, reports about players, the chat log.

Included in :data:`app.admin.router.router`, so every route needs an admin; every change
is written to the audit log, then announced to every server process, so a new word or a
mute holds at every table at once.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Response

from app.accounts.dependencies import AdminUser, AppSettings, DbSession
from app.admin import chat_service as service
from app.admin.dependencies import TargetUser
from app.admin.schemas import (
    AdminUserPublic,
    ChatLinesPublic,
    ChatReportPublic,
    ChatReportsPublic,
    ChatWordCreate,
    ChatWordPublic,
    ChatWordsPublic,
    MuteRequest,
)
from app.admin.tables import TABLE_ID_PATTERN
from app.admin.views import Page, PerPage, admin_view
from app.db.models import MAX_ID
from app.moderation.dependencies import Chat

router = APIRouter(tags=["admin"])


Word = Annotated[str, Path(min_length=1, max_length=40)]


@router.get("/chat/words")
async def list_chat_words(session: DbSession) -> ChatWordsPublic:
    """The words the chat filter masks."""
    entries = await service.word_entries(session)
    return ChatWordsPublic(items=[ChatWordPublic(word=e.word, created_at=e.created_at)
                                  for e in entries], count=len(entries))


@router.post("/chat/words", status_code=201)
async def add_chat_word(data: ChatWordCreate, admin: AdminUser, session: DbSession,
                        chat: Chat) -> ChatWordPublic:
    """Mask a word from now on, at every table (audited)."""
    entry, words = await service.add_word(session, admin, data.word)
    await chat.announce({"kind": "chat_words", "words": words})
    return ChatWordPublic(word=entry.word, created_at=entry.created_at)


@router.delete("/chat/words/{word}", status_code=204)
async def remove_chat_word(word: Word, admin: AdminUser, session: DbSession,
                           chat: Chat) -> Response:
    """Stop masking a word (audited)."""
    words = await service.remove_word(session, admin, word)
    await chat.announce({"kind": "chat_words", "words": words})
    return Response(status_code=204)


@router.post("/users/{user_id}/mute")
async def mute_user(data: MuteRequest, user: TargetUser, admin: AdminUser, session: DbSession,
                    settings: AppSettings, chat: Chat) -> AdminUserPublic:
    """Refuse a player's chat at every table for ``minutes`` (audited)."""
    await service.mute(session, admin, user, data.minutes, data.reason)
    until = user.muted_until.timestamp() if user.muted_until else None
    await chat.announce({"kind": "chat_mute", "user_id": user.id, "until": until})
    return admin_view(user, settings)


@router.post("/users/{user_id}/unmute")
async def unmute_user(user: TargetUser, admin: AdminUser, session: DbSession,
                      settings: AppSettings, chat: Chat) -> AdminUserPublic:
    """Let a muted player chat again (audited)."""
    await service.unmute(session, admin, user)
    await chat.announce({"kind": "chat_mute", "user_id": user.id, "until": None})
    return admin_view(user, settings)


@router.get("/chat/lines")
async def list_chat_lines(
    session: DbSession,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID, description="One player's")] = None,
    table_id: Annotated[str | None, Query(max_length=32, pattern=TABLE_ID_PATTERN,
                                          description="One table's")] = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> ChatLinesPublic:
    """The chat log, newest first: each line as typed and as shown (kept CHAT_LOG_DAYS)."""
    items, count = await service.chat_lines(session, user_id=user_id, table_id=table_id,
                                            offset=(page - 1) * per_page, limit=per_page)
    return ChatLinesPublic(items=items, count=count, page=page, per_page=per_page)


@router.get("/chat/reports")
async def list_chat_reports(
    session: DbSession,
    status: Literal["open", "handled", "all"] = "open",
    page: Page = 1,
    per_page: PerPage = 50,
) -> ChatReportsPublic:
    """Reports about players, newest first, with the chat lines and hand they carry."""
    handled = {"open": False, "handled": True, "all": None}[status]
    items, count = await service.reports(session, handled=handled,
                                         offset=(page - 1) * per_page, limit=per_page)
    return ChatReportsPublic(items=items, count=count, page=page, per_page=per_page)


@router.post("/chat/reports/{report_id}/handle")
async def handle_chat_report(
    report_id: Annotated[int, Path(ge=1, le=MAX_ID)], admin: AdminUser, session: DbSession
) -> ChatReportPublic:
    """Mark a report handled (audited)."""
    return await service.handle_report(session, admin, report_id)
