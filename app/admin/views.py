"""How admin routes show an account, and their paging parameters."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from app.accounts.views import user_private
from app.admin.schemas import AdminUserPublic
from app.config import Settings
from app.db.models import User

Page = Annotated[int, Query(ge=1, le=1_000_000)]
PerPage = Annotated[int, Query(ge=1, le=200)]


def admin_view(user: User, settings: Settings) -> AdminUserPublic:
    """An account with the fields only admins see."""
    return AdminUserPublic(
        **user_private(user, settings).model_dump(),
        ban_reason=user.ban_reason,
        banned_at=user.banned_at,
        deleted_at=user.deleted_at,
        email_verified_at=user.email_verified_at,
        last_daily_credits_at=user.last_daily_credits_at,
        muted_until=user.muted_until,
        mute_reason=user.mute_reason,
    )
