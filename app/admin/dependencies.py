"""Admin route checks: the target account exists."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path

from app.accounts.dependencies import DbSession
from app.admin import service
from app.db.models import User


async def valid_user(user_id: Annotated[int, Path(ge=1)], session: DbSession) -> User:
    """The account named in the path; 404 when there is none."""
    return await service.get_user(session, user_id)


TargetUser = Annotated[User, Depends(valid_user)]
