"""``/users/me/ignored``: the players whose chat you do not read, at any table."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from app.accounts.dependencies import CurrentUser, DbSession
from app.errors import error_responses
from app.moderation import service
from app.moderation.dependencies import Chat
from app.moderation.schemas import PUBLIC_ID, IgnoredCreate, IgnoredListPublic, IgnoredPublic
from app.realtime.chat import ChatKeeper

router = APIRouter(prefix="/users/me/ignored", tags=["users"],
                   responses=error_responses(401, 403, 404, 409, 422))
PublicId = Annotated[str, Path(pattern=PUBLIC_ID, description="The player's public id")]




async def _announce(chat: ChatKeeper, user_id: int, items: list[IgnoredPublic]) -> None:
    await chat.announce({"kind": "chat_ignores", "user_id": user_id,
                         "ignored": [item.public_id for item in items]})


@router.get("")
async def list_ignored(user: CurrentUser, session: DbSession) -> IgnoredListPublic:
    """The players you ignore."""
    items = await service.ignored_by(session, user.id)
    return IgnoredListPublic(items=items, count=len(items))


@router.post("", status_code=201)
async def ignore_player(data: IgnoredCreate, user: CurrentUser, session: DbSession,
                        chat: Chat) -> IgnoredListPublic:
    """Stop receiving a player's chat at every table, on every device."""
    items = await service.ignore(session, user, data.public_id)
    await _announce(chat, user.id, items)
    return IgnoredListPublic(items=items, count=len(items))


@router.delete("/{public_id}", status_code=204)
async def unignore_player(public_id: PublicId, user: CurrentUser, session: DbSession,
                          chat: Chat) -> Response:
    """Receive a player's chat again."""
    items = await service.unignore(session, user, public_id)
    await _announce(chat, user.id, items)
    return Response(status_code=204)
