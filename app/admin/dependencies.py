"""Admin route checks: the target account exists."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from app.accounts.dependencies import DbSession
from app.admin import service
from app.db.models import MAX_ID, User

UserId = Annotated[int, Path(ge=1, le=MAX_ID, description="The account's id")]


async def valid_user(user_id: UserId, session: DbSession) -> User:
    """The account named in the path; 404 when there is none."""
    return await service.get_user(session, user_id)


TargetUser = Annotated[User, Depends(valid_user)]
